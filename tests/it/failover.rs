//! Records and fail-over (PROTOCOL.md §8): a coordinator rebuilt from `records()`
//! (through their JSON form) at any point answers every later request exactly as the
//! original does: responses, events, describe, snapshot and further records.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use serde::Serialize;
use streams_rebalance::cluster::{Acl, Operation, ResourceType};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;

fn config() -> CoordinatorConfig {
    CoordinatorConfig {
        seed: 42,
        internal_topic_creation_delay_ms: 500,
        ..Default::default()
    }
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// The original, and from `rebuild_at` on a copy rebuilt from its records.
struct Pair {
    a: Coordinator,
    b: Option<Coordinator>,
    step: usize,
    rebuild_at: usize,
}

impl Pair {
    fn tick(&mut self) {
        if self.step == self.rebuild_at {
            let text = json(&self.a.records());
            let records: Vec<Record> = decode_str(&text, "records").unwrap();
            let b = Coordinator::from_records(config(), records).unwrap();
            assert_eq!(
                json(&b.snapshot()),
                json(&self.a.snapshot()),
                "rebuilt state at step {}",
                self.step
            );
            self.b = Some(b);
        }
        self.step += 1;
    }

    fn both<T: Serialize>(&mut self, f: impl Fn(&mut Coordinator) -> T) -> T {
        self.tick();
        let out = f(&mut self.a);
        if let Some(b) = &mut self.b {
            let other = f(b);
            assert_eq!(json(&other), json(&out), "answer at step {}", self.step);
            assert_eq!(
                json(&b.snapshot()),
                json(&self.a.snapshot()),
                "state at step {}",
                self.step
            );
        }
        out
    }

    fn hb(&mut self, client: &mut Client, now: i64) -> StreamsGroupHeartbeatResponse {
        let req = client.request();
        let ctx = RequestContext {
            now_ms: Some(now),
            client_id: Some("cli".into()),
            ..Default::default()
        };
        let r = self.both(|c| c.heartbeat(&req, &ctx));
        client.absorb(&r);
        r
    }
}

fn stateful_topology(epoch: i32) -> Topology {
    let mut t = topology(epoch, "input");
    t.subtopologies[0].state_changelog_topics.push(TopicInfo {
        name: "app-store-changelog".into(),
        partitions: 0,
        replication_factor: 0,
        topic_configs: vec![],
    });
    t
}

fn script(p: &mut Pair) {
    p.both(|c| c.create_topics(&[("input".into(), 6)]));
    let mut a = Client::new("app", "", stateful_topology(0));
    let mut b = Client::new("app", "", stateful_topology(0));
    b.instance_id = Some("static-b".into());
    b.process_id = Some("proc-b".into());
    let mut cc = Client::new("app", "c", stateful_topology(0));
    // Internal topics are created 500 ms after the first heartbeat asks for them.
    p.hb(&mut a, 0);
    p.hb(&mut b, 100);
    p.both(|c| c.advance_time(600).unwrap());
    for t in [1000, 1100, 1200] {
        p.hb(&mut a, t);
        p.hb(&mut b, t + 10);
        p.hb(&mut cc, t + 20);
    }
    for t in [2000, 2100, 2200, 2300] {
        p.hb(&mut a, t);
        p.hb(&mut b, t + 10);
        p.hb(&mut cc, t + 20);
    }
    // b leaves temporarily and comes back as a new member with its instance id.
    let mut leave = b.request();
    leave.member_epoch = -2;
    p.both(|c| {
        c.heartbeat(
            &leave,
            &RequestContext {
                now_ms: Some(3000),
                ..Default::default()
            },
        )
    });
    let mut b2 = Client::new("app", "", stateful_topology(0));
    b2.instance_id = Some("static-b".into());
    b2.process_id = Some("proc-b".into());
    p.hb(&mut b2, 3100);
    // A consumer group and offsets beside it.
    let join = ConsumerGroupHeartbeatRequest {
        group_id: "cg".into(),
        member_id: String::new(),
        member_epoch: 0,
        rebalance_timeout_ms: 1000,
        subscribed_topic_names: Some(vec!["input".into()]),
        ..Default::default()
    };
    p.both(|c| c.consumer_group_heartbeat(&join, &RequestContext::default()));
    let commit = OffsetCommitRequest {
        group_id: "app".into(),
        generation_id_or_member_epoch: a.epoch,
        member_id: a.member_id.clone(),
        group_instance_id: None,
        topics: vec![OffsetCommitTopic {
            name: "input".into(),
            partitions: vec![OffsetCommitPartition {
                partition_index: 0,
                committed_offset: 9_007_199_254_740_993,
                committed_metadata: None,
                ..Default::default()
            }],
        }],
        ..Default::default()
    };
    p.both(|c| c.offset_commit(&commit));
    // A silent member times out; the others go on.
    for t in [10_000, 20_000, 30_000, 40_000] {
        p.hb(&mut a, t);
        p.hb(&mut b2, t + 5);
    }
    p.both(|c| c.advance_time(10_000).unwrap());
    // Topology epoch 1 from a redeployed member; then a topic disappears.
    let mut d = Client::new("app", "d", stateful_topology(1));
    p.hb(&mut d, 51_000);
    p.hb(&mut a, 51_100);
    p.hb(&mut d, 51_200);
    p.both(|c| {
        c.set_acls(&[Acl {
            principal: "User:ANONYMOUS".into(),
            resource_type: ResourceType::Group,
            resource_name: "*".into(),
            operation: Operation::All,
        }])
    });
    p.hb(&mut a, 52_000);
    p.both(|c| c.delete_topic("input"));
    p.hb(&mut a, 53_000);
    let mut req = d.request();
    req.shutdown_application = true;
    p.both(|c| c.heartbeat(&req, &RequestContext::default()));
    p.hb(&mut a, 54_000);
    p.both(|c| c.advance_time(100_000).unwrap());
    p.hb(&mut a, 200_000);
}

#[test]
fn a_coordinator_rebuilt_from_its_records_at_any_step_answers_as_the_original() {
    let mut total = Pair {
        a: Coordinator::new(config()),
        b: None,
        step: 0,
        rebuild_at: usize::MAX,
    };
    script(&mut total);
    let steps = total.step;
    assert!(steps > 40);
    for k in 0..=steps {
        let mut p = Pair {
            a: Coordinator::new(config()),
            b: None,
            step: 0,
            rebuild_at: k,
        };
        script(&mut p);
    }
}

#[test]
fn records_encode_as_key_and_value_with_types() {
    let mut c = coordinator_with_topic(config(), "input", 2);
    c.heartbeat(
        &join_request("app", "m", topology(0, "input")),
        &RequestContext::default(),
    );
    let v: serde_json::Value = serde_json::from_str(&json(&c.records())).unwrap();
    let types: Vec<(String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["key"]["type"].as_str().unwrap().to_owned(),
                r["value"]["type"].as_str().unwrap_or("null").to_owned(),
            )
        })
        .collect();
    let expect = [
        ("TopicKey", "TopicValue"),
        ("StreamsGroupTopologyKey", "StreamsGroupTopologyValue"),
        (
            "StreamsGroupMemberMetadataKey",
            "StreamsGroupMemberMetadataValue",
        ),
        (
            "StreamsGroupCurrentMemberAssignmentKey",
            "StreamsGroupCurrentMemberAssignmentValue",
        ),
        ("StreamsGroupMetadataKey", "StreamsGroupMetadataValue"),
        (
            "StreamsGroupTargetAssignmentMemberKey",
            "StreamsGroupTargetAssignmentMemberValue",
        ),
        (
            "StreamsGroupTargetAssignmentMetadataKey",
            "StreamsGroupTargetAssignmentMetadataValue",
        ),
        (
            "StreamsGroupCurrentMemberAssignmentKey",
            "StreamsGroupCurrentMemberAssignmentValue",
        ),
        (
            "StreamsGroupMemberTimersKey",
            "StreamsGroupMemberTimersValue",
        ),
        (
            "StreamsGroupMemberRuntimeKey",
            "StreamsGroupMemberRuntimeValue",
        ),
    ];
    let expect: Vec<(String, String)> = expect
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(types, expect);
    assert_eq!(v[1]["value"]["topologyEpoch"], 0);
    assert_eq!(v[4]["value"]["epoch"], 1);
    assert_eq!(v[0]["offset"], 0);
    assert_eq!(v[9]["offset"], 9);
}

#[test]
fn bad_records_are_rejected_with_the_field_path() {
    let bad = [
        (r#"[{"offset":0,"key":{"type":"Nope"},"value":null}]"#, "invalid records: [0].key.type: unknown record key type \"Nope\""),
        (
            r#"[{"offset":0,"key":{"type":"ClockKey"},"value":{"type":"TopicValue","numPartitions":1}}]"#,
            "invalid records: [0].value.type: a key of this type carries a ClockValue, found \"TopicValue\"",
        ),
        (
            r#"[{"offset":0,"key":{"type":"TopicKey","name":"t"},"value":{"type":"TopicValue","numPartitions":0}}]"#,
            "invalid records: [0].value.numPartitions: 0 is not a positive partition count",
        ),
        (r#"[{"offset":0,"key":{"type":"ClockKey"}}]"#, "invalid records: [0].value: missing field `value`"),
    ];
    for (text, expected) in bad {
        assert_eq!(
            decode_str::<Vec<Record>>(text, "records")
                .unwrap_err()
                .to_string(),
            expected
        );
    }
    let out_of_order: Vec<Record> = decode_str(
        r#"[{"offset":3,"key":{"type":"ClockKey"},"value":{"type":"ClockValue","nowMs":5}},
            {"offset":2,"key":{"type":"ClockKey"},"value":{"type":"ClockValue","nowMs":6}}]"#,
        "records",
    )
    .unwrap();
    assert_eq!(
        Coordinator::from_records(config(), out_of_order)
            .err()
            .unwrap()
            .to_string(),
        "invalid records: [1].offset: 2 does not follow offset 3"
    );
}

#[test]
fn the_failover_script_exercises_what_it_claims() {
    let mut p = Pair {
        a: Coordinator::new(config()),
        b: None,
        step: 0,
        rebuild_at: usize::MAX,
    };
    script(&mut p);
    let kinds: Vec<String> =
        p.a.records()
            .iter()
            .map(|r| {
                serde_json::to_value(r).unwrap()["key"]["type"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
    for k in [
        "TopicKey",
        "StreamsGroupTopicCreationKey",
        "ConsumerGroupMemberKey",
        "OffsetCommitKey",
        "AclsKey",
        "ClockKey",
        "MemberIdGeneratorKey",
    ] {
        assert!(kinds.iter().any(|x| x == k), "{k}");
    }
    let snap = serde_json::to_value(p.a.snapshot()).unwrap();
    assert_eq!(snap["nowMs"], 200_000);
    let app = &snap["groups"][0];
    assert_eq!(app["groupId"], "app");
    assert_eq!(app["topologyEpoch"], 1);
    // Everyone went silent at the end: the group is empty and the shutdown flag cleared.
    assert_eq!(app["groupState"], "Empty");
    assert_eq!(app["shutdownRequestedBy"], serde_json::Value::Null);
    let text = json(&p.a.records());
    assert!(text.contains(r#""shutdownRequester":"d""#));
    assert!(
        text.contains(r#"{"type":"TopicKey","name":"app-store-changelog"}"#),
        "created by the coordinator"
    );
    assert!(text.contains(r#""offset":"9007199254740993""#));
    assert!(
        text.contains(r#""memberId":"c"},"value":null"#),
        "c timed out"
    );
}
