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
/// `RELIABILITY_SCALE=25 scripts/reliability-long.sh` is the issue's full size.
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
    // The safety check walks the targets the same way: the group claims to be Stable
    // with a target that covers ten of its million tasks (issue 13's rule).
    let v = check(None, &s);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "stableCoversTopology");
    assert!(v[0].message.len() < 2_000, "{} bytes", v[0].message.len());
    assert!(v[0].message.contains("and 999987 more"), "{}", v[0].message);
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

// ---------------------------------------------------------------------------------
// 2. fromRecords enforces the limits the live path enforces.

fn topic_record(offset: u64, name: &str, partitions: i64) -> Value {
    json!({ "offset": offset, "key": { "type": "TopicKey", "name": name },
        "value": { "type": "TopicValue", "numPartitions": partitions } })
}

#[test]
fn records_beyond_a_live_limit_are_refused_naming_the_field() {
    let e = refused(json!([topic_record(0, "in", 2_147_483_647)]));
    assert!(
        e.contains("[0].value.numPartitions: Number of partitions 2147483647 is above"),
        "{e}"
    );
    let tags: Vec<Value> = (0..1_001)
        .map(|i| json!({ "key": format!("k{i}"), "value": "v" }))
        .collect();
    let member = json!({ "offset": 3, "key": { "type": "StreamsGroupMemberMetadataKey", "groupId": "g", "memberId": "m" },
        "value": { "type": "StreamsGroupMemberMetadataValue", "clientId": "c", "clientHost": "h",
            "rebalanceTimeoutMs": 1000, "topologyEpoch": 0, "processId": "p", "clientTags": tags } });
    let e = refused(json!([member]));
    assert!(
        e.contains("[0].value.clientTags: clientTags has 1001 entries"),
        "{e}"
    );
    let subs: Vec<Value> = (0..1_001)
        .map(|i| json!({ "subtopologyId": i.to_string(), "sourceTopics": ["in"] }))
        .collect();
    let topology = json!({ "offset": 1, "key": { "type": "StreamsGroupTopologyKey", "groupId": "g" },
        "value": { "type": "StreamsGroupTopologyValue", "topologyEpoch": 0, "subtopologies": subs } });
    let e = refused(json!([topology]));
    assert!(e.contains("[0].value.subtopologies"), "{e}");
    // A topology a join would refuse (no subtopology reads anything).
    let topology = json!({ "offset": 1, "key": { "type": "StreamsGroupTopologyKey", "groupId": "g" },
        "value": { "type": "StreamsGroupTopologyValue", "topologyEpoch": 0,
            "subtopologies": [{ "subtopologyId": "0" }] } });
    assert!(load(json!([topology])).is_err());
}

#[test]
fn records_whose_state_crosses_the_task_limit_are_refused() {
    // Eleven topics of 100 000 partitions, each read by its own subtopology: 1.1 M tasks.
    let mut records: Vec<Value> = (0..11)
        .map(|i| topic_record(i, &format!("t{i}"), 100_000))
        .collect();
    let subs: Vec<Value> = (0..11)
        .map(|i| json!({ "subtopologyId": i.to_string(), "sourceTopics": [format!("t{i}")] }))
        .collect();
    records.push(json!({ "offset": 20, "key": { "type": "StreamsGroupTopologyKey", "groupId": "g" },
        "value": { "type": "StreamsGroupTopologyValue", "topologyEpoch": 0, "subtopologies": subs } }));
    let e = refused(json!(records));
    assert!(e.contains("group g has 1100000 tasks"), "{e}");
    // Ten are within the limit.
    records.remove(10);
    let subs = &mut records[10]["value"]["subtopologies"];
    subs.as_array_mut().unwrap().pop();
    assert!(load(json!(records)).is_ok());
}

// ---------------------------------------------------------------------------------
// 6. Fail-over exact in every detail.

fn two_members(session_timeout_ms: i32) -> (Coordinator, Client, Client) {
    let config = CoordinatorConfig {
        session_timeout_ms,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "in", 4);
    let mut a = Client::new("g", "a", topology(0, "in"));
    let mut b = Client::new("g", "b", topology(0, "in"));
    a.heartbeat(&mut c);
    b.heartbeat(&mut c);
    a.heartbeat(&mut c);
    b.heartbeat(&mut c);
    (c, a, b)
}

/// The issue's repro: two members (session 1 s), n x advanceTime(1), a heartbeat at
/// now + 2 s (both sessions end), advanceTime(0). Around n = 230 the write that ends
/// it compacts the log, whose last records were tombstones: a rebuilt coordinator
/// used to go on from an older offset (267 instead of 269).
#[test]
fn offsets_are_never_reused_after_fail_over() {
    for n in 220..240 {
        let config = CoordinatorConfig {
            session_timeout_ms: 1_000,
            ..Default::default()
        };
        let mut c = coordinator_with_topic(config, "in", 4);
        let mut a = Client::new("g", "a", topology(0, "in"));
        let mut b = Client::new("g", "b", topology(0, "in"));
        a.heartbeat(&mut c);
        b.heartbeat(&mut c);
        for _ in 0..n {
            c.advance_time(1).unwrap();
        }
        let r = c.heartbeat(&a.request(), &at(c.now() + 2_000));
        a.absorb(&r);
        c.advance_time(0).unwrap();
        let mut d = rebuild(&c);
        c.advance_time(1).unwrap();
        d.advance_time(1).unwrap();
        let last = |c: &Coordinator| c.records().last().map(|r| r.offset);
        assert_eq!(last(&d), last(&c), "n = {n}");
        assert_eq!(
            serde_json::to_string(d.records()).unwrap(),
            serde_json::to_string(c.records()).unwrap(),
            "n = {n}"
        );
    }
}

/// A log whose member metadata is gone but whose current assignment is not (what
/// compaction could leave) loads without the member: it is not brought back.
#[test]
fn a_member_without_metadata_is_not_brought_back_on_load() {
    let (mut c, _, _) = two_members(1_000);
    let mut records: Vec<Value> =
        serde_json::from_str(&serde_json::to_string(c.records()).unwrap()).unwrap();
    let is_metadata_of_b = |r: &Value| {
        r["key"]["type"] == "StreamsGroupMemberMetadataKey" && r["key"]["memberId"] == "b"
    };
    assert!(records.iter().any(is_metadata_of_b));
    records.retain(|r| !is_metadata_of_b(r));
    let mut d = load(json!(records)).unwrap();
    let members = |c: &mut Coordinator| -> Vec<String> {
        c.describe(&["g".to_owned()], &ctx()).groups[0]
            .members
            .iter()
            .map(|m| m.member_id.clone())
            .collect()
    };
    assert_eq!(members(&mut c), vec!["a", "b"]);
    assert_eq!(members(&mut d), vec!["a"]);
    // Its tasks are free again: the rebuilt group answers as if b had left.
    let snap = d.snapshot();
    assert!(snap.groups[0].members.iter().all(|m| m.member_id != "b"));
}

#[test]
fn compaction_never_brings_a_removed_member_back() {
    let (mut c, _, _) = two_members(1_000);
    // The sessions end at 1 000 ms: the members' records are tombstoned, compacted.
    for i in 0..1_300 {
        c.advance_time(1).unwrap();
        if i % 10 == 0 || (990..1_010).contains(&i) {
            let d = rebuild(&c);
            assert_eq!(
                serde_json::to_string(&d.snapshot()).unwrap(),
                serde_json::to_string(&c.snapshot()).unwrap(),
                "after {} ms",
                i + 1
            );
        }
    }
}

#[test]
fn int64_values_beyond_2_pow_53_survive_every_output() {
    let records = json!([
        { "offset": "9007199254740993", "key": { "type": "ClockKey" },
          "value": { "type": "ClockValue", "nowMs": "9007199254740993" } },
        topic_record(0, "in", 1),
    ]);
    // Offsets must increase: the second record is refused at index 1.
    assert!(refused(records).contains("[1].offset"));
    let records = json!([
        topic_record(9_007_199_254_740_990, "in", 1),
        { "offset": "9007199254740993", "key": { "type": "ClockKey" },
          "value": { "type": "ClockValue", "nowMs": "9007199254740993" } },
    ]);
    let c = load(records).unwrap();
    let text = serde_json::to_string(c.records()).unwrap();
    assert!(text.contains(r#""offset":"9007199254740993""#), "{text}");
    assert!(text.contains(r#""offset":9007199254740990"#), "{text}");
    let again: Vec<Record> = decode_str(&text, "records").unwrap();
    assert_eq!(again, c.records());
    let snap = serde_json::to_value(c.snapshot()).unwrap();
    assert_eq!(snap["nowMs"], json!("9007199254740993"));
    // A member's session deadline beyond 2^53 too.
    let mut c = c;
    let r = c.heartbeat(&join_request("g", "m", topology(0, "in")), &ctx());
    assert_eq!(r.error_code, 0, "{r:?}");
    let snap = serde_json::to_value(c.snapshot()).unwrap();
    let deadline = &snap["groups"][0]["members"][0]["sessionDeadlineMs"];
    assert_eq!(
        deadline,
        &json!((9_007_199_254_740_993i64 + 45_000).to_string())
    );
    let back = decode_snapshot(&snap.to_string(), "snapshot").unwrap();
    assert_eq!(back, c.snapshot());
}

// ---------------------------------------------------------------------------------
// 8. Owned tasks are checked against the topology also while the group is NotReady.

#[test]
fn an_owned_task_of_an_unknown_subtopology_is_refused_while_not_ready() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let mut a = Client::new("g", "a", topology(0, "missing"));
    let r = a.heartbeat(&mut c);
    assert_eq!(r.error_code, 0);
    let state = c.describe(&["g".to_owned()], &ctx()).groups[0]
        .group_state
        .clone();
    assert_eq!(state, "NotReady");
    a.active = vec![ids("9", &[0])];
    let r = a.heartbeat(&mut c);
    assert_eq!(r.error_code, ErrorCode::INVALID_REQUEST.code(), "{r:?}");
    assert!(r
        .error_message
        .as_deref()
        .unwrap_or_default()
        .contains("task 9_0, which is not a task of the group's topology"));
    // A task of a subtopology it has: its count is not known yet, so it passes.
    a.active = vec![ids("0", &[3])];
    let r = a.heartbeat(&mut c);
    assert_eq!(r.error_code, 0, "{r:?}");
}

// ---------------------------------------------------------------------------------
// 9. The simulation clock stays within what a scenario holds.

#[test]
fn the_simulation_clock_stops_where_a_scenario_ends() {
    use streams_rebalance::sim::scenario::{Scenario, MAX_TIME_MS};
    use streams_rebalance::sim::Simulation;
    let mut sim = Simulation::new(CoordinatorConfig::default());
    sim.step(MAX_TIME_MS - 10).unwrap();
    let e = sim.step(11).unwrap_err();
    assert!(e.contains("past 31536000000"), "{e}");
    sim.step_next(3_600_000);
    assert_eq!(sim.now(), MAX_TIME_MS);
    sim.run_until_stable(1_000).unwrap();
    assert_eq!(sim.now(), MAX_TIME_MS);
    sim.act(streams_rebalance::sim::scenario::Action::CreateTopics { topics: vec![] })
        .unwrap();
    let text = serde_json::to_string(sim.scenario()).unwrap();
    let back: Scenario = decode_str(&text, "scenario").unwrap();
    assert_eq!(&back, sim.scenario());
}

// ---------------------------------------------------------------------------------
// 7. createTopics re-checks the groups once per request.

fn creatable(name: String, partitions: i32) -> CreatableTopic {
    CreatableTopic {
        name,
        num_partitions: partitions,
        replication_factor: -1,
        configs: Default::default(),
    }
}

#[test]
fn create_topics_checks_the_groups_once_per_request() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "in", 4);
    let mut a = Client::new("g", "a", topology(0, "in"));
    a.heartbeat(&mut c);
    let n = (4_000 * scale()).min(100_000);
    let topics: Vec<CreatableTopic> = (0..n).map(|i| creatable(format!("t_{i}"), 1)).collect();
    let started = Instant::now();
    let r = c.create_topics_request(&topics).unwrap();
    let took = started.elapsed();
    assert!(r.iter().all(|r| r.error_code == ErrorCode::NONE), "{r:?}");
    assert_eq!(c.cluster.topics.len(), n + 1);
    assert!(took.as_secs() < 10 * scale() as u64, "{took:?}");
    eprintln!("createTopics of {n} topics with one streams group: {took:?}");
    // Collisions are still found, within the request too.
    let r = c
        .create_topics_request(&[
            creatable("t.1".into(), 1),
            creatable("x.y".into(), 1),
            creatable("x_y".into(), 1),
        ])
        .unwrap();
    assert_eq!(r[0].error_code, ErrorCode::INVALID_TOPIC_EXCEPTION);
    assert_eq!(r[1].error_code, ErrorCode::NONE);
    assert_eq!(r[2].error_code, ErrorCode::INVALID_TOPIC_EXCEPTION);
    let too_many: Vec<CreatableTopic> = (0..100_001)
        .map(|i| creatable(format!("u{i}"), 1))
        .collect();
    let e = c.create_topics_request(&too_many).unwrap_err();
    assert_eq!(e.kind(), "limit");
    assert!(!c.cluster.topics.contains_key("u0"));
}

#[test]
fn a_request_crossing_the_task_limit_refuses_only_the_topic_that_crosses_it() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "in", 4);
    let regex = Topology {
        epoch: 0,
        subtopologies: (0..11)
            .map(|i| Subtopology {
                subtopology_id: i.to_string(),
                source_topic_regex: vec![format!("t{i}x")],
                ..Default::default()
            })
            .collect(),
    };
    let r = c.heartbeat(&join_request("g", "a", regex), &ctx());
    assert_eq!(r.error_code, 0, "{r:?}");
    let topics: Vec<CreatableTopic> = (0..11)
        .map(|i| creatable(format!("t{i}x"), 100_000))
        .chain([creatable("small".into(), 3)])
        .collect();
    let r = c.create_topics_request(&topics).unwrap();
    let codes: Vec<ErrorCode> = r.iter().map(|r| r.error_code).collect();
    let mut expected = vec![ErrorCode::NONE; 12];
    expected[10] = ErrorCode::INVALID_PARTITIONS;
    assert_eq!(codes, expected, "{r:?}");
    assert!(!c.cluster.topics.contains_key("t10x"));
    assert!(c.cluster.topics.contains_key("small"));
}

// ---------------------------------------------------------------------------------
// 5. Time moved only through the context's `nowMs`: the pending events stay bounded.

#[test]
fn events_waiting_for_advance_time_stay_bounded_when_time_moves_by_now_ms() {
    use streams_rebalance::coordinator::events::MAX_PENDING_EVENTS;
    let config = CoordinatorConfig {
        session_timeout_ms: 1_000,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "in", 2);
    let mut now = 0;
    // Each join is followed by the expiry of the member before it.
    let expirations = 1_500 * scale();
    let started = Instant::now();
    for i in 0..=expirations {
        now += 2_000;
        let r = c.heartbeat(
            &join_request("g", &format!("m{i}"), topology(0, "in")),
            &at(now),
        );
        assert_eq!(r.error_code, 0);
    }
    let took = started.elapsed();
    assert!(
        c.records().len() < 2 * 60 + 256 + 2 * MAX_PENDING_EVENTS + 10,
        "{}",
        c.records().len()
    );
    let mut d = rebuild(&c);
    let events = c.advance_time(0).unwrap();
    assert_eq!(events.len(), MAX_PENDING_EVENTS);
    // The newest are kept: the last expiry is that of the member before the last.
    let last = events.last().unwrap();
    assert_eq!(
        last.member_id.as_deref(),
        Some(format!("m{}", expirations - 1).as_str())
    );
    assert_eq!(d.advance_time(0).unwrap(), events);
    assert!(c.advance_time(0).unwrap().is_empty());
    assert!(took.as_secs() < 30 * scale() as u64, "{took:?}");
    eprintln!(
        "{expirations} expirations by nowMs: {took:?}, {} records",
        c.records().len()
    );
}

// ---------------------------------------------------------------------------------
// 3. A memory budget: joins within every per-field limit stop at the budget, answered
// GROUP_MAX_SIZE_REACHED before anything changes.

#[test]
fn joins_beyond_the_memory_budget_are_group_max_size_reached() {
    let config = CoordinatorConfig {
        max_state_bytes: 1 << 20,
        ..Default::default()
    };
    let mut c = coordinator_with_topic(config, "in", 4);
    // 100 tags of about 1 KB: about 100 KB of metadata, counted three times.
    let tags: Vec<KeyValue> = (0..100)
        .map(|i| KeyValue {
            key: format!("k{i}"),
            value: "v".repeat(1_000),
        })
        .collect();
    let join = |id: &str| StreamsGroupHeartbeatRequest {
        client_tags: Some(tags.clone()),
        ..join_request("g", id, topology(0, "in"))
    };
    let mut accepted = 0;
    let refused = loop {
        let r = c.heartbeat(&join(&format!("m{accepted}")), &ctx());
        if r.error_code != 0 {
            break r;
        }
        accepted += 1;
        assert!(accepted < 10, "the budget never bound");
    };
    assert_eq!(accepted, 3);
    assert_eq!(refused.error_code, ErrorCode::GROUP_MAX_SIZE_REACHED.code());
    assert!(
        refused
            .error_message
            .as_deref()
            .unwrap_or_default()
            .contains("memory budget of 1048576 bytes (maxStateBytes)"),
        "{refused:?}"
    );
    // Nothing changed; a rebuilt twin refuses the same join, and a join without tags fits.
    let before = serde_json::to_string(c.records()).unwrap();
    let mut d = rebuild(&c);
    let r = d.heartbeat(&join("m3"), &ctx());
    assert_eq!(r.error_code, ErrorCode::GROUP_MAX_SIZE_REACHED.code());
    assert_eq!(serde_json::to_string(c.records()).unwrap(), before);
    let r = c.heartbeat(&join_request("g", "small", topology(0, "in")), &ctx());
    assert_eq!(r.error_code, 0, "{r:?}");
    // A member leaving frees its share: the big join fits again.
    let mut m0 = Client::new("g", "m0", topology(0, "in"));
    m0.epoch = 1;
    m0.leave(&mut c);
    let r = c.heartbeat(&join("m4"), &ctx());
    assert_eq!(r.error_code, 0, "{r:?}");
}

// ---------------------------------------------------------------------------------
// Noticed in issue 16: `fromRecords` configured every group again per topic record
// (quadratic in topics x groups); now once per group after the records are read.

#[test]
fn a_log_of_many_topics_and_groups_rebuilds_the_same_state() {
    let groups = 60;
    let mut c = Coordinator::new(CoordinatorConfig::default());
    let sources: Vec<CreatableTopic> = (0..groups)
        .map(|g| creatable(format!("in_{g}"), 2))
        .collect();
    c.create_topics_request(&sources).unwrap();
    let mut clients: Vec<Client> = (0..groups)
        .map(|g| Client::new(&format!("g{g}"), "a", topology(0, &format!("in_{g}"))))
        .collect();
    for client in &mut clients {
        assert_eq!(client.heartbeat(&mut c).error_code, 0);
    }
    // Topic records after the topologies: many unrelated ones, one request each, and
    // changes to the groups' own topics (grown, deleted, created again).
    for i in 0..1_500 * scale() {
        c.create_topics_request(&[creatable(format!("t_{i}"), 1)])
            .unwrap();
    }
    assert_eq!(c.create_partitions("in_0", 5).error_code, ErrorCode::NONE);
    assert!(c.delete_topic("in_1"));
    assert!(c.delete_topic("in_2"));
    c.create_topics_request(&[creatable("in_2".into(), 3)])
        .unwrap();
    let text = serde_json::to_string(c.records()).unwrap();
    let records: Vec<Record> = decode_str(&text, "records").unwrap();
    let topic_records = records
        .iter()
        .filter(|r| text_of_key(r).contains("TopicKey"))
        .count();
    assert!(topic_records > 1_500 * scale(), "{topic_records}");
    let started = Instant::now();
    let mut d = Coordinator::from_records(c.config.clone(), records).unwrap();
    eprintln!(
        "fromRecords of {} records ({topic_records} topic records, {groups} groups): {:?}",
        c.records().len(),
        started.elapsed()
    );
    assert_eq!(
        serde_json::to_value(d.snapshot()).unwrap(),
        serde_json::to_value(c.snapshot()).unwrap()
    );
    let ids: Vec<String> = (0..groups).map(|g| format!("g{g}")).collect();
    assert_eq!(d.describe(&ids, &ctx()), c.describe(&ids, &ctx()));
    for client in &mut clients {
        let mut twin = client.clone();
        assert_eq!(twin.heartbeat(&mut d), client.heartbeat(&mut c));
    }
    assert_eq!(d.records(), c.records());
}

fn text_of_key(r: &Record) -> String {
    serde_json::to_string(&r.key).unwrap()
}
