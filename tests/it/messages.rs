//! The protocol messages through JSON: every type round-trips to itself, int64 values
//! beyond 2^53 survive as strings, and malformed input gets the exact error naming its
//! field path. Native only; tests/it/wasm_messages.rs does the same through JsValue.
#![cfg(not(target_arch = "wasm32"))]

use serde::Serialize;
use serde_json::json;
use std::fmt::Debug;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::protocol::json::{decode, decode_str, Validate, MAX_SAFE_INTEGER};
use streams_rebalance::protocol::*;

mod samples {
    //! Rich values of every message type: every optional field set, several elements
    //! in every list, numbers at the edges of their ranges.
    include!("support/samples.rs");
}
use samples::*;

/// Serializes with serde, decodes with the strict decoder, compares.
fn round_trip<T: Serialize + serde::de::DeserializeOwned + Validate + PartialEq + Debug>(
    value: &T,
    what: &str,
) {
    let text = serde_json::to_string(value).expect("serializes");
    let back: T = decode_str(&text, what).unwrap_or_else(|e| panic!("{e}\nin {text}"));
    assert_eq!(&back, value, "{what} changed through JSON: {text}");
    // And through a parsed value, as the wasm binding decodes it.
    let v = serde_json::to_value(value).expect("serializes");
    let back: T = decode(&v, what).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&back, value);
}

#[test]
fn heartbeat_request_round_trips() {
    round_trip(&heartbeat_request(), "heartbeat");
    round_trip(&join_request(), "heartbeat");
    round_trip(&StreamsGroupHeartbeatRequest::default(), "heartbeat");
}

#[test]
fn heartbeat_response_round_trips() {
    round_trip(&heartbeat_response(), "heartbeat response");
    round_trip(
        &StreamsGroupHeartbeatResponse::default(),
        "heartbeat response",
    );
}

#[test]
fn describe_messages_round_trip() {
    round_trip(&describe_request(), "describe request");
    round_trip(&describe_response(), "describe response");
    round_trip(
        &StreamsGroupDescribeResponse::default(),
        "describe response",
    );
    round_trip(&DescribedGroup::default(), "group");
}

#[test]
fn list_groups_messages_round_trip() {
    round_trip(&list_groups_request(), "list groups request");
    round_trip(&ListGroupsRequest::default(), "list groups request");
    round_trip(&list_groups_response(), "list groups response");
}

#[test]
fn every_shared_structure_round_trips() {
    let request = heartbeat_request();
    let topology = request.topology.clone().expect("sample has a topology");
    round_trip(&topology, "topology");
    for s in &topology.subtopologies {
        round_trip(s, "subtopology");
        for t in s
            .state_changelog_topics
            .iter()
            .chain(&s.repartition_source_topics)
        {
            round_trip(t, "topic");
        }
        for g in &s.copartition_groups {
            round_trip(g, "copartition group");
        }
    }
    for (id, partitions) in request.active_tasks.iter().flat_map(|l| l.iter()) {
        let t = TaskIds {
            subtopology_id: id.to_owned(),
            partitions: partitions.to_vec(),
        };
        round_trip(&t, "task ids");
    }
    for o in request.task_offsets.iter().flatten() {
        round_trip(o, "task offset");
    }
    for kv in request.client_tags.iter().flatten() {
        round_trip(kv, "key value");
    }
    round_trip(
        &request.user_endpoint.clone().expect("endpoint"),
        "endpoint",
    );
    let response = heartbeat_response();
    for s in response.status.iter().flatten() {
        round_trip(s, "status");
    }
    for e in response.partitions_by_user_endpoint.iter().flatten() {
        round_trip(e, "endpoint partitions");
        for p in &e.partitions {
            round_trip(p, "topic partitions");
        }
    }
    let group = &describe_response().groups[0];
    round_trip(
        group.topology.as_ref().expect("topology"),
        "described topology",
    );
    round_trip(
        &group.topology.as_ref().expect("topology").subtopologies[0],
        "s",
    );
    round_trip(&group.members[0], "member");
    round_trip(&group.members[0].assignment, "assignment");
    round_trip(&list_groups_response().groups[0], "listed group");
}

#[test]
fn coordinator_config_round_trips() {
    round_trip(&CoordinatorConfig::default(), "config");
    let config = CoordinatorConfig {
        assignor: "highly_available".into(),
        heartbeat_interval_ms: 1000,
        session_timeout_ms: 10_000,
        num_standby_replicas: 2,
        acceptable_recovery_lag: i64::MAX,
        max_warmup_replicas: 4,
        task_offset_interval_ms: 30_000,
        group_max_size: Some(5),
        internal_topic_replication_factor: Some(2),
        seed: 42,
        rebalance_timeout_enabled: false,
        internal_topic_creation_delay_ms: 250,
        internal_topic_creation_backoff_ms: 2000,
        default_replication_factor: 1,
        max_state_bytes: 1 << 20,
        initial_rebalance_delay_ms: 3000,
        min_session_timeout_ms: 1000,
        max_session_timeout_ms: 90_000,
        min_heartbeat_interval_ms: 100,
        max_heartbeat_interval_ms: 20_000,
        max_standby_replicas: 3,
        max_warmup_replicas_limit: 10,
    };
    round_trip(&config, "config");
}

#[test]
fn int64_beyond_2_pow_53_survives_as_a_string() {
    let response = heartbeat_response();
    let text = serde_json::to_string(&response).expect("serializes");
    // 2^53 + 1 cannot be a JS number: it is written as a decimal string.
    assert!(
        text.contains(r#""acceptableRecoveryLag":"9007199254740993""#),
        "{text}"
    );
    let request = heartbeat_request();
    let v = serde_json::to_value(&request).expect("serializes");
    let offsets = &v["taskOffsets"];
    assert_eq!(offsets[0]["offset"], json!(0));
    assert_eq!(offsets[1]["offset"], json!(MAX_SAFE_INTEGER));
    assert_eq!(offsets[2]["offset"], json!("9007199254740992"));
    assert_eq!(offsets[3]["offset"], json!("9223372036854775807"));
    assert_eq!(
        v["taskEndOffsets"][0]["offset"],
        json!("-9223372036854775808")
    );
    // Read back exactly, whichever form.
    let back: StreamsGroupHeartbeatRequest = decode(&v, "heartbeat").expect("decodes");
    assert_eq!(back.task_offsets, request.task_offsets);
    // A number beyond 2^53 (as a JS BigInt turned into JSON text would give) is also read.
    let exact: StreamsGroupHeartbeatRequest = decode_str(
        r#"{"groupId":"g","memberId":"m","memberEpoch":1,
            "taskOffsets":[{"subtopologyId":"0","partition":0,"offset":9223372036854775807}]}"#,
        "heartbeat",
    )
    .expect("decodes");
    assert_eq!(exact.task_offsets.expect("offsets")[0].offset, i64::MAX);
}

#[test]
fn omitted_fields_take_the_protocols_defaults() {
    let r: StreamsGroupHeartbeatRequest = decode_str(
        r#"{"groupId":"g","memberId":"","memberEpoch":0}"#,
        "heartbeat",
    )
    .expect("decodes");
    assert_eq!(r.rebalance_timeout_ms, -1);
    assert!(!r.shutdown_application);
    assert_eq!(r.topology, None);
    assert_eq!(r.active_tasks, None);
    let t: Topology = decode_str(
        r#"{"epoch":3,"subtopologies":[{"subtopologyId":"a","stateChangelogTopics":[{"name":"c"}]}]}"#,
        "topology",
    )
    .expect("decodes");
    let s = &t.subtopologies[0];
    assert!(s.source_topics.is_empty() && s.copartition_groups.is_empty());
    assert_eq!(s.state_changelog_topics[0].partitions, 0);
    assert_eq!(s.state_changelog_topics[0].replication_factor, 0);
    // Nullable fields may be explicitly null.
    let r: StreamsGroupHeartbeatRequest = decode_str(
        r#"{"groupId":"g","memberId":"m","memberEpoch":3,"instanceId":null,"rackId":null,
            "topology":null,"activeTasks":null,"standbyTasks":null,"warmupTasks":null,
            "processId":null,"userEndpoint":null,"clientTags":null,"taskOffsets":null,
            "taskEndOffsets":null}"#,
        "heartbeat",
    )
    .expect("decodes");
    assert_eq!(r.member_epoch, 3);
    assert_eq!(r.instance_id, None);
}

#[test]
fn keys_of_later_kafka_versions_are_accepted_and_ignored() {
    let with: StreamsGroupHeartbeatRequest = decode_str(
        r#"{"groupId":"g","memberId":"m","memberEpoch":2,"endpointInformationEpoch":7}"#,
        "heartbeat",
    )
    .expect("endpointInformationEpoch is accepted");
    let without: StreamsGroupHeartbeatRequest = decode_str(
        r#"{"groupId":"g","memberId":"m","memberEpoch":2}"#,
        "heartbeat",
    )
    .expect("decodes");
    assert_eq!(with, without);
    let d: StreamsGroupDescribeRequest = decode_str(
        r#"{"groupIds":["a"],"includeTopologyDescription":true}"#,
        "describe",
    )
    .expect("includeTopologyDescription is accepted");
    assert_eq!(d.group_ids, vec!["a".to_owned()]);
}

/// A heartbeat request as JSON text, with `patch` merged in (a null in `patch` removes
/// the key; use `json!(null)` inside a nested value to send an explicit null).
fn heartbeat_with(patch: serde_json::Value) -> String {
    let mut v = json!({
        "groupId": "app",
        "memberId": "",
        "memberEpoch": 0,
        "rebalanceTimeoutMs": 30000,
        "topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["a"]},
            {"subtopologyId": "1", "sourceTopics": ["b"]},
            {"subtopologyId": "2", "sourceTopics": ["c"],
             "stateChangelogTopics": [{"name": "app-store-changelog"}],
             "copartitionGroups": [{"sourceTopics": [0]}]}
        ]},
        "activeTasks": [], "standbyTasks": [], "warmupTasks": []
    });
    if let (Some(obj), serde_json::Value::Object(p)) = (v.as_object_mut(), patch) {
        for (k, x) in p {
            obj.insert(k, x);
        }
    }
    v.to_string()
}

fn heartbeat_error(text: &str) -> String {
    match decode_str::<StreamsGroupHeartbeatRequest>(text, "heartbeat") {
        Ok(r) => panic!("accepted {text}: {r:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_base_request_of_the_bad_input_table_is_valid() {
    let r: StreamsGroupHeartbeatRequest =
        decode_str(&heartbeat_with(json!({})), "heartbeat").expect("valid");
    assert_eq!(r.topology.expect("topology").subtopologies.len(), 3);
}

#[test]
fn bad_heartbeats_get_an_exact_error_naming_the_field() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let long_key = "k".repeat(100);
    let cases: Vec<(String, String)> = vec![
        // Not JSON at all.
        ("".into(), "invalid heartbeat: not valid JSON: EOF while parsing a value at line 1 column 0".into()),
        ("{groupId: 1}".into(), "invalid heartbeat: not valid JSON: key must be a string at line 1 column 2".into()),
        (r#"{"groupId":"g"} x"#.into(), "invalid heartbeat: memberId: missing field `memberId`".into()),
        (deep, "invalid heartbeat: [0]: invalid type: sequence, expected a string".into()),
        (r#"{"groupId":"a","groupId":"b","memberId":"","memberEpoch":0}"#.into(),
         "invalid heartbeat: duplicate field `groupId`".into()),
        // The wrong type of JSON value.
        ("[]".into(), "invalid heartbeat: expected a StreamsGroupHeartbeatRequest object, found an array".into()),
        ("null".into(), "invalid heartbeat: invalid type: null, expected struct StreamsGroupHeartbeatRequest".into()),
        (heartbeat_with(json!({"groupId": 7})), "invalid heartbeat: groupId: invalid type: integer `7`, expected a string".into()),
        (heartbeat_with(json!({"memberEpoch": "0"})), "invalid heartbeat: memberEpoch: invalid type: string \"0\", expected i32".into()),
        (heartbeat_with(json!({"memberEpoch": 1.5})), "invalid heartbeat: memberEpoch: invalid type: floating point `1.5`, expected i32".into()),
        (heartbeat_with(json!({"memberEpoch": 2147483648i64})), "invalid heartbeat: memberEpoch: invalid value: integer `2147483648`, expected i32".into()),
        (heartbeat_with(json!({"memberEpoch": 1e300})), "invalid heartbeat: memberEpoch: invalid type: floating point `1e+300`, expected i32".into()),
        (heartbeat_with(json!({"shutdownApplication": "yes"})), "invalid heartbeat: shutdownApplication: invalid type: string \"yes\", expected a boolean".into()),
        (heartbeat_with(json!({"activeTasks": {}})), "invalid heartbeat: activeTasks: invalid type: map, expected a sequence".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0"}, {"subtopologyId": "1"}, {"subtopologyId": "2", "sourceTopics": "c"}]}})),
         "invalid heartbeat: topology.subtopologies[2].sourceTopics: invalid type: string \"c\", expected a sequence".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["a", 1]}]}})),
         "invalid heartbeat: topology.subtopologies[0].sourceTopics[1]: invalid type: integer `1`, expected a string".into()),
        (heartbeat_with(json!({"userEndpoint": {"host": "h", "port": 70000}})),
         "invalid heartbeat: userEndpoint.port: invalid value: integer `70000`, expected u16".into()),
        (heartbeat_with(json!({"taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": "12x"}]})),
         "invalid heartbeat: taskOffsets[0].offset: expected an int64, found the string \"12x\"".into()),
        (heartbeat_with(json!({"taskEndOffsets": [{"subtopologyId": "0", "partition": 0, "offset": 1e19}]})),
         "invalid heartbeat: taskEndOffsets[0].offset: 10000000000000000000 is out of range for an int64".into()),
        (heartbeat_with(json!({"taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": "9223372036854775808"}]})),
         "invalid heartbeat: taskOffsets[0].offset: expected an int64, found the string \"9223372036854775808\"".into()),
        // Out of range for the Kafka type.
        (heartbeat_with(json!({"activeTasks": [{"subtopologyId": "0", "partitions": [0, -1]}]})),
         "invalid heartbeat: activeTasks[0].partitions[1]: partition -1 is negative".into()),
        (heartbeat_with(json!({"taskOffsets": [{"subtopologyId": "0", "partition": -1, "offset": 5}]})),
         "invalid heartbeat: taskOffsets[0].partition: partition -1 is negative".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["a"], "copartitionGroups": [{"sourceTopics": [0, 70000]}]}]}})),
         "invalid heartbeat: topology.subtopologies[0].copartitionGroups[0].sourceTopics[1]: invalid value: integer `70000`, expected i16".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "repartitionSourceTopics": [{"name": "r", "partitions": -4}]}]}})),
         "invalid heartbeat: topology.subtopologies[0].repartitionSourceTopics[0].partitions: partition count -4 is negative".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "stateChangelogTopics": [{"name": "c", "replicationFactor": 40000}]}]}})),
         "invalid heartbeat: topology.subtopologies[0].stateChangelogTopics[0].replicationFactor: invalid value: integer `40000`, expected i16".into()),
        // Missing required fields.
        (r#"{"groupId":"g","memberId":""}"#.into(), "invalid heartbeat: memberEpoch: missing field `memberEpoch`".into()),
        (r#"{"memberId":"","memberEpoch":0}"#.into(), "invalid heartbeat: groupId: missing field `groupId`".into()),
        (heartbeat_with(json!({"topology": {"subtopologies": []}})), "invalid heartbeat: topology.epoch: missing field `epoch`".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [{"sourceTopics": ["a"]}]}})),
         "invalid heartbeat: topology.subtopologies[0].subtopologyId: missing field `subtopologyId`".into()),
        (heartbeat_with(json!({"clientTags": [{"key": "zone"}]})), "invalid heartbeat: clientTags[0].value: missing field `value`".into()),
        (heartbeat_with(json!({"activeTasks": [{"subtopologyId": "0"}]})), "invalid heartbeat: activeTasks[0].partitions: missing field `partitions`".into()),
        // Nulls where the protocol has no null.
        (heartbeat_with(json!({"groupId": null})), "invalid heartbeat: groupId: invalid type: null, expected a string".into()),
        (heartbeat_with(json!({"memberEpoch": null})), "invalid heartbeat: memberEpoch: invalid type: null, expected i32".into()),
        (heartbeat_with(json!({"rebalanceTimeoutMs": null})), "invalid heartbeat: rebalanceTimeoutMs: invalid type: null, expected i32".into()),
        (heartbeat_with(json!({"shutdownApplication": null})), "invalid heartbeat: shutdownApplication: invalid type: null, expected a boolean".into()),
        (heartbeat_with(json!({"activeTasks": [null]})), "invalid heartbeat: activeTasks[0]: invalid type: null, expected struct TaskIds".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": null}})),
         "invalid heartbeat: topology.subtopologies: invalid type: null, expected a sequence".into()),
        // Unknown keys, with their path.
        (heartbeat_with(json!({"memberEpochs": 1})), "invalid heartbeat: memberEpochs: unknown field, expected one of `groupId`, `memberId`, `memberEpoch`, `instanceId`, `rackId`, `rebalanceTimeoutMs`, `topology`, `activeTasks`, `standbyTasks`, `warmupTasks`, `processId`, `userEndpoint`, `clientTags`, `taskOffsets`, `taskEndOffsets`, `shutdownApplication`, `endpointInformationEpoch`".into()),
        (heartbeat_with(json!({"topology": {"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopic": ["a"]}]}})),
         "invalid heartbeat: topology.subtopologies[0].sourceTopic: unknown field, expected one of `subtopologyId`, `sourceTopics`, `sourceTopicRegex`, `stateChangelogTopics`, `repartitionSinkTopics`, `repartitionSourceTopics`, `copartitionGroups`".into()),
        (heartbeat_with(json!({"userEndpoint": {"host": "h", "port": 1, "protocol": "http"}})),
         "invalid heartbeat: userEndpoint.protocol: unknown field, expected `host` or `port`".into()),
        (heartbeat_with(serde_json::Value::Object([(long_key, json!(1))].into_iter().collect())),
         format!("invalid heartbeat: {}...: unknown field, expected one of `groupId`, `memberId`, `memberEpoch`, `instanceId`, `rackId`, `rebalanceTimeoutMs`, `topology`, `activeTasks`, `standbyTasks`, `warmupTasks`, `processId`, `userEndpoint`, `clientTags`, `taskOffsets`, `taskEndOffsets`, `shutdownApplication`, `endpointInformationEpoch`", "k".repeat(60))),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(input, expected)| {
            let got = heartbeat_error(input);
            (&got != expected)
                .then(|| format!("input: {input}\n  got:      {got}\n  expected: {expected}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn bad_describe_and_list_groups_requests_name_the_field() {
    let cases: &[(&str, &str)] = &[
        ("{}", "invalid describe: groupIds: missing field `groupIds`"),
        (
            r#"{"groupIds":"g"}"#,
            "invalid describe: groupIds: invalid type: string \"g\", expected a sequence",
        ),
        (
            r#"{"groupIds":["a",null]}"#,
            "invalid describe: groupIds[1]: invalid type: null, expected a string",
        ),
        (
            r#"{"groupIds":[],"includeAuthorizedOperations":1}"#,
            "invalid describe: includeAuthorizedOperations: invalid type: integer `1`, expected a boolean",
        ),
        (
            r#"{"groupIds":[],"x":1}"#,
            "invalid describe: x: unknown field, expected one of `groupIds`, `includeAuthorizedOperations`, `includeTopologyDescription`",
        ),
    ];
    for (input, expected) in cases {
        let e = decode_str::<StreamsGroupDescribeRequest>(input, "describe")
            .unwrap_err()
            .to_string();
        assert_eq!(&e, expected, "input: {input}");
    }
    let cases: &[(&str, &str)] = &[
        (
            r#"{"typesFilter":"streams"}"#,
            "invalid listGroups: typesFilter: invalid type: string \"streams\", expected a sequence",
        ),
        (
            r#"{"statesFilter":[1]}"#,
            "invalid listGroups: statesFilter[0]: invalid type: integer `1`, expected a string",
        ),
        (
            r#"{"groupType":"streams"}"#,
            "invalid listGroups: groupType: unknown field, expected `typesFilter` or `statesFilter`",
        ),
    ];
    for (input, expected) in cases {
        let e = decode_str::<ListGroupsRequest>(input, "listGroups")
            .unwrap_err()
            .to_string();
        assert_eq!(&e, expected, "input: {input}");
    }
    // An absent or null filter is no filter.
    let r: ListGroupsRequest =
        decode_str(r#"{"typesFilter":null}"#, "listGroups").expect("null filter");
    assert!(r.types_filter.is_empty());
}

#[test]
fn bad_responses_name_the_field() {
    let cases: &[(&str, &str)] = &[
        (r#"{"errorCode":0,"memberEpoch":1,"status":[{"statusCode":200,"statusDetail":""}]}"#,
         "invalid response: status[0].statusCode: invalid value: integer `200`, expected i8"),
        (r#"{"errorCode":70000,"memberEpoch":1}"#, "invalid response: errorCode: invalid value: integer `70000`, expected i16"),
        (r#"{"errorCode":0}"#, "invalid response: memberEpoch: missing field `memberEpoch`"),
        (r#"{"errorCode":0,"memberEpoch":1,"partitionsByUserEndpoint":[{"userEndpoint":{"host":"h","port":1},"partitions":[{"topic":"t","partitions":[-2]}]}]}"#,
         "invalid response: partitionsByUserEndpoint[0].partitions[0].partitions[0]: partition -2 is negative"),
    ];
    for (input, expected) in cases {
        let e = decode_str::<StreamsGroupHeartbeatResponse>(input, "response")
            .unwrap_err()
            .to_string();
        assert_eq!(&e, expected, "input: {input}");
    }
}

#[test]
fn error_and_status_codes_carry_kafkas_numbers() {
    let expected: &[(&str, i16)] = &[
        ("UNKNOWN_SERVER_ERROR", -1),
        ("COORDINATOR_NOT_AVAILABLE", 15),
        ("NOT_COORDINATOR", 16),
        ("INVALID_GROUP_ID", 24),
        ("UNKNOWN_MEMBER_ID", 25),
        ("TOPIC_AUTHORIZATION_FAILED", 29),
        ("GROUP_AUTHORIZATION_FAILED", 30),
        ("CLUSTER_AUTHORIZATION_FAILED", 31),
        ("INVALID_CONFIG", 40),
        ("INVALID_REQUEST", 42),
        ("NON_EMPTY_GROUP", 68),
        ("GROUP_ID_NOT_FOUND", 69),
        ("GROUP_MAX_SIZE_REACHED", 81),
        ("FENCED_INSTANCE_ID", 82),
        ("FENCED_MEMBER_EPOCH", 110),
        ("UNRELEASED_INSTANCE_ID", 111),
        ("STALE_MEMBER_EPOCH", 113),
        ("STREAMS_INVALID_TOPOLOGY", 130),
        ("STREAMS_INVALID_TOPOLOGY_EPOCH", 131),
        ("STREAMS_TOPOLOGY_FENCED", 132),
    ];
    for (name, code) in expected {
        let e = ErrorCode::from_code(*code).unwrap_or_else(|| panic!("no error {code}"));
        assert_eq!(e.name(), *name);
        assert_eq!(
            serde_json::to_string(&e).expect("serializes"),
            code.to_string()
        );
    }
    let statuses = [
        "STALE_TOPOLOGY",
        "MISSING_SOURCE_TOPICS",
        "INCONSISTENT_SOURCE_TOPICS",
        "INCONSISTENT_INTERNAL_TOPICS",
        "MISSING_INTERNAL_TOPICS",
        "SHUTDOWN_APPLICATION",
        "ASSIGNMENT_DELAYED",
    ];
    for (i, name) in statuses.iter().enumerate() {
        let s = StatusCode::from_code(i as i8).expect("status");
        assert_eq!(s.name(), *name);
        assert_eq!(
            serde_json::to_string(&s).expect("serializes"),
            i.to_string()
        );
    }
    assert_eq!(StatusCode::from_code(7), None);
}

/// A coordinator after some history: two members of a stateful group with offsets
/// beyond 2^53, a static member leaving, a member leaving, a topic deleted, ACLs set.
fn busy_coordinator() -> streams_rebalance::coordinator::Coordinator {
    use streams_rebalance::coordinator::{Coordinator, RequestContext};
    let mut c = Coordinator::new(CoordinatorConfig {
        num_standby_replicas: 1,
        ..CoordinatorConfig::default()
    });
    c.create_topic("orders", 3, -1, Default::default());
    c.create_topic("scratch", 1, -1, Default::default());
    let topology = json!({"epoch": 0, "subtopologies": [{"subtopologyId": "0",
        "sourceTopics": ["orders"], "stateChangelogTopics": [{"name": "app-store-changelog"}]}]});
    let mut members = Vec::new();
    for (i, instance) in [Some("static-1"), None].iter().enumerate() {
        let req: StreamsGroupHeartbeatRequest = decode(
            &json!({"groupId": "app", "memberId": "", "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
                "instanceId": instance, "topology": topology, "processId": format!("p{i}"),
                "userEndpoint": {"host": format!("h{i}"), "port": 8080},
                "clientTags": [{"key": "zone", "value": format!("z{i}")}],
                "activeTasks": [], "standbyTasks": [], "warmupTasks": []}),
            "heartbeat",
        )
        .expect("valid");
        let ctx = RequestContext {
            now_ms: Some(i as i64 * 100),
            ..RequestContext::default()
        };
        let r = c.heartbeat(&req, &ctx);
        assert_eq!(r.error_code, 0, "{r:?}");
        members.push((r.member_id.expect("id"), r.member_epoch));
    }
    for (id, epoch) in &members {
        let req: StreamsGroupHeartbeatRequest = decode(
            &json!({"groupId": "app", "memberId": id, "memberEpoch": epoch,
                "taskOffsets": [{"subtopologyId": "0", "partition": 0, "offset": "9007199254740993"}],
                "taskEndOffsets": [{"subtopologyId": "0", "partition": 0, "offset": i64::MAX.to_string()}]}),
            "heartbeat",
        )
        .expect("valid");
        c.heartbeat(&req, &RequestContext::default());
    }
    let (id, _) = &members[1];
    let leave: StreamsGroupHeartbeatRequest = decode(
        &json!({"groupId": "app", "memberId": id, "memberEpoch": -1}),
        "heartbeat",
    )
    .expect("valid");
    assert_eq!(
        c.heartbeat(&leave, &RequestContext::default()).error_code,
        0
    );
    c.delete_topic("scratch");
    c.advance_time(1000).expect("time moves");
    c
}

#[test]
fn records_and_live_answers_round_trip() {
    use streams_rebalance::coordinator::records::Record;
    use streams_rebalance::coordinator::RequestContext;
    let c = busy_coordinator();
    let records = c.records();
    assert!(records.len() > 10, "{records:?}");
    assert!(records.iter().any(|r| r.value.is_none()), "a tombstone");
    for r in records {
        round_trip(r, "record");
    }
    round_trip(&records.to_vec(), "records");
    let text = serde_json::to_string(records).expect("serializes");
    assert!(text.contains("\"9007199254740993\""), "{text}");
    let back: Vec<Record> = decode_str(&text, "records").expect("decodes");
    assert_eq!(back.len(), records.len());

    let mut c = c;
    let described = c.describe(
        &["app".to_owned(), "nope".to_owned()],
        &RequestContext::default(),
    );
    assert_eq!(described.groups.len(), 2);
    round_trip(&described, "describe response");
    round_trip(
        &c.list_groups(&ListGroupsRequest::default()),
        "list groups response",
    );
}
