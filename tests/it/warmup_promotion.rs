//! The probing rebalance (PROTOCOL.md §6.4) through the Coordinator API: with `highly_available`
//! a lagging member first gets warm-ups while the caught-up owner keeps the tasks
//! active; once its reported offsets are within `acceptableRecoveryLag` the group epoch
//! goes up, the owner revokes first, the tasks move and the warm-ups are gone. A
//! coordinator rebuilt from the records decides the same, and nothing loops.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::*;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::protocol::*;

const LAG: i64 = 100;
const END: i64 = 10_000;

fn config() -> CoordinatorConfig {
    CoordinatorConfig {
        assignor: "highly_available".into(),
        acceptable_recovery_lag: LAG,
        max_warmup_replicas: 2,
        ..Default::default()
    }
}

fn offsets(ps: &[i32], offset: i64) -> Vec<TaskOffset> {
    ps.iter()
        .map(|&p| TaskOffset {
            subtopology_id: "0".into(),
            partition: p,
            offset,
        })
        .collect()
}

fn partitions_of(list: &[TaskIds]) -> Vec<i32> {
    partitions(&Some(list.to_vec()))
}

fn group_epoch(c: &mut Coordinator) -> i32 {
    c.describe(&["app".to_owned()], &ctx()).groups[0].group_epoch
}

/// a owns all four tasks and is caught up on them; b joins and gets warm-ups of two.
fn with_warmups() -> (Coordinator, Client, Client) {
    let mut c = coordinator_with_topic(config(), "input", 4);
    c.create_topics(&[("app-store-changelog".into(), 4)]);
    let mut a = Client::new("app", "a", stateful_topology());
    converge(&mut c, &mut [&mut a], 5);
    assert_eq!(a.active_partitions(), vec![0, 1, 2, 3]);
    let mut b = Client::new("app", "b", stateful_topology());
    let mut req = b.request();
    req.task_offsets = Some(vec![]);
    req.task_end_offsets = Some(offsets(&[0, 1, 2, 3], END));
    b.absorb(&c.heartbeat(&req, &ctx()));
    converge(&mut c, &mut [&mut a, &mut b], 5);
    (c, a, b)
}

#[test]
fn a_warm_up_that_caught_up_moves_its_task_with_revocation_first() {
    let (mut c, mut a, mut b) = with_warmups();
    assert_eq!(
        a.active_partitions(),
        vec![0, 1, 2, 3],
        "a keeps them active"
    );
    assert!(b.active.iter().all(|t| t.partitions.is_empty()));
    let warm = partitions_of(&b.warmup);
    assert_eq!(warm.len(), 2, "maxWarmupReplicas");
    let epoch = group_epoch(&mut c);

    // Still lagging: nothing changes.
    let mut req = b.request();
    req.task_offsets = Some(offsets(&warm, END - LAG - 1));
    b.absorb(&c.heartbeat(&req, &ctx()));
    assert_eq!(group_epoch(&mut c), epoch);
    b.heartbeat(&mut c);
    a.heartbeat(&mut c);
    assert_eq!(
        group_epoch(&mut c),
        epoch,
        "no bump without a caught-up warm-up"
    );

    // Caught up: one bump in this very request; b keeps its warm-ups (they are promoted
    // in place later, PROTOCOL.md §4.2) and gets nothing active while a still owns the
    // tasks.
    let mut req = b.request();
    req.task_offsets = Some(offsets(&warm, END - LAG));
    let r = c.heartbeat(&req, &ctx());
    b.absorb(&r);
    assert_eq!(group_epoch(&mut c), epoch + 1);
    assert_eq!(partitions_of(&b.warmup), warm, "still warming up");
    assert_eq!(b.active_partitions(), Vec::<i32>::new());
    let held = &c.streams_group("app").unwrap().members["b"].current;
    assert_eq!(held.state.name(), "UnreleasedTasks");
    assert!(
        held.pending_revocation.is_empty(),
        "a warm-up to promote is not revoked"
    );
    let d = c.describe(&["app".to_owned()], &ctx()).groups.remove(0);
    let bd = d.members.iter().find(|m| m.member_id == "b").unwrap();
    assert_eq!(partitions_of(&bd.target_assignment.active_tasks), warm);
    assert!(bd.target_assignment.warmup_tasks.is_empty());

    // a is told to revoke the warmed-up tasks first.
    let r = a.heartbeat(&mut c);
    assert_eq!(
        partitions(&r.active_tasks),
        (0..4).filter(|p| !warm.contains(p)).collect::<Vec<_>>()
    );
    assert_exclusive(&[&a, &b]);
    converge(&mut c, &mut [&mut a, &mut b], 5);
    assert_eq!(b.active_partitions(), warm);
    assert!(b.warmup.iter().all(|t| t.partitions.is_empty()));
    assert_eq!(group_epoch(&mut c), epoch + 1, "exactly one bump");

    // Nothing loops: more heartbeats with the same offsets keep the epoch.
    for _ in 0..3 {
        let mut req = b.request();
        req.task_offsets = Some(offsets(&warm, END - LAG));
        b.absorb(&c.heartbeat(&req, &ctx()));
        a.heartbeat(&mut c);
    }
    assert_eq!(group_epoch(&mut c), epoch + 1);
    let d = c.describe(&["app".to_owned()], &ctx()).groups.remove(0);
    assert_eq!(d.group_state, "Stable");
    assert!(d.members.iter().all(
        |m| m.assignment.warmup_tasks.is_empty() && m.target_assignment.warmup_tasks.is_empty()
    ));
}

#[test]
fn a_rebuilt_coordinator_promotes_the_same_warm_up() {
    let (mut c, a, mut b) = with_warmups();
    let warm = partitions_of(&b.warmup);
    let mut rebuilt = rebuild(&c, config());
    let mut req = b.request();
    req.task_offsets = Some(offsets(&warm, END));
    let r1 = c.heartbeat(&req, &ctx());
    let r2 = rebuilt.heartbeat(&req, &ctx());
    assert_eq!(json(&r1), json(&r2));
    assert_eq!(json(&c.snapshot()), json(&rebuilt.snapshot()));
    b.absorb(&r1);
    // Rebuilt after the bump: the next heartbeats answer the same and bump nothing.
    let mut again = rebuild(&c, config());
    let epoch = group_epoch(&mut c);
    for req in [a.request(), b.request()] {
        let r1 = c.heartbeat(&req, &ctx());
        let r2 = again.heartbeat(&req, &ctx());
        assert_eq!(json(&r1), json(&r2));
    }
    assert_eq!(group_epoch(&mut c), epoch);
    assert_eq!(group_epoch(&mut again), epoch);
}

#[test]
fn the_sticky_assignor_never_bumps_for_offsets() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "input", 2);
    c.create_topics(&[("app-store-changelog".into(), 2)]);
    let mut a = Client::new("app", "a", stateful_topology());
    converge(&mut c, &mut [&mut a], 5);
    let epoch = group_epoch(&mut c);
    let mut req = a.request();
    req.task_offsets = Some(offsets(&[0, 1], 5));
    req.task_end_offsets = Some(offsets(&[0, 1], END));
    a.absorb(&c.heartbeat(&req, &ctx()));
    assert_eq!(group_epoch(&mut c), epoch);
}
