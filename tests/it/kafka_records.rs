//! Kafka's own record format (issue 15, PROTOCOL.md §8.5): `kafka_records()` writes the
//! compacted log as the JSON lines of Kafka's `CoordinatorRecordMessageFormatter`, and
//! `from_kafka_records` reads those or `kafka-dump-log --offsets-decoder` output back:
//! field names and record types as Kafka's schemas define them, tombstones, other
//! groups' and unknown records skipped and counted, malformed lines named.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::*;
use serde_json::Value;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::kafka_records::{ClusterInput, LoadOptions, LoadReport};
use streams_rebalance::coordinator::records::*;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::protocol::json::{decode_str, InputError};
use streams_rebalance::protocol::*;

const JSONL: &str = include_str!("../fixtures/kafka-rolling-bounce.jsonl");
const DUMP: &str = include_str!("../fixtures/kafka-rolling-bounce.dump.txt");
const GROUP: &str = "orders-app";
const HASH: i64 = 8_764_291_058_312_984_573;

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn load(text: &str) -> (Coordinator, LoadReport) {
    Coordinator::from_kafka_records(text, &LoadOptions::default()).unwrap()
}

fn load_err(text: &str) -> InputError {
    match Coordinator::from_kafka_records(text, &LoadOptions::default()) {
        Ok(_) => panic!("loaded: {text}"),
        Err(e) => e,
    }
}

fn describe(c: &mut Coordinator, group: &str) -> DescribedGroup {
    c.describe(&[group.to_owned()], &ctx()).groups.remove(0)
}

/// A stable two-member group "app" on topic "in" (4 partitions).
fn two_members() -> (Coordinator, Vec<Client>) {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "in", 4);
    let mut a = Client::new("app", "member-a", topology(0, "in"));
    let mut b = Client::new("app", "member-b", topology(0, "in"));
    converge(&mut c, &mut [&mut a, &mut b], 10);
    (c, vec![a, b])
}

// ---- Writing ----

/// The keys of a JSON object in `line`, in the order the text has them (serde_json's
/// maps sort their keys, so the order is read from the text).
fn keys_in_order(line: &str, object: &Value) -> Vec<String> {
    let mut keys: Vec<(usize, String)> = object
        .as_object()
        .unwrap()
        .keys()
        .map(|k| (line.find(&format!("\"{k}\":")).unwrap(), k.clone()))
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| k).collect()
}

#[test]
fn kafka_records_use_kafkas_types_field_names_and_versions() {
    let (c, _) = two_members();
    let text = c.kafka_records();
    let raw: Vec<&str> = text.lines().collect();
    let out = lines(&text);
    let types: Vec<i64> = out
        .iter()
        .map(|l| l["key"]["type"].as_i64().unwrap())
        .collect();
    // Only streams group records: 17 and 19 to 23 (18 was removed before 4.1).
    assert!(
        types.iter().all(|t| [17, 19, 20, 21, 22, 23].contains(t)),
        "{types:?}"
    );
    for t in [17, 19, 20, 21, 22, 23] {
        assert!(types.contains(&t), "type {t} missing from {types:?}");
    }
    let of = |t: i64| {
        let i = out.iter().position(|l| l["key"]["type"] == t).unwrap();
        (raw[i], &out[i])
    };
    for line in &raw {
        assert!(line.starts_with(r#"{"key":{"type":"#), "{line}");
        assert!(line.contains(r#"},"value":{"version":"#), "{line}");
    }
    let (line, metadata) = of(17);
    assert_eq!(
        metadata["key"]["data"],
        serde_json::json!({ "groupId": "app" })
    );
    assert_eq!(metadata["value"]["version"], 0);
    // Tagged fields only when not default: the topology is ready, so its epoch (0) is
    // validated; the assignment configs as Kafka writes them.
    assert_eq!(
        keys_in_order(line, &metadata["value"]["data"]),
        [
            "epoch",
            "metadataHash",
            "validatedTopologyEpoch",
            "lastAssignmentConfigs"
        ]
    );
    assert_eq!(metadata["value"]["data"]["validatedTopologyEpoch"], 0);
    assert_eq!(
        metadata["value"]["data"]["lastAssignmentConfigs"],
        serde_json::json!([{ "key": "num.standby.replicas", "value": "0" }])
    );
    let (line, member) = of(19);
    assert_eq!(
        keys_in_order(line, &member["key"]["data"]),
        ["groupId", "memberId"]
    );
    assert_eq!(
        keys_in_order(line, &member["value"]["data"]),
        [
            "instanceId",
            "rackId",
            "clientId",
            "clientHost",
            "rebalanceTimeoutMs",
            "topologyEpoch",
            "processId",
            "userEndpoint",
            "clientTags"
        ]
    );
    let (line, topology) = of(23);
    assert_eq!(topology["value"]["data"]["epoch"], 0);
    assert_eq!(
        keys_in_order(line, &topology["value"]["data"]["subtopologies"][0]),
        [
            "subtopologyId",
            "sourceTopics",
            "sourceTopicRegex",
            "stateChangelogTopics",
            "repartitionSinkTopics",
            "repartitionSourceTopics",
            "copartitionGroups"
        ]
    );
    // AssignmentTimestamp (tag 0) is at its default: absent.
    let (line, target_meta) = of(20);
    assert_eq!(
        keys_in_order(line, &target_meta["value"]["data"]),
        ["assignmentEpoch"]
    );
    let (line, current) = of(22);
    assert_eq!(
        keys_in_order(line, &current["value"]["data"]),
        [
            "memberEpoch",
            "previousMemberEpoch",
            "state",
            "activeTasks",
            "standbyTasks",
            "warmupTasks",
            "activeTasksPendingRevocation",
            "standbyTasksPendingRevocation",
            "warmupTasksPendingRevocation"
        ]
    );
    assert_eq!(current["value"]["data"]["state"], 1);
    // The tagged assignmentEpochs: one per partition of each active task list, and only
    // there (standby and warm-up lists have none).
    for t in current["value"]["data"]["activeTasks"].as_array().unwrap() {
        assert_eq!(
            t["assignmentEpochs"].as_array().map(Vec::len),
            t["partitions"].as_array().map(Vec::len),
            "{t}"
        );
    }
    for key in ["standbyTasks", "warmupTasks"] {
        for t in current["value"]["data"][key].as_array().unwrap() {
            assert!(t.get("assignmentEpochs").is_none(), "{t}");
        }
    }
}

#[test]
fn kafka_records_are_the_compacted_log_and_leave_out_the_models_own_records() {
    let (mut c, mut clients) = two_members();
    clients[1].leave(&mut c);
    let out = lines(&c.kafka_records());
    // No tombstone survives compaction, and the departed member is gone.
    assert!(out.iter().all(|l| !l["value"].is_null()));
    assert!(!c.kafka_records().contains("member-b"));
    // One record per key: a single group metadata record with the latest epoch.
    let metadata: Vec<&Value> = out.iter().filter(|l| l["key"]["type"] == 17).collect();
    assert_eq!(metadata.len(), 1);
    assert_eq!(
        metadata[0]["value"]["data"]["epoch"],
        describe(&mut c, "app").group_epoch
    );
    // The model's own records (topics, timers, clock) are not among Kafka's.
    let ours: Vec<&str> = c.records().iter().map(|r| r.key.value_type()).collect();
    assert!(ours.contains(&"TopicValue") && ours.contains(&"StreamsGroupMemberTimersValue"));
    assert!(!c.kafka_records().contains("sessionDeadlineMs"));
    assert!(!c.kafka_records().contains("numPartitions"));
}

#[test]
fn offset_commits_are_written_at_version_4_and_int64_beyond_2_53_stay_exact() {
    let records = vec![
        Record {
            offset: 0,
            key: RecordKey::GroupMetadata {
                group_id: "app".into(),
            },
            value: Some(RecordValue::GroupMetadata(GroupMetadataValue {
                epoch: 3,
                metadata_hash: HASH,
                shutdown_requester: None,
            })),
        },
        Record {
            offset: 1,
            key: RecordKey::OffsetCommit {
                group_id: "app".into(),
                topic: "in".into(),
                partition: 2,
            },
            value: Some(RecordValue::OffsetCommit(OffsetCommitValue {
                offset: 9_007_199_254_740_993,
                metadata: None,
                commit_timestamp_ms: 1_764_590_400_000,
            })),
        },
    ];
    let c = Coordinator::from_records(CoordinatorConfig::default(), records).unwrap();
    let text = c.kafka_records();
    assert_eq!(
        text,
        concat!(
            r#"{"key":{"type":17,"data":{"groupId":"app"}},"value":{"version":0,"data":{"epoch":3,"metadataHash":8764291058312984573,"lastAssignmentConfigs":[{"key":"num.standby.replicas","value":"0"}]}}}"#,
            "\n",
            r#"{"key":{"type":1,"data":{"group":"app","topic":"in","partition":2}},"value":{"version":4,"data":{"offset":9007199254740993,"leaderEpoch":-1,"metadata":"","commitTimestamp":1764590400000}}}"#,
            "\n"
        )
    );
    let (back, report) = load(&text);
    assert_eq!(report.groups, ["app"]);
    assert_eq!(
        back.streams_group("app").unwrap().metadata_hash,
        HASH as u64
    );
    assert_eq!(back.kafka_records(), text);
}

// ---- The hand-made fixture: a 3-member rolling bounce ----

fn fixture_members(d: &DescribedGroup) -> Vec<(String, i32, String, Vec<i32>)> {
    d.members
        .iter()
        .map(|m| {
            (
                m.member_id.clone(),
                m.member_epoch,
                m.member_state.clone(),
                m.assignment
                    .active_tasks
                    .iter()
                    .flat_map(|t| t.partitions.clone())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn fixture_loads_and_describes_the_end_of_the_rolling_bounce() {
    let (mut c, report) = load(JSONL);
    assert_eq!(report.groups, [GROUP]);
    assert_eq!(report.records, 92, "94 lines, 2 of another group");
    assert_eq!(
        report.skipped.other_groups, 2,
        "billing's metadata and offset commit"
    );
    assert_eq!(report.skipped.unknown_types, 0);
    let inferred: Vec<(String, i32, String)> = report
        .inferred
        .iter()
        .map(|t| (t.topic.clone(), t.num_partitions, t.from.clone()))
        .collect();
    assert_eq!(
        inferred,
        [
            ("orders".to_owned(), 6, "assignments".to_owned()),
            (
                "orders-app-order-store-changelog".to_owned(),
                6,
                "assignments".to_owned()
            ),
        ]
    );
    assert!(report.unresolved.is_empty());
    // Kafka's hash covers topic ids and racks this model does not see: replaced.
    assert_eq!(report.adopted_metadata_hash, [GROUP]);
    let d = describe(&mut c, GROUP);
    assert_eq!(d.error_code, 0);
    assert_eq!(d.group_state, "Stable");
    assert_eq!(
        (d.group_epoch, d.assignment_epoch, d.topology_epoch),
        (9, 9, 0)
    );
    assert_eq!(
        fixture_members(&d),
        [
            (
                "Fk2pQ7wXRbyN4vE9hT1mCs".to_owned(),
                9,
                "Stable".to_owned(),
                vec![1, 4]
            ),
            (
                "Pm9aS4eVQf7tB1yK6jD0Ho".to_owned(),
                9,
                "Stable".to_owned(),
                vec![2, 5]
            ),
            (
                "Zc6dJ3nKTh0sW8qL5xG2Ru".to_owned(),
                9,
                "Stable".to_owned(),
                vec![0, 3]
            ),
        ]
    );
    let a2 = &d.members[0];
    assert_eq!(a2.process_id, "5f1c2a9e-3b7d-4c61-9a0e-2d8f6b4c1e07");
    assert_eq!(a2.client_host, "/10.0.0.11");
    // The offset commits of the group are loaded; billing's are not.
    let commits: Vec<Value> = lines(&c.kafka_records())
        .into_iter()
        .filter(|l| l["key"]["type"] == 1)
        .collect();
    assert_eq!(commits.len(), 2);
    assert!(commits.iter().all(|l| l["key"]["data"]["group"] == GROUP));
    assert_eq!(commits[0]["value"]["data"]["offset"], 1200);
}

#[test]
fn fixture_members_heartbeat_on_without_a_rebalance() {
    let (mut c, _) = load(JSONL);
    for (id, parts) in [
        ("Fk2pQ7wXRbyN4vE9hT1mCs", vec![1, 4]),
        ("Zc6dJ3nKTh0sW8qL5xG2Ru", vec![0, 3]),
        ("Pm9aS4eVQf7tB1yK6jD0Ho", vec![2, 5]),
    ] {
        let req = StreamsGroupHeartbeatRequest {
            group_id: GROUP.into(),
            member_id: id.into(),
            member_epoch: 9,
            active_tasks: Some(vec![ids("0", &parts)].into()),
            standby_tasks: Some(vec![].into()),
            warmup_tasks: Some(vec![].into()),
            ..Default::default()
        };
        let r = c.heartbeat(&req, &ctx());
        assert_eq!(
            (r.error_code, r.member_epoch),
            (0, 9),
            "{id}: {:?}",
            r.error_message
        );
    }
    assert_eq!(describe(&mut c, GROUP).group_epoch, 9);
}

#[test]
fn fixture_as_dump_log_lines_loads_identically() {
    let (mut a, ra) = load(JSONL);
    let (mut b, rb) = load(DUMP);
    assert_eq!(
        json(&describe(&mut b, GROUP)),
        json(&describe(&mut a, GROUP))
    );
    assert_eq!(rb.groups, ra.groups);
    assert_eq!(rb.records, ra.records);
    assert_eq!(json(&rb.inferred), json(&ra.inferred));
    assert_eq!(rb.skipped.other_groups, ra.skipped.other_groups);
    // Batch headers and the two header lines are no records.
    assert_eq!(rb.skipped.other_lines, 40 + 2);
    // A dump has the records' times: the clock starts at the latest.
    assert_eq!(rb.now_ms, 1_764_590_400_000 + 66_000);
    assert_eq!(ra.now_ms, 0);
    assert_eq!(b.kafka_records(), a.kafka_records());
}

#[test]
fn a_given_cluster_keeps_the_recorded_hash_exactly_and_the_next_heartbeat_bumps() {
    let options = LoadOptions {
        cluster: Some(ClusterInput {
            topics: decode_str(
                r#"[{"name":"orders","numPartitions":6},{"name":"orders-app-order-store-changelog","numPartitions":6}]"#,
                "topics",
            )
            .unwrap(),
        }),
        ..Default::default()
    };
    let (mut c, report) = Coordinator::from_kafka_records(JSONL, &options).unwrap();
    assert!(report.adopted_metadata_hash.is_empty());
    assert!(report.inferred.iter().all(|t| t.from == "cluster"));
    assert_eq!(c.streams_group(GROUP).unwrap().metadata_hash, HASH as u64);
    assert!(c
        .kafka_records()
        .contains("\"metadataHash\":8764291058312984573"));
    // Kafka's hash is not this model's: the next heartbeat sees a metadata change.
    let req = StreamsGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: "Fk2pQ7wXRbyN4vE9hT1mCs".into(),
        member_epoch: 9,
        ..Default::default()
    };
    c.heartbeat(&req, &ctx());
    assert_eq!(describe(&mut c, GROUP).group_epoch, 10);
}

// ---- Reading: details and errors ----

const MEMBER_KEY: &str = r#"{"groupId":"g","memberId":"m1"}"#;

fn member_line(value: &str) -> String {
    format!(r#"{{"key":{{"type":19,"data":{MEMBER_KEY}}},"value":{value}}}"#)
}

const MEMBER_VALUE: &str = r#"{"version":0,"data":{"instanceId":null,"rackId":null,"clientId":"c","clientHost":"/h","rebalanceTimeoutMs":1000,"topologyEpoch":0,"processId":"p","userEndpoint":{"host":"h","port":8080},"clientTags":[]}}"#;

#[test]
fn a_tombstone_removes_what_its_key_held() {
    let text = format!("{}\n{}\n", member_line(MEMBER_VALUE), member_line("null"));
    let (mut c, report) = load(&text);
    assert_eq!(report.records, 2);
    assert!(describe(&mut c, "g").members.is_empty());
    let (mut c, _) = load(&member_line(MEMBER_VALUE));
    let d = describe(&mut c, "g");
    assert_eq!(
        d.members[0].user_endpoint,
        Some(Endpoint {
            host: "h".into(),
            port: 8080
        })
    );
}

#[test]
fn unknown_types_other_groups_and_blank_lines_are_skipped_and_counted() {
    let text = [
        "",
        &member_line(MEMBER_VALUE),
        // Type 18 (a partition-metadata record removed before 4.1) and a future type.
        r#"{"key":{"type":18,"data":{"groupId":"g"}},"value":{"version":0,"data":{"topics":[]}}}"#,
        r#"{"key":{"type":99,"data":{}},"value":null}"#,
        // A classic group, a consumer group member, a share group.
        r#"{"key":{"type":2,"data":{"group":"classic"}},"value":null}"#,
        r#"{"key":{"type":5,"data":{"groupId":"cg","memberId":"x"}},"value":null}"#,
        r#"{"key":{"type":11,"data":{"groupId":"sg"}},"value":null}"#,
        "   ",
    ]
    .join("\n");
    let (_, report) = load(&text);
    assert_eq!(report.groups, ["g"]);
    assert_eq!(report.records, 1);
    assert_eq!(report.skipped.blank_lines, 2);
    assert_eq!(report.skipped.unknown_types, 2);
    assert_eq!(report.skipped.other_groups, 3);
}

#[test]
fn records_may_follow_each_other_on_one_line_as_the_formatter_prints_them() {
    let one = member_line(MEMBER_VALUE);
    let (_, report) = load(&format!("{one}{one}"));
    assert_eq!(report.records, 2);
}

#[test]
fn unknown_fields_are_ignored_as_kafkas_converters_do() {
    // A later version's tagged field, and Kafka 4.3's assignment timestamp.
    let value = MEMBER_VALUE.replace(
        r#""clientTags":[]"#,
        r#""clientTags":[],"futureTaggedField":7"#,
    );
    let (_, report) = load(&member_line(&value));
    assert_eq!(report.records, 1);
    let text = r#"{"key":{"type":20,"data":{"groupId":"g"}},"value":{"version":0,"data":{"assignmentEpoch":4,"assignmentTimestamp":1764590400000}}}"#;
    let (c, _) = load(text);
    assert_eq!(c.streams_group("g").unwrap().assignment_epoch, 4);
}

#[test]
fn a_truncated_line_names_its_line() {
    let good = member_line(MEMBER_VALUE);
    let text = format!("{good}\n{}\n", &good[..good.len() - 20]);
    let e = load_err(&text);
    assert_eq!(e.path(), "line 2", "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
}

#[test]
fn a_wrong_type_in_a_field_names_the_line_and_the_field() {
    let value = MEMBER_VALUE.replace(
        r#""rebalanceTimeoutMs":1000"#,
        r#""rebalanceTimeoutMs":"soon""#,
    );
    let text = format!("\n{}\n", member_line(&value));
    let e = load_err(&text);
    assert_eq!(e.path(), "line 2: value.data.rebalanceTimeoutMs", "{e}");
    let e = load_err(&member_line(
        &MEMBER_VALUE.replace(r#""clientId":"c","#, ""),
    ));
    assert_eq!(e.path(), "line 1: value.data.clientId", "{e}");
    let e = load_err(
        r#"{"key":{"type":22,"data":{"groupId":"g","memberId":"m"}},"value":{"version":0,"data":{"memberEpoch":1,"previousMemberEpoch":0,"state":9,"activeTasks":[],"standbyTasks":[],"warmupTasks":[],"activeTasksPendingRevocation":[],"standbyTasksPendingRevocation":[],"warmupTasksPendingRevocation":[]}}}"#,
    );
    assert_eq!(e.path(), "line 1: value.data.state", "{e}");
    let e = load_err(r#"{"key":{"type":"x19","data":{}},"value":null}"#);
    assert_eq!(e.path(), "line 1: key.type", "{e}");
    let e =
        load_err(r#"{"key":{"type":23,"data":{"groupId":"g"}},"value":{"version":1,"data":{}}}"#);
    assert_eq!(e.path(), "line 1: value.version", "{e}");
}

#[test]
fn a_failed_load_changes_nothing_it_returns_no_coordinator() {
    // Every line is read before anything is applied: one bad line fails it all.
    let text = format!("{}\nnot json\n", member_line(MEMBER_VALUE));
    let e = load_err(&text);
    assert_eq!(e.path(), "line 2", "{e}");
}

// ---- Reading: kafka-dump-log lines ----

#[test]
fn dump_log_lines_read_offsets_times_tombstones_and_skipped_records() {
    let text = concat!(
        "Dumping /data/__consumer_offsets-7/00000000000000000000.log\n",
        "Log starting offset: 0\n",
        "baseOffset: 0 lastOffset: 1 count: 2 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 5000 size: 300 magic: 2 compresscodec: none crc: 1 isvalid: true\n",
        r#"| offset: 0 CreateTime: 5000 keySize: 20 valueSize: 50 sequence: -1 headerKeys: [] key: {"type":"20","data":{"groupId":"g"}} payload: {"version":"0","data":{"assignmentEpoch":3}}"#, "\n",
        r#"| offset: 1 CreateTime: 5000 keySize: 20 valueSize: 50 sequence: -1 headerKeys: [] key: Unknown record type 18 at offset 1, skipping."#, "\n",
        "baseOffset: 2 lastOffset: 2 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 300 CreateTime: 7000 size: 100 magic: 2 compresscodec: none crc: 2 isvalid: true\n",
        r#"| offset: 2 CreateTime: 7000 keySize: 20 valueSize: -1 sequence: -1 headerKeys: [] key: {"type":"20","data":{"groupId":"g"}} payload: <DELETE>"#, "\n",
        "| offset: 3 CreateTime: 7100 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0\n",
    );
    let (c, report) = load(text);
    assert_eq!(report.records, 2);
    assert_eq!(report.skipped.unknown_types, 1);
    assert_eq!(report.skipped.other_lines, 5);
    assert_eq!(report.now_ms, 7000);
    // The tombstone reset the target assignment epoch.
    assert_eq!(c.streams_group("g").unwrap().assignment_epoch, 0);
}

#[test]
fn dump_log_errors_name_the_line_and_field() {
    let header = "Dumping x.log\n";
    let e = load_err(&format!(
        r#"{header}| offset: 0 CreateTime: 1 keySize: 1 valueSize: 1 key: {{"type":"20","data":{{"groupId":"g"}}}} payload: {{"version":"0","data":{{"assignmentEpoch":"three"}}}}"#
    ));
    assert_eq!(e.path(), "line 2: payload.data.assignmentEpoch", "{e}");
    let e = load_err(&format!(
        r#"{header}| offset: 0 CreateTime: 1 keySize: 1 valueSize: 1 key: {{"type":"20","data":{{"groupId":"g"}}}} payload: {{"version":"0","data":{{"assignm"#
    ));
    assert_eq!(e.path(), "line 2: payload", "{e}");
    let e = load_err(&format!(
        r#"{header}| offset: 0 CreateTime: 1 keySize: 1 valueSize: 1 key: {{"type":"20","data":{{"groupId":"g"}}}}"#
    ));
    assert_eq!(e.path(), "line 2: payload", "{e}");
    // Without --offsets-decoder the keys are not decoded.
    let e = load_err(&format!(
        "{header}| offset: 0 CreateTime: 1 keySize: 1 valueSize: 1 sequence: -1 headerKeys: []\n"
    ));
    assert!(e.to_string().contains("--offsets-decoder"), "{e}");
}
