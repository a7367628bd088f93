//! Behaviours of the `highly_available` assignor, ported from the scenarios of Kafka
//! Streams' `HighAvailabilityTaskAssignorTest` and `ClientTagAwareStandbyTaskAssignorTest`
//! (expected properties, our own code), run on the broker as PROTOCOL.md §6 says.
#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::*;
use streams_rebalance::assignor::quality::quality;
use streams_rebalance::assignor::{
    warmup_caught_up, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec,
};
use streams_rebalance::task::TaskId;

const HA: &str = "highly_available";

fn cfg(standbys: u32, warmups: u32, lag: i64) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: standbys,
        acceptable_recovery_lag: lag,
        max_warmup_replicas: warmups,
    }
}

fn report(m: &mut MemberSpec, task: (&str, i32), offset: i64, end: i64) {
    m.task_offsets.insert(TaskId::new(task.0, task.1), offset);
    m.task_end_offsets.insert(TaskId::new(task.0, task.1), end);
}

/// m1 runs all four stateful tasks; m2 joins with no state.
fn one_owner_and_a_newcomer() -> GroupSpec {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 1), ("0", 2), ("0", 3)]);
    for p in 0..4 {
        report(&mut m1, ("0", p), 1000, 1000);
    }
    group(vec![sub("0", 4, true)], vec![m1, member("m2", "p2")])
}

#[test]
fn a_lagging_newcomer_only_warms_up_while_the_owner_keeps_running() {
    let spec = one_owner_and_a_newcomer();
    let a = run(HA, &spec, &cfg(0, 2, 100));
    assert_eq!(count(&a, "m1"), 4, "actives stay with the caught-up owner");
    assert_eq!(a.members["m2"].warmup.len(), 2, "two warm-ups, the limit");
    assert!(a.members["m2"].active.is_empty());
    // Sticky, by contrast, moves the tasks at once.
    let s = run("sticky", &spec, &cfg(0, 2, 100));
    assert_eq!(count(&s, "m2"), 2);
}

#[test]
fn never_more_warmups_than_the_limit() {
    let spec = one_owner_and_a_newcomer();
    for limit in 0..4 {
        let a = run(HA, &spec, &cfg(0, limit, 100));
        assert_eq!(quality(&spec, &a).warmups_in_flight, limit.min(2) as usize);
    }
}

#[test]
fn an_unbounded_acceptable_lag_moves_tasks_without_warmups() {
    let spec = one_owner_and_a_newcomer();
    let a = run(HA, &spec, &cfg(0, 2, i64::MAX));
    assert_eq!(count(&a, "m2"), 2);
    assert_eq!(quality(&spec, &a).warmups_in_flight, 0);
}

#[test]
fn a_caught_up_newcomer_takes_its_share_at_once() {
    let mut spec = one_owner_and_a_newcomer();
    let m2 = spec
        .members
        .iter_mut()
        .find(|m| m.member_id == "m2")
        .unwrap();
    for p in 0..4 {
        report(m2, ("0", p), 950, 1000);
    }
    let a = run(HA, &spec, &cfg(0, 2, 100));
    assert_eq!(count(&a, "m2"), 2);
    assert_eq!(quality(&spec, &a).warmups_in_flight, 0);
}

#[test]
fn a_caught_up_warmup_triggers_the_probing_rebalance_and_the_task_moves() {
    let config = cfg(0, 1, 100);
    let mut spec = one_owner_and_a_newcomer();
    let first = run(HA, &spec, &config);
    let warm: Vec<TaskId> = first.members["m2"].warmup.tasks().collect();
    assert_eq!(warm.len(), 1);
    spec = next_round(&spec, &first);
    assert!(!warmup_caught_up(&spec, &config), "no offsets reported yet");
    // The same assignment again while the warm-up restores: nothing changes.
    assert_eq!(run(HA, &spec, &config), first);
    // The warm-up reports it is within the acceptable lag.
    let m2 = spec
        .members
        .iter_mut()
        .find(|m| m.member_id == "m2")
        .unwrap();
    report(m2, (&warm[0].subtopology, warm[0].partition), 950, 1000);
    assert!(warmup_caught_up(&spec, &config));
    let second = run(HA, &spec, &config);
    assert!(
        second.members["m2"].active.contains_task(&warm[0]),
        "the task moved"
    );
    assert!(!second.members["m1"].active.contains_task(&warm[0]));
    assert!(!second.members["m2"].warmup.contains_task(&warm[0]));
    // The next task to move is warming up now.
    assert_eq!(quality(&spec, &second).warmups_in_flight, 1);
}

#[test]
fn warmups_converge_to_the_balanced_assignment() {
    let config = cfg(1, 1, 100);
    let mut spec = one_owner_and_a_newcomer();
    spec.members.push(member("m3", "p3"));
    let mut rounds = 0;
    loop {
        let a = run(HA, &spec, &config);
        let q = quality(&spec, &a);
        spec = next_round(&spec, &a);
        if q.warmups_in_flight == 0 && q.active_balance.spread <= 1 {
            break;
        }
        // Every warm-up restores fully before the next rebalance.
        for m in &mut spec.members {
            let warm: Vec<TaskId> = m.warmup.tasks().chain(m.standby.tasks()).collect();
            for t in warm {
                report(m, (&t.subtopology, t.partition), 1000, 1000);
            }
        }
        rounds += 1;
        assert!(rounds < 10, "does not converge");
    }
    // Converged: the next round moves nothing.
    let a = run(HA, &spec, &config);
    assert!(quality(&spec, &a).active_balance.spread <= 1);
    assert_eq!(quality(&spec, &a).active_tasks_moved, 0);
}

#[test]
fn an_orphaned_task_goes_to_the_most_caught_up_member() {
    // The owner left; m2's standby is within the lag, m3 has far older state.
    let mut m2 = member("m2", "p2");
    m2.standby = tasks(&[("0", 0)]);
    report(&mut m2, ("0", 0), 990, 1000);
    let mut m3 = member("m3", "p3");
    report(&mut m3, ("0", 0), 10, 1000);
    let spec = group(vec![sub("0", 1, true)], vec![m2, m3]);
    let a = run(HA, &spec, &cfg(1, 2, 100));
    assert_eq!(count(&a, "m2"), 1);
    assert!(a.members["m3"].standby.contains("0", 0));
}

#[test]
fn stateless_tasks_move_freely_and_get_no_warmups() {
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("0", 0), ("0", 1), ("0", 2), ("0", 3)]);
    let spec = group(vec![sub("0", 4, false)], vec![m1, member("m2", "p2")]);
    let a = run(HA, &spec, &cfg(1, 2, 100));
    assert_eq!(count(&a, "m2"), 2);
    let q = quality(&spec, &a);
    assert_eq!((q.warmups_in_flight, q.standby_tasks), (0, 0));
}

#[test]
fn a_stale_member_gets_no_warmup() {
    let mut spec = one_owner_and_a_newcomer();
    spec.topology_epoch = 1;
    for m in &mut spec.members {
        m.topology_epoch = if m.member_id == "m1" { 1 } else { 0 };
    }
    let a = run(HA, &spec, &cfg(1, 2, 100));
    assert!(a.members["m2"].warmup.is_empty() && a.members["m2"].standby.is_empty());
    assert_eq!(count(&a, "m1"), 4);
}

fn zoned(id: &str, process: &str, tags: &[(&str, &str)]) -> MemberSpec {
    let mut m = member(id, process);
    for (k, v) in tags {
        m.client_tags.insert((*k).into(), (*v).into());
    }
    m
}

fn zones_of(
    spec: &GroupSpec,
    a: &streams_rebalance::assignor::GroupAssignment,
    key: &str,
    t: (&str, i32),
) -> Vec<String> {
    let mut out = Vec::new();
    for m in &spec.members {
        let got = &a.members[&m.member_id];
        if got.active.contains(t.0, t.1) || got.standby.contains(t.0, t.1) {
            out.push(m.client_tags.get(key).cloned().unwrap_or_default());
        }
    }
    out.sort();
    out
}

#[test]
fn standbys_go_to_other_zones() {
    // Six processes over three zones; two standbys: every task in all three zones.
    let members: Vec<MemberSpec> = (0..6)
        .map(|i| {
            zoned(
                &format!("m{i}"),
                &format!("p{i}"),
                &[("zone", ["a", "b", "c"][i % 3])],
            )
        })
        .collect();
    let spec = group(vec![sub("0", 6, true)], members);
    let a = run(HA, &spec, &cfg(2, 2, 100));
    for p in 0..6 {
        assert_eq!(
            zones_of(&spec, &a, "zone", ("0", p)),
            vec!["a", "b", "c"],
            "task 0_{p}"
        );
    }
    assert_eq!(quality(&spec, &a).tasks_with_distinct_tag_values, Some(6));
}

#[test]
fn standbys_spread_even_when_the_actives_share_a_zone() {
    // All actives sit in zone a (the only members there own them); standbys leave it.
    let mut m0 = zoned("m0", "p0", &[("zone", "a")]);
    m0.active = tasks(&[("0", 0), ("0", 1)]);
    let mut m1 = zoned("m1", "p1", &[("zone", "a")]);
    m1.active = tasks(&[("0", 2), ("0", 3)]);
    let spec = group(
        vec![sub("0", 4, true)],
        vec![
            m0,
            m1,
            zoned("m2", "p2", &[("zone", "b")]),
            zoned("m3", "p3", &[("zone", "b")]),
        ],
    );
    let a = run(HA, &spec, &cfg(1, 0, 100));
    for p in 0..4 {
        let zones = zones_of(&spec, &a, "zone", ("0", p));
        assert_eq!(zones.len(), 2);
        assert_ne!(zones[0], zones[1], "task 0_{p} has both copies in one zone");
    }
}

#[test]
fn an_exhausted_tag_stops_constraining() {
    // Two zones, two standbys: the second standby cannot find a third zone and still
    // goes to a third process.
    let members: Vec<MemberSpec> = (0..4)
        .map(|i| {
            zoned(
                &format!("m{i}"),
                &format!("p{i}"),
                &[("zone", ["a", "b"][i % 2])],
            )
        })
        .collect();
    let spec = group(vec![sub("0", 4, true)], members);
    let a = run(HA, &spec, &cfg(2, 0, 100));
    let q = quality(&spec, &a);
    assert_eq!(q.standby_tasks, 8);
    for p in 0..4 {
        let zones = zones_of(&spec, &a, "zone", ("0", p));
        assert!(zones.contains(&"a".to_string()) && zones.contains(&"b".to_string()));
    }
}

#[test]
fn every_tag_key_counts_and_equal_values_of_different_keys_do_not_clash() {
    // Keys zone and cluster, with overlapping value names: a standby differs from
    // the active in both keys where a process allows it.
    let spec = group(
        vec![sub("0", 2, true)],
        vec![
            zoned("m0", "p0", &[("zone", "x"), ("cluster", "x")]),
            zoned("m1", "p1", &[("zone", "x"), ("cluster", "y")]),
            zoned("m2", "p2", &[("zone", "y"), ("cluster", "x")]),
            zoned("m3", "p3", &[("zone", "y"), ("cluster", "y")]),
        ],
    );
    let a = run(HA, &spec, &cfg(1, 0, 100));
    assert_eq!(quality(&spec, &a).tasks_with_distinct_tag_values, Some(2));
}

/// Three rounds, each fed the previous output: the second and third are the same (an
/// unchanged group settles after one round). Returns the first and second.
fn settles(spec: &GroupSpec, config: &AssignmentConfig) -> (GroupAssignment, GroupAssignment) {
    let first = run(HA, spec, config);
    let second = run(HA, &next_round(spec, &first), config);
    let third = run(HA, &next_round(spec, &second), config);
    assert_eq!(second, third, "the group keeps changing");
    (first, second)
}

fn stale(id: &str, process: &str) -> MemberSpec {
    let mut m = member(id, process);
    m.topology_epoch = 1;
    m
}

/// From proptest cases (their seeds are in `assignor_properties.proptest-regressions`):
/// a warm-up in flight on a member does not cost it a standby it holds (its own
/// warm-up is no standby claim).
#[test]
fn a_warmup_in_flight_does_not_push_out_a_kept_standby() {
    let mut m3 = member("m3", "p3");
    m3.active = tasks(&[("s0", 2)]);
    report(&mut m3, ("s0", 2), 0, 20_000);
    let mut m5 = member("m5", "p1");
    m5.active = tasks(&[("s0", 0)]);
    m5.standby = tasks(&[("s1", 0)]);
    report(&mut m5, ("s0", 0), 0, 20_000);
    report(&mut m5, ("s1", 0), 22_499, 27_499);
    let mut m6 = member("m6", "p0");
    m6.active = tasks(&[("s0", 0), ("s0", 1), ("s0", 2)]);
    for p in 0..3 {
        report(&mut m6, ("s0", p), 0, 20_000);
    }
    let spec = group(
        vec![sub("s0", 3, true), sub("s1", 2, true), sub("s2", 3, false)],
        vec![
            member("m0", "p4"),
            member("m1", "p4"),
            member("m2", "p2"),
            m3,
            member("m4", "p0"),
            m5,
            m6,
            member("m7", "p1"),
        ],
    );
    let (_, second) = settles(&spec, &cfg(1, 1, 5_000));
    assert_eq!(second.members["m0"].warmup.len(), 1, "a warm-up in flight");
    assert_eq!(
        second.members["m0"].standby.len(),
        1,
        "and a standby beside it"
    );
}

/// A warm-up in flight keeps its target: the task's standby holder does not become the
/// target instead (which moved the warm-up to it, and the standby to the old target).
#[test]
fn a_warmup_in_flight_keeps_its_target() {
    let mut m0 = stale("m0", "p0");
    m0.standby = tasks(&[("s0", 0)]);
    report(&mut m0, ("s0", 0), 0, 20_000);
    let spec = group(
        vec![sub("s0", 3, true)],
        vec![
            m0,
            member("m1", "p1"),
            member("m2", "p4"),
            member("m3", "p4"),
            member("m4", "p0"),
        ],
    );
    let (_, second) = settles(&spec, &cfg(1, 1, 100_000));
    let warming: Vec<&String> = second
        .members
        .iter()
        .filter(|(_, a)| !a.warmup.is_empty())
        .map(|(id, _)| id)
        .collect();
    assert_eq!(warming.len(), 1, "one warm-up, the limit");
}

/// Where the members' totals cannot be level, a previous standby holder at the level
/// keeps its standby rather than it moving to the member the process balance picked
/// for the one place above the level (that moved it on every other round).
#[test]
fn a_previous_holder_keeps_its_standby_over_the_place_above_the_level() {
    let mut m0 = stale("m0", "p0");
    m0.standby = tasks(&[("s0", 1)]);
    report(&mut m0, ("s0", 1), 0, 20_000);
    let spec = group(
        vec![sub("s0", 3, true), sub("s1", 1, true)],
        vec![
            m0,
            member("m1", "p2"),
            member("m2", "p2"),
            member("m3", "p1"),
            member("m4", "p0"),
        ],
    );
    let config = cfg(1, 1, 100_000);
    let (_, second) = settles(&spec, &config);
    let standbys: usize = second.members.values().map(|a| a.standby.len()).sum();
    assert_eq!(standbys, 4, "one for each stateful task");
    assert!(
        quality(&next_round(&spec, &second), &second)
            .total_balance
            .spread
            <= 1
    );
}

/// A stateful task held back on its caught-up keeper leaves the keeper above its share:
/// stateless tasks even the counts out at once (as Kafka places stateless tasks after
/// stateful ones), so the next round has nothing to move.
#[test]
fn stateless_tasks_level_the_counts_around_a_held_back_task() {
    let mut m1 = stale("m1", "p2");
    m1.standby = tasks(&[("s2", 0), ("s2", 2)]);
    report(&mut m1, ("s2", 0), 22_499, 27_499);
    report(&mut m1, ("s2", 2), 22_499, 27_499);
    let mut m5 = member("m5", "p2");
    m5.active = tasks(&[("s1", 0), ("s1", 4)]);
    let mut m6 = stale("m6", "p0");
    m6.active = tasks(&[("s2", 1)]);
    report(&mut m6, ("s2", 1), 0, 20_000);
    let spec = group(
        vec![sub("s0", 0, false), sub("s1", 8, false), sub("s2", 5, true)],
        vec![
            stale("m0", "p0"),
            m1,
            stale("m2", "p2"),
            member("m3", "p0"),
            member("m4", "p0"),
            m5,
            m6,
        ],
    );
    let (first, second) = settles(&spec, &cfg(0, 0, 5_000));
    for a in [&first, &second] {
        // s2 0 and 2 stay on p2, the only process caught up on them, with m5.
        assert!(a.members["m5"].active.contains("s2", 0));
        assert!(a.members["m5"].active.contains("s2", 2));
        let counts: Vec<usize> = ["m3", "m4", "m5"].iter().map(|m| count(a, m)).collect();
        assert_eq!(
            counts,
            [4, 4, 4],
            "12 tasks over the three eligible members"
        );
    }
}
