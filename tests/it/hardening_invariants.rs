//! The invariant checker itself: each rule is broken on purpose in a hand-made
//! snapshot and must be reported (with its rule name and the member or task it is
//! about); real snapshots of a healthy group report nothing.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::snapshot::Snapshot;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants::{check, check_settled, decode_snapshot, Violation};
use streams_rebalance::protocol::*;

fn tasks(active: &[i32], standby: &[i32]) -> Value {
    let list = |ps: &[i32]| {
        if ps.is_empty() {
            json!([])
        } else {
            json!([{ "subtopologyId": "0", "partitions": ps }])
        }
    };
    json!({ "activeTasks": list(active), "standbyTasks": list(standby), "warmupTasks": [] })
}

struct M {
    id: &'static str,
    process: &'static str,
    epoch: i32,
    state: &'static str,
    stale: bool,
    held: (Vec<i32>, Vec<i32>),
    pending: Vec<i32>,
    target: (Vec<i32>, Vec<i32>),
}

fn m(id: &'static str, process: &'static str, epoch: i32, active: &[i32]) -> M {
    M {
        id,
        process,
        epoch,
        state: "Stable",
        stale: false,
        held: (active.to_vec(), vec![]),
        pending: vec![],
        target: (active.to_vec(), vec![]),
    }
}

fn snapshot(
    group_epoch: i32,
    assignment_epoch: i32,
    state: &str,
    tasks_n: u32,
    members: &[M],
) -> Snapshot {
    let members: Vec<Value> = members
        .iter()
        .map(|x| {
            json!({
                "memberId": x.id, "processId": x.process, "stale": x.stale,
                "clientTags": [], "topologyEpoch": 0, "sessionDeadlineMs": 0,
                "memberEpoch": x.epoch, "previousMemberEpoch": x.epoch - 1,
                "memberState": x.state,
                "assignment": tasks(&x.held.0, &x.held.1),
                "pendingRevocation": tasks(&x.pending, &[]),
                "targetAssignment": tasks(&x.target.0, &x.target.1),
            })
        })
        .collect();
    let v = json!({ "groups": [{
        "groupId": "g", "groupType": "streams", "groupState": state,
        "groupEpoch": group_epoch, "assignmentEpoch": assignment_epoch, "topologyEpoch": 0,
        "configuredTopology": { "ready": true, "statuses": [], "internalTopicsToCreate": [],
            "internalTopicsUndecided": [],
            "subtopologies": [{ "subtopologyId": "0", "numTasks": tasks_n, "stateful": false, "sourceTopics": [] }] },
        "members": members, "consumerMembers": [],
    }], "nowMs": 0, "assignor": "sticky", "topics": [], "acls": [], "recordCount": 0 });
    decode_snapshot(&v.to_string(), "snapshot").unwrap()
}

fn rules(v: &[Violation]) -> Vec<&'static str> {
    v.iter().map(|x| x.rule).collect()
}

#[test]
fn a_healthy_stable_group_has_no_violation() {
    let s = snapshot(
        3,
        3,
        "Stable",
        2,
        &[m("a", "p1", 3, &[0]), m("b", "p2", 3, &[1])],
    );
    assert_eq!(check(None, &s), vec![]);
    assert_eq!(check(Some(&s), &s), vec![]);
    assert_eq!(check_settled(&s), vec![]);
}

#[test]
fn a_task_active_on_two_members_is_reported() {
    let mut b = m("b", "p2", 3, &[1]);
    b.pending = vec![0];
    let s = snapshot(3, 3, "Reconciling", 2, &[m("a", "p1", 3, &[0]), b]);
    let v = check(None, &s);
    assert!(rules(&v).contains(&"activeOnce"), "{v:?}");
    assert!(
        v[0].message
            .contains("task 0_0 is active on 2 members: a, b"),
        "{}",
        v[0].message
    );
}

#[test]
fn a_process_holding_a_task_twice_is_reported() {
    let mut b = m("b", "p1", 3, &[]);
    b.held = (vec![], vec![0]);
    b.target = b.held.clone();
    let s = snapshot(3, 3, "Stable", 1, &[m("a", "p1", 3, &[0]), b]);
    let v = check(None, &s);
    assert!(rules(&v).contains(&"processOnce"), "{v:?}");
    assert!(rules(&v).contains(&"standbyApart"), "{v:?}");
}

#[test]
fn a_target_standby_on_the_process_of_its_active_is_reported() {
    let mut b = m("b", "p1", 2, &[]);
    b.state = "UnrevokedTasks";
    b.target = (vec![], vec![0]);
    let s = snapshot(3, 3, "Reconciling", 1, &[m("a", "p1", 3, &[0]), b]);
    let v = check(None, &s);
    assert_eq!(rules(&v), vec!["standbyApart"], "{v:?}");
    assert!(v[0]
        .message
        .contains("the target gives member b task 0_0 as standby"));
}

#[test]
fn epochs_going_back_are_reported() {
    let before = snapshot(5, 5, "Stable", 1, &[m("a", "p1", 5, &[0])]);
    let after = snapshot(4, 4, "Stable", 1, &[m("a", "p1", 4, &[0])]);
    let v = check(Some(&before), &after);
    assert_eq!(rules(&v), vec!["epochsForward"; 3], "{v:?}");
    // A rejoin (epoch 0) is not going back.
    let rejoin = snapshot(6, 5, "Assigning", 1, &[m("a", "p1", 0, &[])]);
    assert!(check(Some(&before), &rejoin)
        .iter()
        .all(|x| x.rule != "epochsForward"));
}

#[test]
fn an_assignment_epoch_ahead_of_the_group_epoch_is_reported() {
    let s = snapshot(3, 4, "Stable", 1, &[m("a", "p1", 4, &[0])]);
    assert_eq!(rules(&check(None, &s)), vec!["assignmentEpochBound"]);
    let s = snapshot(4, 3, "Assigning", 1, &[m("a", "p1", 4, &[0])]);
    assert_eq!(rules(&check(None, &s)), vec!["assignmentEpochBound"]);
}

#[test]
fn a_stable_member_not_owning_its_target_is_reported() {
    let mut a = m("a", "p1", 3, &[0]);
    a.target = (vec![0, 1], vec![]);
    let s = snapshot(3, 3, "Stable", 2, &[a]);
    let v = check(None, &s);
    assert_eq!(rules(&v), vec!["stableOwnsTarget"]);
    assert!(
        v[0].message.contains("holds active [0_0]"),
        "{}",
        v[0].message
    );
}

#[test]
fn a_stale_member_gaining_a_task_is_reported() {
    let mut a0 = m("a", "p1", 3, &[0]);
    a0.stale = true;
    let mut a1 = m("a", "p1", 3, &[0, 1]);
    a1.stale = true;
    let before = snapshot(3, 3, "Stable", 2, &[a0]);
    let after = snapshot(3, 3, "Stable", 2, &[a1]);
    let v = check(Some(&before), &after);
    assert_eq!(rules(&v), vec!["staleGainsNothing"]);
    assert!(v[0].message.contains("gained active task(s) 0_1"));
}

#[test]
fn a_stable_group_with_an_empty_target_for_a_ready_topology_is_reported() {
    // What a configuration applied without a group epoch bump used to leave behind.
    let s = snapshot(3, 3, "Stable", 2, &[m("a", "p1", 3, &[])]);
    let v = check(None, &s);
    assert_eq!(rules(&v), vec!["stableCoversTopology"], "{v:?}");
    assert!(
        v[0].message
            .contains("task(s) 0_0, 0_1 of its ready topology"),
        "{}",
        v[0].message
    );
    // Not while Assigning, and not when every member is stale.
    let s = snapshot(4, 3, "Assigning", 2, &[m("a", "p1", 3, &[])]);
    assert_eq!(check(None, &s), vec![]);
    let mut stale = m("a", "p1", 3, &[]);
    stale.stale = true;
    let s = snapshot(3, 3, "Stable", 2, &[stale]);
    assert_eq!(check(None, &s), vec![]);
}

#[test]
fn an_unsettled_group_is_reported() {
    let s = snapshot(3, 3, "Reconciling", 3, &[m("a", "p1", 3, &[0])]);
    let v = check_settled(&s);
    assert_eq!(rules(&v), vec!["settled", "settled"], "{v:?}");
    assert!(
        v[1].message.contains("0_1, 0_2 are active on no member"),
        "{}",
        v[1].message
    );
}

#[test]
fn the_view_reads_simulation_snapshots_and_names_bad_fields() {
    let sim = streams_rebalance::sim::Simulation::new(CoordinatorConfig::default());
    let text = serde_json::to_string(&sim.snapshot()).unwrap();
    assert_eq!(decode_snapshot(&text, "snapshot").unwrap().groups.len(), 0);
    let inner = json!({ "groups": [], "nowMs": 0, "assignor": "sticky", "topics": [], "acls": [], "recordCount": 0 });
    let bad = json!({ "nowMs": 0, "coordinator": inner, "extra": 1 });
    let e = decode_snapshot(&bad.to_string(), "snapshot").unwrap_err();
    assert_eq!(e.path(), "extra", "{e}");
    let bad = json!({ "groups": [{ "groupId": "g", "groupType": "streams", "groupState": "Stable",
        "groupEpoch": "x", "members": [] }] });
    let e = decode_snapshot(&bad.to_string(), "snapshot").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid snapshot: groups[0].groupEpoch: invalid type: string \"x\", expected i32"
    );
    assert_eq!(e.kind(), "decode");
    let e = decode_snapshot("[1]", "snapshot").unwrap_err();
    assert_eq!(e.kind(), "decode");
}

#[test]
fn real_snapshots_of_a_rebalance_check_clean() {
    let mut c = Coordinator::new(CoordinatorConfig::default());
    c.create_topics(&[("in".to_owned(), 4)]);
    let topo = Topology {
        epoch: 0,
        subtopologies: vec![Subtopology {
            subtopology_id: "0".into(),
            source_topics: vec!["in".into()],
            ..Default::default()
        }],
    };
    let join = |id: &str| StreamsGroupHeartbeatRequest {
        group_id: "g".into(),
        member_id: id.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 1000,
        topology: Some(topo.clone()),
        active_tasks: Some(vec![].into()),
        standby_tasks: Some(vec![].into()),
        warmup_tasks: Some(vec![].into()),
        ..Default::default()
    };
    let ctx = RequestContext::default();
    let mut prev = c.snapshot();
    let a = c.heartbeat(&join("a"), &ctx);
    let cur = c.snapshot();
    assert_eq!(check(Some(&prev), &cur), vec![]);
    prev = cur;
    c.heartbeat(&join("b"), &ctx);
    let cur = c.snapshot();
    assert_eq!(check(Some(&prev), &cur), vec![]);
    // "a" still owns all four tasks, the group is reconciling: not settled yet.
    assert_eq!(rules(&check_settled(&cur)), vec!["settled"]);
    assert_eq!(a.active_tasks.unwrap()[0].partitions, vec![0, 1, 2, 3]);
}
