//! Behaviours of the `sticky` assignor, ported from the scenarios of Kafka's
//! broker-side `StickyTaskAssignorTest` (expected properties, our own code), plus the
//! seed's rolling bounce (PROTOCOL.md §4.4).

#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::*;
use streams_rebalance::assignor::{AssignmentConfig, GroupAssignment, GroupSpec};
use streams_rebalance::task::TaskSet;

const STICKY: &str = "sticky";

fn stateless(n: u32) -> Vec<streams_rebalance::assignor::SubtopologySpec> {
    vec![sub("0", n, false)]
}

#[test]
fn one_active_task_per_process_when_counts_match() {
    let spec = group(
        stateless(3),
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    let a = run(STICKY, &spec, &config(0));
    for id in ["m1", "m2", "m3"] {
        assert_eq!(count(&a, id), 1);
    }
}

#[test]
fn every_subtopology_spreads_evenly_over_members() {
    let spec = group(
        vec![sub("0", 3, false), sub("1", 3, false), sub("2", 3, false)],
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    let a = run(STICKY, &spec, &config(0));
    for id in ["m1", "m2", "m3"] {
        assert_eq!(count(&a, id), 3);
    }
}

#[test]
fn previous_owners_keep_their_tasks() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 2)]);
    let mut m2 = member("m2", "p2");
    m2.active = tasks(&[("0", 1), ("0", 3)]);
    let spec = group(stateless(4), vec![m1.clone(), m2.clone()]);
    let a = run(STICKY, &spec, &config(0));
    assert_eq!(a.members["m1"].active, m1.active);
    assert_eq!(a.members["m2"].active, m2.active);
}

#[test]
fn a_new_process_takes_a_fair_share_and_only_that_moves() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 1), ("0", 2)]);
    let mut m2 = member("m2", "p2");
    m2.active = tasks(&[("0", 3), ("0", 4), ("0", 5)]);
    let spec = group(
        stateless(6),
        vec![m1.clone(), m2.clone(), member("m3", "p3")],
    );
    let a = run(STICKY, &spec, &config(0));
    for id in ["m1", "m2", "m3"] {
        assert_eq!(count(&a, id), 2);
    }
    assert!(a.members["m1"].active.is_subset(&m1.active));
    assert!(a.members["m2"].active.is_subset(&m2.active));
    let q = quality_of(&spec, &a);
    assert_eq!(q.active_tasks_moved, 2, "only the new member's share moves");
}

#[test]
fn capacity_is_the_number_of_members_of_a_process() {
    // p1 runs two members (threads), p2 one: p1 gets two thirds.
    let spec = group(
        stateless(9),
        vec![member("a", "p1"), member("b", "p1"), member("c", "p2")],
    );
    let a = run(STICKY, &spec, &config(0));
    assert_eq!(count(&a, "a") + count(&a, "b"), 6);
    assert_eq!(count(&a, "c"), 3);
}

#[test]
fn more_members_than_tasks_keeps_stickiness() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 1)]);
    let mut m3 = member("m3", "p3");
    m3.active = tasks(&[("0", 0)]);
    let spec = group(
        stateless(2),
        vec![m1, member("m2", "p2"), m3, member("m4", "p4")],
    );
    let a = run(STICKY, &spec, &config(0));
    assert_eq!(a.members["m1"].active, tasks(&[("0", 1)]));
    assert_eq!(a.members["m3"].active, tasks(&[("0", 0)]));
    assert!(a.members["m2"].active.is_empty() && a.members["m4"].active.is_empty());
}

#[test]
fn a_previous_standby_holder_takes_over_an_orphaned_active() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0)]);
    let mut m2 = member("m2", "p2");
    m2.standby = tasks(&[("0", 1)]);
    // The owner of 0_1 left; m2 holds its standby, m3 holds nothing.
    let spec = group(vec![sub("0", 3, true)], vec![m1, m2, member("m3", "p3")]);
    let a = run(STICKY, &spec, &config(0));
    assert!(a.members["m2"].active.contains("0", 1));
}

#[test]
fn the_most_caught_up_standby_wins() {
    let mut m1 = member("m1", "p1");
    m1.standby = tasks(&[("0", 0)]);
    m1.task_offsets
        .insert(streams_rebalance::task::TaskId::new("0", 0), 10);
    let mut m2 = member("m2", "p2");
    m2.standby = tasks(&[("0", 0)]);
    m2.task_offsets
        .insert(streams_rebalance::task::TaskId::new("0", 0), 90);
    let spec = group(vec![sub("0", 2, true)], vec![m1, m2]);
    let a = run(STICKY, &spec, &config(0));
    assert!(a.members["m2"].active.contains("0", 0));
}

#[test]
fn standbys_go_to_other_processes_with_all_replicas() {
    let spec = group(
        vec![sub("0", 4, true)],
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    let a = run(STICKY, &spec, &config(2));
    let q = quality_of(&spec, &a);
    assert_eq!(q.standby_tasks, 8, "two standbys per stateful task");
    assert_eq!(q.total_balance.spread, 0, "12 tasks over 3 members");
}

#[test]
fn standbys_need_another_process() {
    // Two members of one process: no standby can be placed anywhere.
    let spec = group(
        vec![sub("0", 4, true)],
        vec![member("m1", "p1"), member("m2", "p1")],
    );
    let a = run(STICKY, &spec, &config(1));
    assert_eq!(quality_of(&spec, &a).standby_tasks, 0);
}

#[test]
fn replicas_are_capped_by_other_processes() {
    let spec = group(
        vec![sub("0", 2, true)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    let a = run(STICKY, &spec, &config(3));
    assert_eq!(quality_of(&spec, &a).standby_tasks, 2);
}

#[test]
fn stateless_tasks_get_no_standbys() {
    let spec = group(
        vec![sub("0", 4, false), sub("1", 4, true)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    let a = run(STICKY, &spec, &config(1));
    for m in a.members.values() {
        assert!(m.standby.partitions("0").is_none());
    }
    assert_eq!(quality_of(&spec, &a).standby_tasks, 4);
}

#[test]
fn active_and_standby_load_balances_over_members() {
    let spec = group(
        vec![sub("0", 6, true), sub("1", 6, false)],
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    let a = run(STICKY, &spec, &config(1));
    let q = quality_of(&spec, &a);
    assert_eq!(q.active_balance.spread, 0);
    assert_eq!(q.total_balance.spread, 0);
    // Each flavour is balanced on its own too.
    for m in a.members.values() {
        assert_eq!(m.active.partitions("0").map_or(0, |p| p.len()), 2);
    }
}

#[test]
fn the_old_active_owner_keeps_a_standby_when_the_task_moves() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 1), ("0", 2), ("0", 3)]);
    let spec = group(vec![sub("0", 4, true)], vec![m1, member("m2", "p2")]);
    let a = run(STICKY, &spec, &config(1));
    let moved: TaskSet = a.members["m2"].active.clone();
    assert_eq!(moved.len(), 2);
    assert!(moved.is_subset(&a.members["m1"].standby));
}

#[test]
fn new_tasks_do_not_move_existing_ones() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 1)]);
    let mut m2 = member("m2", "p2");
    m2.active = tasks(&[("0", 2), ("0", 3)]);
    let spec = group(
        vec![sub("0", 4, false), sub("1", 4, false)],
        vec![m1.clone(), m2.clone()],
    );
    let a = run(STICKY, &spec, &config(0));
    assert!(m1.active.is_subset(&a.members["m1"].active));
    assert!(m2.active.is_subset(&a.members["m2"].active));
    assert_eq!(count(&a, "m1"), 4);
}

#[test]
fn an_unchanged_group_keeps_everything() {
    let spec = group(
        vec![sub("0", 7, true), sub("1", 5, false), sub("2", 3, true)],
        vec![
            member("a", "p1"),
            member("b", "p1"),
            member("c", "p2"),
            member("d", "p3"),
        ],
    );
    let cfg = config(1);
    let first = run(STICKY, &spec, &cfg);
    let second = run(STICKY, &next_round(&spec, &first), &cfg);
    assert_eq!(first, second);
}

#[test]
fn the_same_input_in_any_order_gives_the_same_output() {
    let spec = group(
        vec![sub("a", 5, true), sub("b", 6, false)],
        vec![member("x", "p1"), member("y", "p2"), member("z", "p1")],
    );
    let mut shuffled: GroupSpec = spec.clone();
    shuffled.members.reverse();
    shuffled.subtopologies.reverse();
    let cfg = config(1);
    assert_eq!(run(STICKY, &spec, &cfg), run(STICKY, &shuffled, &cfg));
}

/// Seed, "Topology updates": 3 members, T1-T9, a rolling bounce to topology epoch 1.
#[test]
fn rolling_bounce_to_a_new_topology_epoch() {
    let t = |ps: &[i32]| -> TaskSet { ps.iter().map(|&p| ("0", p - 1)).collect() };
    let cfg = AssignmentConfig::default();
    let subs = vec![sub("0", 9, false)];
    let at = |id: &str, epoch: i32, owned: TaskSet| {
        let mut m = member(id, id);
        m.topology_epoch = epoch;
        m.active = owned;
        m
    };
    // C is shut down: A and B (epoch 0) share everything.
    let mut spec = group(
        subs.clone(),
        vec![at("A", 0, t(&[1, 2, 3])), at("B", 0, t(&[4, 5, 6]))],
    );
    let a = run(STICKY, &spec, &cfg);
    assert_eq!(count(&a, "A") + count(&a, "B"), 9);
    // C rejoins at topology epoch 1, which becomes the group's.
    spec = next_round(&spec, &a);
    spec.members.push(at("C", 1, TaskSet::new()));
    spec.topology_epoch = 1;
    let a = run(STICKY, &spec, &cfg);
    for id in ["A", "B", "C"] {
        assert_eq!(count(&a, id), 3, "balanced 3/3/3");
    }
    // B is shut down: A is stale and cannot gain, so C takes all of B's tasks.
    let before_a = a.members["A"].active.clone();
    spec = next_round(&spec, &a);
    spec.members.retain(|m| m.member_id != "B");
    let a = run(STICKY, &spec, &cfg);
    assert_eq!(a.members["A"].active, before_a);
    assert_eq!(count(&a, "C"), 6);
    // B comes back at epoch 1 and gets tasks; the end state is balanced.
    spec = next_round(&spec, &a);
    spec.members.push(at("B", 1, TaskSet::new()));
    spec.members.sort_by(|x, y| x.member_id.cmp(&y.member_id));
    let a = run(STICKY, &spec, &cfg);
    for id in ["A", "B", "C"] {
        assert_eq!(count(&a, id), 3, "balanced 3/3/3");
    }
    assert!(a.members["A"].active.is_subset(&before_a));
    // Finally A is bounced too: everyone is at epoch 1 and nothing needs to move.
    spec = next_round(&spec, &a);
    for m in &mut spec.members {
        m.topology_epoch = 1;
    }
    let b = run(STICKY, &spec, &cfg);
    assert_eq!(a, b);
}

#[test]
fn a_stale_member_alone_keeps_what_it_owns_and_nothing_else() {
    let mut m = member("old", "p");
    m.topology_epoch = 0;
    m.active = tasks(&[("0", 0), ("0", 5)]);
    let mut spec = group(vec![sub("0", 6, false)], vec![m]);
    spec.topology_epoch = 1;
    let a = run(STICKY, &spec, &config(0));
    assert_eq!(a.members["old"].active, tasks(&[("0", 0), ("0", 5)]));
}

#[test]
fn tasks_outside_the_topology_are_dropped() {
    let mut m = member("m", "p");
    m.active = tasks(&[("0", 7), ("gone", 0)]);
    let spec = group(vec![sub("0", 2, false)], vec![m]);
    let a = run(STICKY, &spec, &config(0));
    assert_eq!(a.members["m"].active, tasks(&[("0", 0), ("0", 1)]));
}

#[test]
fn an_empty_group_and_an_empty_topology_are_fine() {
    let spec = group(vec![sub("0", 3, true)], vec![]);
    assert!(run(STICKY, &spec, &config(1)).members.is_empty());
    let spec = group(vec![], vec![member("m", "p")]);
    let a = run(STICKY, &spec, &config(1));
    assert!(a.members["m"].active.is_empty());
}

/// `owners` members `m00`.. (one per process) own the assignment `sticky` made for
/// them alone, then members up to `all` join with nothing: the group before and its
/// assignment, the group after and its assignment.
fn scale_out(
    subs: Vec<streams_rebalance::assignor::SubtopologySpec>,
    owners: u32,
    all: u32,
    cfg: &AssignmentConfig,
) -> (GroupAssignment, GroupSpec, GroupAssignment) {
    let name = |i: u32| format!("m{i:02}");
    let small = group(
        subs,
        (0..owners).map(|i| member(&name(i), &name(i))).collect(),
    );
    let before = run(STICKY, &small, cfg);
    let mut spec = next_round(&small, &before);
    spec.members
        .extend((owners..all).map(|i| member(&name(i), &name(i))));
    let after = run(STICKY, &spec, cfg);
    (before, spec, after)
}

/// Many instances joining a few that own everything at once (a group scaled out, the
/// playground's join storm): every subtopology's standbys end as even as its actives,
/// and the owners give up only what balance requires.
#[test]
fn a_scale_out_spreads_each_subtopologys_standbys() {
    let subs = (0..20)
        .map(|i| sub(&format!("{i:02}"), 10, i % 2 == 0))
        .collect();
    let (before, spec, a) = scale_out(subs, 3, 30, &config(1));
    let q = quality_of(&spec, &a);
    assert_eq!(q.standby_tasks, 100);
    assert_eq!(q.standby_subtopology_spread.max, 1, "{q:?}");
    assert_eq!(q.subtopology_spread.max, 1, "{q:?}");
    assert!(q.total_balance.spread <= 1, "{q:?}");
    assert_eq!(q.active_tasks_moved, q.active_tasks_moved_minimum);
    // The owners' standbys are of tasks they ran (warm), as many as their room holds.
    for owner in ["m00", "m01", "m02"] {
        let (now, then) = (&a.members[owner], &before.members[owner]);
        assert!(now.standby.is_subset(&then.active), "{owner}");
        assert_eq!(now.active.len() + now.standby.len(), 10);
    }
}

/// The deal gives a new member the same partition of every subtopology; dealing the
/// standbys the same way would put all of its stateful actives' standbys on one
/// other member (fan-out 1: when it fails, one member restores everything it ran,
/// or most of it restarts cold). 10 owners, 90 join, 10 subtopologies of 100.
#[test]
fn a_scale_out_does_not_mirror_the_actives_in_the_standbys() {
    let subs = (0..10)
        .map(|i| sub(&i.to_string(), 100, i % 2 == 0))
        .collect();
    let (_, spec, a) = scale_out(subs, 10, 100, &config(1));
    let q = quality_of(&spec, &a);
    assert_eq!(q.standby_tasks, 500);
    assert_eq!(q.subtopology_spread.max, 0, "{q:?}");
    assert_eq!(q.standby_subtopology_spread.max, 0, "{q:?}");
    // Every member runs one task of each of the 5 stateful subtopologies: their
    // standbys are on 5 different members.
    assert_eq!(q.standby_fan_out.min, 5, "{q:?}");
}
