//! The quality figures of issue 11 (`assignmentQuality()`): spread per subtopology,
//! moves against the minimum, standby fan-out, standbys unfilled or on the active's
//! process, stateful tasks of departed members landing on warm standbys. Each figure
//! is checked on small assignments built by hand, where the answer is plain.

#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::*;
use streams_rebalance::assignor::quality::{quality, quality_with_config, MeanMax};
use streams_rebalance::assignor::{GroupAssignment, MemberAssignment};
use streams_rebalance::task::TaskSet;

fn result(members: &[(&str, TaskSet, TaskSet)]) -> GroupAssignment {
    GroupAssignment {
        members: members
            .iter()
            .map(|(id, active, standby)| {
                (
                    id.to_string(),
                    MemberAssignment {
                        active: active.clone(),
                        standby: standby.clone(),
                        warmup: TaskSet::new(),
                    },
                )
            })
            .collect(),
    }
}

fn none() -> TaskSet {
    TaskSet::new()
}

#[test]
fn spread_per_subtopology_tells_contiguous_from_dealt() {
    // 2 members, subtopologies a and b of 2 tasks each.
    let spec = group(
        vec![sub("a", 2, false), sub("b", 2, false)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    // Contiguous: m1 all of a, m2 all of b.
    let contiguous = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1)]), none()),
        ("m2", tasks(&[("b", 0), ("b", 1)]), none()),
    ]);
    let q = quality(&spec, &contiguous);
    assert_eq!(q.subtopology_spread, MeanMax { mean: 2.0, max: 2 });
    assert_eq!(q.subtopology_spread_above_even.max, 2);
    assert_eq!(q.active_balance.spread, 0, "balanced counts all the same");
    // Dealt: one of each per member.
    let dealt = result(&[
        ("m1", tasks(&[("a", 0), ("b", 0)]), none()),
        ("m2", tasks(&[("a", 1), ("b", 1)]), none()),
    ]);
    assert_eq!(
        quality(&spec, &dealt).subtopology_spread,
        MeanMax { mean: 0.0, max: 0 }
    );
}

#[test]
fn spread_above_even_forgives_only_an_uneven_division() {
    // 3 tasks over 2 members: one member must hold two.
    let spec = group(
        vec![sub("a", 3, false)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    let a = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1)]), none()),
        ("m2", tasks(&[("a", 2)]), none()),
    ]);
    let q = quality(&spec, &a);
    assert_eq!(q.subtopology_spread.max, 1);
    assert_eq!(q.subtopology_spread_above_even.max, 0);
    let b = result(&[("m1", tasks(&[("a", 0), ("a", 1), ("a", 2)]), none())]);
    let q = quality(&spec, &b);
    assert_eq!(q.subtopology_spread.max, 3, "m2 holds none");
    assert_eq!(q.subtopology_spread_above_even.max, 2);
}

#[test]
fn standby_spread_counts_stateful_subtopologies_only() {
    let spec = group(
        vec![sub("a", 2, true), sub("b", 2, false)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    let a = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1), ("b", 0)]), none()),
        ("m2", tasks(&[("b", 1)]), tasks(&[("a", 0), ("a", 1)])),
    ]);
    let q = quality(&spec, &a);
    assert_eq!(q.standby_subtopology_spread, MeanMax { mean: 2.0, max: 2 });
    assert_eq!(q.subtopology_spread, MeanMax { mean: 1.0, max: 2 });
}

#[test]
fn moves_are_measured_against_the_fewest_the_balance_needs() {
    // m1 owned all 4 tasks; m2 joins: at balance 0 two must move.
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("a", 0), ("a", 1), ("a", 2), ("a", 3)]);
    let spec = group(vec![sub("a", 4, false)], vec![m1, member("m2", "p2")]);
    let two = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1)]), none()),
        ("m2", tasks(&[("a", 2), ("a", 3)]), none()),
    ]);
    let q = quality(&spec, &two);
    assert_eq!((q.active_tasks_moved, q.active_tasks_moved_minimum), (2, 2));
    // A 3/1 split is less balanced (spread 2): the minimum at that balance is 1.
    let one = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1), ("a", 2)]), none()),
        ("m2", tasks(&[("a", 3)]), none()),
    ]);
    let q = quality(&spec, &one);
    assert_eq!((q.active_tasks_moved, q.active_tasks_moved_minimum), (1, 1));
    // Swapping two balanced members' tasks moves all of them, where none needs to.
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("a", 0), ("a", 1)]);
    let mut m2 = member("m2", "p2");
    m2.active = tasks(&[("a", 2), ("a", 3)]);
    let spec = group(vec![sub("a", 4, false)], vec![m1, m2]);
    let swapped = result(&[
        ("m1", tasks(&[("a", 2), ("a", 3)]), none()),
        ("m2", tasks(&[("a", 0), ("a", 1)]), none()),
    ]);
    let q = quality(&spec, &swapped);
    assert_eq!((q.active_tasks_moved, q.active_tasks_moved_minimum), (4, 0));
}

#[test]
fn fan_out_counts_distinct_standby_holders_per_member() {
    let spec = group(
        vec![sub("a", 4, true)],
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    // m1 runs a0, a1: standbys on m2 and m3 (fan-out 2); m2 runs a2, a3: both on m3.
    let a = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1)]), none()),
        ("m2", tasks(&[("a", 2), ("a", 3)]), tasks(&[("a", 0)])),
        ("m3", none(), tasks(&[("a", 1), ("a", 2), ("a", 3)])),
    ]);
    let q = quality(&spec, &a);
    assert_eq!(q.standby_fan_out.min, 1);
    assert_eq!(q.standby_fan_out.max, 2);
    assert_eq!(q.standby_fan_out.mean, 1.5);
}

#[test]
fn standbys_unfilled_need_the_config_and_count_per_process() {
    let spec = group(
        vec![sub("a", 2, true)],
        vec![member("m1", "p1"), member("m2", "p2"), member("m3", "p3")],
    );
    let a = result(&[
        ("m1", tasks(&[("a", 0), ("a", 1)]), none()),
        ("m2", none(), tasks(&[("a", 0)])),
        ("m3", none(), none()),
    ]);
    assert_eq!(quality(&spec, &a).standbys_unfilled, None);
    // Two replicas wanted (3 processes allow 2) for each of 2 tasks; 1 placed.
    let q = quality_with_config(&spec, &a, Some(&config(2)));
    assert_eq!(q.standbys_unfilled, Some(3));
    // Five replicas are capped by the processes too.
    let q = quality_with_config(&spec, &a, Some(&config(5)));
    assert_eq!(q.standbys_unfilled, Some(3));
    assert_eq!(
        quality_with_config(&spec, &a, Some(&config(0))).standbys_unfilled,
        Some(0)
    );
}

#[test]
fn a_standby_on_the_active_process_is_counted() {
    let spec = group(
        vec![sub("a", 1, true)],
        vec![member("m1", "p1"), member("m2", "p1")],
    );
    let a = result(&[
        ("m1", tasks(&[("a", 0)]), none()),
        ("m2", none(), tasks(&[("a", 0)])),
    ]);
    let q = quality(&spec, &a);
    assert_eq!(q.standbys_on_active_process, 1);
    assert_eq!(q.process_duplicates, 1);
}

#[test]
fn orphaned_stateful_tasks_landing_on_warm_standbys() {
    // The owner of a0 and a1 left; m2 held a standby of a0, m3 of nothing.
    let mut m1 = member("m1", "p1");
    m1.active = tasks(&[("a", 2)]);
    let mut m2 = member("m2", "p2");
    m2.standby = tasks(&[("a", 0)]);
    let spec = group(
        vec![sub("a", 3, true), sub("b", 1, false)],
        vec![m1, m2, member("m3", "p3")],
    );
    let a = result(&[
        ("m1", tasks(&[("a", 2)]), none()),
        ("m2", tasks(&[("a", 0)]), none()),
        ("m3", tasks(&[("a", 1), ("b", 0)]), none()),
    ]);
    let q = quality(&spec, &a);
    assert_eq!(
        q.orphaned_stateful_to_standby.total, 2,
        "stateless b0 aside"
    );
    assert_eq!(q.orphaned_stateful_to_standby.landed, 1);
    // Nothing owned before (an initial assignment): nothing orphaned.
    let fresh = group(
        vec![sub("a", 3, true)],
        vec![member("m1", "p1"), member("m2", "p2")],
    );
    let q = quality(&fresh, &run("sticky", &fresh, &config(1)));
    assert_eq!(q.orphaned_stateful_to_standby.total, 0);
}

#[test]
fn the_sticky_output_scores_as_the_issue_asks_on_a_small_chain() {
    // 4 members x 3 subtopologies x 10 partitions (issue 11's example), then a member
    // leaves: spread within one, moves at the minimum, the leaver's stateful tasks on
    // warm standbys.
    let subs = vec![sub("0", 10, true), sub("1", 10, false), sub("2", 10, true)];
    let members: Vec<_> = (0..4)
        .map(|i| member(&format!("m{i}"), &format!("p{i}")))
        .collect();
    let spec = group(subs, members);
    let cfg = config(1);
    let first = run("sticky", &spec, &cfg);
    let q = quality_with_config(&spec, &first, Some(&cfg));
    assert_eq!(q.subtopology_spread_above_even.max, 0);
    assert_eq!(q.standbys_unfilled, Some(0));
    assert!(q.standby_fan_out.min >= 2, "{:?}", q.standby_fan_out);
    let mut next = next_round(&spec, &first);
    next.members.retain(|m| m.member_id != "m1");
    let second = run("sticky", &next, &cfg);
    let q = quality_with_config(&next, &second, Some(&cfg));
    assert_eq!(q.active_tasks_moved, q.active_tasks_moved_minimum);
    // A leaver's stateful task goes to its standby (warm) even where that member
    // already holds its share of the subtopology: one over at most.
    assert!(
        q.subtopology_spread_above_even.max <= 1,
        "{:?}",
        q.subtopology_spread
    );
    let landed = q.orphaned_stateful_to_standby;
    assert_eq!(landed.landed, landed.total, "{landed:?}");
    assert!(landed.total > 0);
}

/// Members joining one at a time (a join storm without an initial rebalance delay, as
/// the playground's big scenarios run): each join moves the fewest tasks, and what the
/// members over their quota give up must be a cross-section of the subtopologies, or
/// the new members receive many of one and the spread drifts join after join (it
/// reached 4.50 / 6 at 139 members here before the members' choices were coordinated;
/// 1.25 / 2 at worst since). highly_available is left out: it moves a stateful task
/// only to a caught-up member, so without reported offsets a new member gets warm-ups.
#[test]
fn a_chain_of_joins_keeps_every_subtopology_spread() {
    let subs = (0..4)
        .map(|i| sub(&format!("s{i}"), 1000, i >= 2))
        .collect();
    let mut spec = group(subs, vec![]);
    let cfg = config(0);
    let mut worst = (0.0f64, 0u32, 0usize);
    for m in 1..=150 {
        spec.members
            .push(member(&format!("m{m:04}"), &format!("p{}", m / 2)));
        let a = run("sticky", &spec, &cfg);
        let q = quality_with_config(&spec, &a, Some(&cfg));
        assert_eq!(
            q.active_tasks_moved, q.active_tasks_moved_minimum,
            "no more moves than needed at {m} members"
        );
        if q.subtopology_spread.max > worst.1 {
            worst = (q.subtopology_spread.mean, q.subtopology_spread.max, m);
        }
        spec = next_round(&spec, &a);
    }
    let (mean, max, at) = worst;
    assert!(max <= 2, "spread {mean:.2} / {max} at {at} members");
}

/// Standbys of every stateful subtopology stay within one of even after a tenth of
/// the members is replaced (the benchmark's "replace"): before the per-subtopology
/// repair of the standby pass, the last stateful subtopology dealt ended two apart on
/// 16 of the new members here (and on 10 000 x 100 000, where Kafka's is even).
#[test]
fn standbys_stay_spread_per_subtopology_when_a_tenth_is_replaced() {
    let subs = (0..20)
        .map(|i| sub(&format!("topic-{i}_subtopology"), 500, i % 2 == 0))
        .collect();
    let members = (0..1000)
        .map(|i| member(&format!("member-{i}"), &format!("process-{i}")))
        .collect();
    let spec = group(subs, members);
    let cfg = config(1);
    let first = run("sticky", &spec, &cfg);
    let mut next = next_round(&spec, &first);
    for m in &mut next.members {
        let j: usize = m.member_id["member-".len()..].parse().unwrap_or(0);
        if j % 10 == 3 {
            *m = member(&format!("fresh-{j}"), &format!("process-fresh-{j}"));
        }
    }
    next.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    let a = run("sticky", &next, &cfg);
    let q = quality_with_config(&next, &a, Some(&cfg));
    assert_eq!(
        q.standby_subtopology_spread.max, 1,
        "{:?}",
        q.standby_subtopology_spread
    );
    assert_eq!(q.standbys_unfilled, Some(0));
    assert_eq!(q.active_tasks_moved, q.active_tasks_moved_minimum);
}
