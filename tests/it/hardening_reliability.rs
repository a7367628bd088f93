//! Issue 16 (reliability): the reproductions of each item, scaled down to run in
//! seconds. Inputs derived from a request or a record are never trusted as sizes;
//! records load only within the live limits; fail-over is exact in every detail
//! (offsets, members, int64 values); time moved only through `nowMs` keeps the
//! pending events bounded; admin calls and the simulation clock stay bounded.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::*;
use serde_json::{json, Value};
use std::time::Instant;
use streams_rebalance::cluster::CreatableTopic;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants::{check, check_settled, decode_snapshot, MAX_VIOLATIONS};
use streams_rebalance::protocol::json::{decode, decode_str};
use streams_rebalance::protocol::*;

/// How much larger than in `cargo test` the slow reproductions run:
/// `RELIABILITY_SCALE=25 scripts/reliability-long.sh` is the full size.
fn scale() -> usize {
    std::env::var("RELIABILITY_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1)
}

fn at(now: i64) -> RequestContext {
    RequestContext {
        now_ms: Some(now),
        ..Default::default()
    }
}

fn rebuild(c: &Coordinator) -> Coordinator {
    let text = serde_json::to_string(c.records()).unwrap();
    let records: Vec<Record> = decode_str(&text, "records").unwrap();
    Coordinator::from_records(c.config.clone(), records).unwrap()
}

/// The error of loading `records` (a panic if they load).
fn refused(records: Value) -> String {
    match load(records) {
        Ok(_) => panic!("the records were accepted"),
        Err(e) => e,
    }
}

fn load(records: Value) -> Result<Coordinator, String> {
    let records: Vec<Record> = decode(&records, "records").map_err(|e| e.to_string())?;
    Coordinator::from_records(CoordinatorConfig::default(), records).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------
// 1. Snapshots given to the checkers obey the live limits; work follows real sizes.

fn group_snapshot(subtopology: &str, num_tasks: Value, members: Vec<Value>) -> Value {
    json!({ "groups": [{
        "groupId": "g", "groupType": "streams", "groupState": "Stable",
        "groupEpoch": 1, "assignmentEpoch": 1, "topologyEpoch": 0,
        "configuredTopology": { "ready": true, "statuses": [], "internalTopicsToCreate": [],
            "internalTopicsUndecided": [],
            "subtopologies": [{ "subtopologyId": subtopology, "numTasks": num_tasks,
                "stateful": false, "sourceTopics": [] }] },
        "members": members, "consumerMembers": [],
    }], "nowMs": 0, "assignor": "sticky", "topics": [], "acls": [], "recordCount": 0 })
}

fn member(id: &str, process: &str, subtopology: &str, active: &[i32]) -> Value {
    let tasks = json!({ "activeTasks": [{ "subtopologyId": subtopology, "partitions": active }],
        "standbyTasks": [], "warmupTasks": [] });
    json!({ "memberId": id, "processId": process, "stale": false, "clientTags": [],
        "topologyEpoch": 0, "sessionDeadlineMs": 0, "memberEpoch": 1,
        "previousMemberEpoch": 0, "memberState": "Stable",
        "assignment": tasks, "pendingRevocation": { "activeTasks": [], "standbyTasks": [], "warmupTasks": [] },
        "targetAssignment": tasks })
}

#[test]
fn checkers_refuse_a_snapshot_claiming_more_tasks_than_a_group_has() {
    let s = group_snapshot(
        "0",
        json!(4_294_967_295u64),
        vec![member("a", "p", "0", &[0])],
    );
    let text = s.to_string();
    assert!(text.len() < 1_000);
    let e = decode_snapshot(&text, "snapshot").unwrap_err();
    assert_eq!(
        e.path(),
        "groups[0].configuredTopology.subtopologies",
        "{e}"
    );
    assert!(e.to_string().contains("a group has at most 1000000"), "{e}");
    // Inside a Simulation's snapshot too.
    let sim = json!({ "nowMs": 0, "coordinator": s });
    let e = decode_snapshot(&sim.to_string(), "snapshot").unwrap_err();
    assert_eq!(
        e.path(),
        "coordinator.groups[0].configuredTopology.subtopologies"
    );
    let many: Vec<Value> = (0..1_001)
        .map(|i| json!({ "subtopologyId": i.to_string(), "numTasks": 1, "stateful": false, "sourceTopics": [] }))
        .collect();
    let mut s = group_snapshot("0", json!(1), vec![]);
    s["groups"][0]["configuredTopology"]["subtopologies"] = json!(many);
    let e = decode_snapshot(&s.to_string(), "snapshot").unwrap_err();
    assert!(e.to_string().contains("1001 subtopologies"), "{e}");
}

#[test]
fn settled_checks_follow_the_held_tasks_not_the_claimed_counts() {
    // A 32 KB subtopology id, a million tasks claimed, ten held: the answer names ten
    // missing tasks (ids shortened) and counts the rest, at once.
    let id = "s".repeat(32_000);
    let s = group_snapshot(
        &id,
        json!(1_000_000),
        vec![member("a", "p", &id, &[0, 1, 5])],
    );
    let s = decode_snapshot(&s.to_string(), "snapshot").unwrap();
    let started = Instant::now();
    let v = check_settled(&s);
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    assert_eq!(v.len(), 1, "{v:?}");
    let m = &v[0].message;
    assert!(m.len() < 2_000, "{} bytes", m.len());
    assert!(m.contains("_2, "), "{m}");
    assert!(!m.contains("_5,"), "{m}");
    assert!(
        m.ends_with("and 999987 more are active on no member"),
        "{m}"
    );
    assert_eq!(check(None, &s), vec![]);
}

#[test]
fn violations_are_listed_up_to_a_bound_and_counted_beyond() {
    let ps: Vec<i32> = (0..2_500).collect();
    let long = "m".repeat(20_000);
    let s = group_snapshot(
        "0",
        json!(2_500),
        vec![member(&long, "p1", "0", &ps), member("b", "p2", "0", &ps)],
    );
    let s = decode_snapshot(&s.to_string(), "snapshot").unwrap();
    let v = check(None, &s);
    assert_eq!(v.len(), MAX_VIOLATIONS + 1);
    assert!(v[..MAX_VIOLATIONS].iter().all(|x| x.rule == "activeOnce"));
    assert!(v[0].message.len() < 300, "{}", v[0].message);
    assert_eq!(v[0].member_id.as_deref(), Some(long.as_str()));
    assert_eq!(
        v[MAX_VIOLATIONS].message,
        "1500 more violation(s) are not listed (at most 1000 are)"
    );
}
