//! Malformed input at every entry point (issue 6), natively: the decoders behind every
//! JS call, and the coordinator behind them. Random bytes, truncated JSON, random JSON
//! values, and valid messages with one node mutated (wrong type, huge or negative
//! numbers, null for NaN, long strings and lists, deep nesting, unknown keys, duplicate
//! keys, unknown assignor names). Nothing may panic; an input error says what was
//! being decoded and which field; a heartbeat the coordinator refuses changes nothing
//! (snapshot and records compared), except FENCED_MEMBER_EPOCH, which removes the
//! member by design.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde::Serialize;
use serde_json::{json, Value};
use streams_rebalance::assignor::json::{assignor, decode_config, decode_spec};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants;
use streams_rebalance::protocol::json::{decode, decode_str, InputError, Validate};
use streams_rebalance::protocol::*;
use streams_rebalance::sim::scenario::{ProcessSpec, RestartChanges, Scenario};
use streams_rebalance::sim::Simulation;

fn text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// Field names of the messages, so random objects often hit real fields.
const KEYS: &[&str] = &[
    "groupId",
    "memberId",
    "memberEpoch",
    "instanceId",
    "rackId",
    "rebalanceTimeoutMs",
    "topology",
    "epoch",
    "subtopologies",
    "subtopologyId",
    "sourceTopics",
    "sourceTopicRegex",
    "stateChangelogTopics",
    "repartitionSinkTopics",
    "repartitionSourceTopics",
    "copartitionGroups",
    "name",
    "partitions",
    "replicationFactor",
    "topicConfigs",
    "key",
    "value",
    "activeTasks",
    "standbyTasks",
    "warmupTasks",
    "processId",
    "userEndpoint",
    "host",
    "port",
    "clientTags",
    "taskOffsets",
    "taskEndOffsets",
    "offset",
    "shutdownApplication",
    "groupIds",
    "type",
    "assignor",
    "numStandbyReplicas",
    "seed",
    "members",
    "numPartitions",
    "stateful",
    "actions",
    "atMs",
    "action",
    "threads",
    "topics",
    "config",
    "nowMs",
    "principal",
    "statesFilter",
    "typesFilter",
    "includeAuthorizedOperations",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        prop_oneof![
            Just(json!(-1)),
            Just(json!(0)),
            Just(json!(2147483648i64)),
            Just(json!(9007199254740993i64)),
            Just(json!(u64::MAX)),
            Just(json!(1e300)),
            Just(json!(-0.5)),
            Just(json!("9223372036854775808")),
            Just(json!("-12")),
        ],
        prop::sample::select(KEYS).prop_map(|k| json!(k)),
        "[a-z0-9._-]{0,12}".prop_map(Value::String),
        any::<String>().prop_map(Value::String),
        (0usize..3).prop_map(|i| json!(["x".repeat(300), "y".repeat(40_000), "".to_owned()][i])),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

/// How to damage one node of a valid message.
#[derive(Debug, Clone)]
enum Damage {
    Replace(Value),
    Remove,
    /// Nest the node 200 levels deep.
    Bury,
    /// A list of this many copies of the node.
    Repeat(usize),
    UnknownKey,
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        4 => value().prop_map(Damage::Replace),
        2 => Just(Damage::Remove),
        1 => Just(Damage::Bury),
        1 => prop_oneof![Just(2usize), Just(1000)].prop_map(Damage::Repeat),
        1 => Just(Damage::UnknownKey),
    ]
}

fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(m) => m.values().map(count).sum(),
        _ => 0,
    }
}

/// Applies `d` to the `n`-th node (pre-order) of `v`; returns whether it did.
fn apply(v: &mut Value, n: &mut usize, d: &Damage) -> bool {
    if *n == 0 {
        match d {
            Damage::Replace(x) => *v = x.clone(),
            Damage::Bury => {
                let mut x = v.take();
                for _ in 0..200 {
                    x = json!([x]);
                }
                *v = x;
            }
            Damage::Repeat(k) => *v = Value::Array(vec![v.clone(); *k]),
            Damage::UnknownKey => {
                if let Value::Object(m) = v {
                    m.insert("bogusField".into(), json!(1));
                } else {
                    *v = json!({ "bogusField": v.take() });
                }
            }
            Damage::Remove => *v = Value::Null,
        }
        return true;
    }
    *n -= 1;
    match v {
        Value::Array(a) => {
            for x in a.iter_mut() {
                if apply(x, n, d) {
                    return true;
                }
            }
        }
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if *n == 0 && matches!(d, Damage::Remove) {
                    m.remove(&k);
                    return true;
                }
                if let Some(x) = m.get_mut(&k) {
                    if apply(x, n, d) {
                        return true;
                    }
                }
            }
        }
        _ => {}
    }
    false
}

fn damaged(sample: &Value, at: usize, d: &Damage) -> Value {
    let mut v = sample.clone();
    let mut n = at % count(&v);
    apply(&mut v, &mut n, d);
    v
}

/// An input error must say what was decoded and, below the root, which field.
fn assert_clear(e: &InputError, what: &str) {
    let e = e.to_string();
    assert!(
        e.starts_with(&format!("invalid {what}: ")),
        "unclear error: {e}"
    );
    assert!(e.len() < 2_000, "error too long ({} bytes)", e.len());
}

fn try_decode<T: serde::de::DeserializeOwned + Validate>(v: &Value, what: &str) -> Option<T> {
    match decode::<T>(v, what) {
        Ok(t) => Some(t),
        Err(e) => {
            assert_clear(&e, what);
            None
        }
    }
}

fn topology_json() -> Value {
    json!({
        "epoch": 0,
        "subtopologies": [
            { "subtopologyId": "0", "sourceTopics": ["in", "other"],
              "stateChangelogTopics": [{ "name": "app-s-changelog", "partitions": 0,
                  "topicConfigs": [{ "key": "cleanup.policy", "value": "compact" }] }],
              "repartitionSinkTopics": ["app-r-repartition"],
              "copartitionGroups": [{ "sourceTopics": [0, 1], "sourceTopicRegex": [], "repartitionSourceTopics": [] }] },
            { "subtopologyId": "1", "sourceTopicRegex": ["in.*"],
              "repartitionSourceTopics": [{ "name": "app-r-repartition", "partitions": 0 }] }
        ]
    })
}

fn join_json(member: &str) -> Value {
    json!({
        "groupId": "app", "memberId": member, "memberEpoch": 0, "instanceId": null,
        "rackId": "r1", "rebalanceTimeoutMs": 30000, "topology": topology_json(),
        "activeTasks": [], "standbyTasks": [], "warmupTasks": [], "processId": "p1",
        "userEndpoint": { "host": "localhost", "port": 8080 },
        "clientTags": [{ "key": "zone", "value": "a" }],
        "taskOffsets": [], "taskEndOffsets": [], "shutdownApplication": false
    })
}

fn heartbeat_json(member: &str, epoch: i32) -> Value {
    json!({
        "groupId": "app", "memberId": member, "memberEpoch": epoch,
        "activeTasks": [{ "subtopologyId": "0", "partitions": [0, 1] }],
        "standbyTasks": [], "warmupTasks": [],
        "taskOffsets": [{ "subtopologyId": "0", "partition": 0, "offset": 10 }],
        "taskEndOffsets": [{ "subtopologyId": "0", "partition": 0, "offset": "9007199254740993" }]
    })
}

/// A coordinator with a live group of two members, and its records.
fn live() -> Coordinator {
    let mut c = Coordinator::new(CoordinatorConfig {
        num_standby_replicas: 1,
        ..Default::default()
    });
    c.create_topics(&[("in".into(), 4), ("other".into(), 4)]);
    for m in ["m1", "m2"] {
        let mut j = join_json(m);
        j["processId"] = json!(format!("p-{m}"));
        let req: StreamsGroupHeartbeatRequest = decode(&j, "heartbeat").unwrap();
        let r = c.heartbeat(&req, &RequestContext::default());
        assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    }
    c
}

fn state(c: &Coordinator) -> String {
    format!("{}\n{}", text(&c.snapshot()), text(&c.records()))
}

/// Feeds a decoded heartbeat; a refusal changes nothing, and the invariants hold.
fn feed(c: &mut Coordinator, req: &StreamsGroupHeartbeatRequest) {
    let before = state(c);
    let prev = c.snapshot();
    let r = c.heartbeat(req, &RequestContext::default());
    if r.error_code != 0 && r.error_code != ErrorCode::FENCED_MEMBER_EPOCH.code() {
        assert_eq!(
            state(c),
            before,
            "refused ({:?}) but changed",
            r.error_message
        );
        assert!(r.error_message.is_some(), "refusal without a message");
    }
    let cur = c.snapshot();
    let v = invariants::check(Some(&prev), &cur);
    assert!(v.is_empty(), "{v:?} after {}", text(req));
}

fn cases() -> u32 {
    std::env::var("HARDENING_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_bytes_and_truncated_json_are_errors(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        cut in any::<prop::sample::Index>(),
    ) {
        let s = String::from_utf8_lossy(&bytes);
        let _ = decode_str::<StreamsGroupHeartbeatRequest>(&s, "heartbeat");
        let full = text(&join_json(""));
        let mut at = cut.index(full.len());
        while !full.is_char_boundary(at) { at -= 1; }
        if at < full.len() {
            let e = decode_str::<StreamsGroupHeartbeatRequest>(&full[..at], "heartbeat").unwrap_err();
            prop_assert!(e.to_string().starts_with("invalid heartbeat: "), "{}", e);
        }
        // A duplicate key anywhere is refused.
        let dup = full.replacen("\"rackId\":\"r1\"", "\"rackId\":\"r1\",\"rackId\":\"r2\"", 1);
        let e = decode_str::<StreamsGroupHeartbeatRequest>(&dup, "heartbeat").unwrap_err();
        prop_assert_eq!(e.to_string(), "invalid heartbeat: duplicate field `rackId`");
    }

    #[test]
    fn random_values_at_every_decoder(v in value()) {
        try_decode::<StreamsGroupHeartbeatRequest>(&v, "heartbeat");
        try_decode::<StreamsGroupDescribeRequest>(&v, "describe");
        try_decode::<ListGroupsRequest>(&v, "listGroups");
        try_decode::<Vec<Record>>(&v, "records");
        try_decode::<CoordinatorConfig>(&v, "config");
        try_decode::<RequestContext>(&v, "context");
        try_decode::<Scenario>(&v, "scenario");
        try_decode::<ProcessSpec>(&v, "process");
        try_decode::<RestartChanges>(&v, "changes");
        try_decode::<Vec<String>>(&v, "deleteTopics");
        try_decode::<i64>(&v, "advanceTime");
        if let Err(e) = decode_spec(&v.to_string()) { assert_clear(&e, "groupSpec"); }
        if let Err(e) = decode_config(Some(&v.to_string())) { assert_clear(&e, "config"); }
        if let Some(s) = v.as_str() {
            if let Err(e) = assignor(s) { assert_clear(&e, "assignorName"); }
        }
    }

    #[test]
    fn damaged_heartbeats_never_break_the_coordinator(
        at in any::<usize>(),
        d in damage(),
        which in 0usize..3,
    ) {
        let mut c = live();
        let m1 = c.streams_group("app").unwrap().members.keys().next().unwrap().clone();
        let epoch = c.streams_group("app").unwrap().members[&m1].current.member_epoch;
        let sample = match which {
            0 => join_json("m3"),
            1 => heartbeat_json(&m1, epoch),
            _ => heartbeat_json(&m1, epoch - 1),
        };
        let v = damaged(&sample, at, &d);
        if let Some(req) = try_decode::<StreamsGroupHeartbeatRequest>(&v, "heartbeat") {
            feed(&mut c, &req);
            // A good heartbeat still answers.
            let good: StreamsGroupHeartbeatRequest = decode(&join_json("m9"), "heartbeat").unwrap();
            let r = c.heartbeat(&good, &RequestContext::default());
            prop_assert!(r.error_code == 0 || r.error_code == ErrorCode::STREAMS_INVALID_TOPOLOGY_EPOCH.code()
                || r.error_code == ErrorCode::STREAMS_TOPOLOGY_FENCED.code(), "{:?}", r.error_message);
        }
    }

    #[test]
    fn damaged_records_rebuild_or_refuse_without_panic(at in any::<usize>(), d in damage()) {
        let c = live();
        let sample = serde_json::to_value(c.records()).unwrap();
        let v = damaged(&sample, at, &d);
        if let Some(records) = try_decode::<Vec<Record>>(&v, "records") {
            if let Ok(mut b) = Coordinator::from_records(CoordinatorConfig::default(), records) {
                let _ = b.snapshot();
                let _ = b.describe(&["app".to_owned()], &RequestContext::default());
                let good: StreamsGroupHeartbeatRequest = decode(&join_json("m9"), "heartbeat").unwrap();
                let _ = b.heartbeat(&good, &RequestContext::default());
                let _ = b.advance_time(100_000);
            }
        }
    }

    #[test]
    fn damaged_configs_specs_and_scenarios_refuse_or_run(at in any::<usize>(), d in damage(), which in 0usize..3) {
        match which {
            0 => {
                let sample = json!({ "assignor": "highly_available", "numStandbyReplicas": 1,
                    "sessionTimeoutMs": 45000, "groupMaxSize": 5, "seed": 3 });
                if let Some(cfg) = try_decode::<CoordinatorConfig>(&damaged(&sample, at, &d), "config") {
                    let mut c = Coordinator::new(cfg);
                    c.create_topics(&[("in".into(), 4), ("other".into(), 4)]);
                    let good: StreamsGroupHeartbeatRequest = decode(&join_json(""), "heartbeat").unwrap();
                    let _ = c.heartbeat(&good, &RequestContext::default());
                }
            }
            1 => {
                let sample = json!({
                    "subtopologies": [{ "subtopologyId": "0", "numPartitions": 6, "stateful": true }],
                    "members": [
                        { "memberId": "a", "processId": "p1", "activeTasks": [{ "subtopologyId": "0", "partitions": [0, 1] }],
                          "taskOffsets": [{ "subtopologyId": "0", "partition": 2, "offset": 5 }] },
                        { "memberId": "b", "processId": "p2", "clientTags": [{ "key": "zone", "value": "a" }] }
                    ]
                });
                let v = damaged(&sample, at, &d);
                match decode_spec(&v.to_string()) {
                    Ok(spec) => for name in ["sticky", "highly_available"] {
                        let a = assignor(name).unwrap();
                        let cfg = decode_config(Some(r#"{ "numStandbyReplicas": 1 }"#)).unwrap();
                        let _ = a.assign(&spec, &cfg);
                    },
                    Err(e) => assert_clear(&e, "groupSpec"),
                }
            }
            _ => {
                let (_, preset) = streams_rebalance::sim::presets::PRESETS[at % streams_rebalance::sim::presets::PRESETS.len()];
                let sample: Value = serde_json::from_str(preset).unwrap();
                if let Some(s) = try_decode::<Scenario>(&damaged(&sample, at / 7, &d), "scenario") {
                    let mut sim = Simulation::from_scenario(s);
                    let _ = sim.step(60_000);
                    let _ = sim.snapshot();
                }
            }
        }
    }
}
