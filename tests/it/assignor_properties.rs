//! Properties of both assignors over random groups (proptest): validity, balance,
//! stickiness, determinism, topology epochs and the warm-up budget.
#![cfg(not(target_arch = "wasm32"))]

use crate::assign_support;

use assign_support::*;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeMap;
use streams_rebalance::assignor::quality::quality;
use streams_rebalance::assignor::{
    by_name, AssignmentConfig, GroupSpec, MemberSpec, OwnedLists, SubtopologySpec,
};
use streams_rebalance::task::{TaskId, TaskSet};

const BOTH: [&str; 2] = ["sticky", "highly_available"];

/// A random topology, members spread over processes, some at a stale topology epoch,
/// random previous tasks (overlapping, out of range, in several roles) and offsets.
fn arb_group(allow_stale: bool) -> impl Strategy<Value = GroupSpec> {
    let subs = prop::collection::vec((0u32..9, any::<bool>()), 1..4);
    let members = prop::collection::vec(
        (
            0usize..5,
            if allow_stale { 0i32..4 } else { 0i32..1 },
            prop::collection::vec((0usize..4, 0i32..10, 0u8..4, 0i64..30_000), 0..12),
            prop::option::of(0u8..3),
        ),
        0..9,
    );
    (subs, members).prop_map(|(subs, members)| {
        let subtopologies: Vec<SubtopologySpec> = subs
            .iter()
            .enumerate()
            .map(|(i, &(n, stateful))| sub(&format!("s{i}"), n, stateful))
            .collect();
        let ids: Vec<String> = subtopologies.iter().map(|s| s.id.clone()).collect();
        let mut specs = Vec::new();
        for (i, (process, epoch, owned, zone)) in members.into_iter().enumerate() {
            let mut m: MemberSpec = member(&format!("m{i}"), &format!("p{process}"));
            // Epoch 0 is the group's; 3 in 4 members are up to date.
            m.topology_epoch = if epoch == 3 { 1 } else { 0 };
            if let Some(z) = zone {
                m.client_tags
                    .insert("zone".into(), format!("z{}", (process as u8 + z) % 3));
            }
            for (s, p, role, offset) in owned {
                let s = ids.get(s).cloned().unwrap_or_else(|| "gone".into());
                let task = TaskId::new(s.clone(), p);
                match role {
                    0 => {
                        m.active.insert(&s, p);
                    }
                    1 => {
                        m.standby.insert(&s, p);
                    }
                    2 => {
                        m.warmup.insert(&s, p);
                    }
                    _ => {}
                }
                m.task_offsets.insert(task.clone(), offset);
                m.task_end_offsets.insert(task, 20_000 + offset / 3);
            }
            specs.push(m);
        }
        // Tags belong to the process: every member of it reports the first one's.
        let mut by_process: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for m in &specs {
            by_process
                .entry(m.process_id.clone())
                .or_insert_with(|| m.client_tags.clone());
        }
        for m in &mut specs {
            m.client_tags = by_process[&m.process_id].clone();
        }
        group(subtopologies, specs)
    })
}

fn arb_config() -> impl Strategy<Value = AssignmentConfig> {
    (
        0u32..3,
        0u32..3,
        prop_oneof![Just(0i64), Just(5_000), Just(100_000)],
    )
        .prop_map(|(r, w, lag)| AssignmentConfig {
            num_standby_replicas: r,
            acceptable_recovery_lag: lag,
            max_warmup_replicas: w,
        })
}

fn fresh(spec: &GroupSpec) -> GroupSpec {
    let mut s = spec.clone();
    for m in &mut s.members {
        m.active = TaskSet::new();
        m.standby = TaskSet::new();
        m.warmup = TaskSet::new();
        m.task_offsets.clear();
        m.task_end_offsets.clear();
        m.topology_epoch = s.topology_epoch;
    }
    s
}

fn eligible_processes(spec: &GroupSpec) -> usize {
    let mut p: Vec<&str> = spec
        .members
        .iter()
        .filter(|m| m.topology_epoch == spec.topology_epoch)
        .map(|m| m.process_id.as_str())
        .collect();
    p.sort_unstable();
    p.dedup();
    p.len()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        // Saved failures sit next to this file; the default place (beside a main.rs,
        // which the one test binary has) is a directory nobody reads.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Every task active exactly once when an eligible member exists, no process holds
    /// a task twice (so standbys are never on the active's process), stale members
    /// never gain, warm-ups within the limit (all checked by `run`).
    #[test]
    fn every_assignment_is_valid(spec in arb_group(true), cfg in arb_config()) {
        for name in BOTH {
            run(name, &spec, &cfg);
        }
    }

    #[test]
    fn same_input_same_output(spec in arb_group(true), cfg in arb_config()) {
        for name in BOTH {
            let a = run(name, &spec, &cfg);
            let mut reversed = spec.clone();
            reversed.members.reverse();
            reversed.subtopologies.reverse();
            prop_assert_eq!(&a, &run(name, &reversed, &cfg));
        }
    }

    /// From scratch, active tasks end within one per member, each flavour on its own
    /// too; totals (with standbys) within one when there are enough processes.
    #[test]
    fn a_fresh_assignment_is_balanced(spec in arb_group(false), cfg in arb_config()) {
        let spec = fresh(&spec);
        for name in BOTH {
            let a = run(name, &spec, &cfg);
            let q = quality(&spec, &a);
            prop_assert!(q.active_balance.spread <= 1, "{name}: {:?}", q.active_balance);
            prop_assert_eq!(q.warmups_in_flight, 0);
            for stateful in [true, false] {
                let ids: Vec<&str> = spec.subtopologies.iter()
                    .filter(|s| s.stateful == stateful).map(|s| s.id.as_str()).collect();
                let counts: Vec<usize> = a.members.values()
                    .map(|m| ids.iter().map(|id| m.active.partitions(id).map_or(0, |p| p.len())).sum())
                    .collect();
                let (lo, hi) = (counts.iter().min(), counts.iter().max());
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    prop_assert!(hi - lo <= 1, "{name}: stateful={stateful} {counts:?}");
                }
            }
            let one_member_each = eligible_processes(&spec) == spec.members.len();
            // With client tags, highly_available ranks tag diversity above load.
            let tags = name == "highly_available" && spec.members.iter().any(|m| !m.client_tags.is_empty());
            if one_member_each && !tags && (cfg.num_standby_replicas as usize) < spec.members.len() {
                // Every replica placed: totals are level too.
                prop_assert!(q.total_balance.spread <= 1, "{name}: {:?}", q.total_balance);
            }
        }
    }

    /// With enough processes every stateful task gets all its standby replicas.
    #[test]
    fn all_standby_replicas_are_placed_when_possible(spec in arb_group(false), r in 1u32..3) {
        let spec = fresh(&spec);
        let cfg = config(r);
        if (r as usize) < eligible_processes(&spec) {
            for name in BOTH {
                let a = run(name, &spec, &cfg);
                let q = quality(&spec, &a);
                prop_assert_eq!(q.standby_tasks, q.stateful_tasks * r as usize, "{}", name);
            }
        }
    }

    /// Feeding an assignment back unchanged moves nothing: an assignment made from
    /// scratch is a fixpoint, and from any previous state one round reaches one.
    #[test]
    fn an_unchanged_group_keeps_every_task(spec in arb_group(true), cfg in arb_config()) {
        for name in BOTH {
            let first = run(name, &spec, &cfg);
            let round_two = next_round(&spec, &first);
            let second = run(name, &round_two, &cfg);
            let third = run(name, &next_round(&spec, &second), &cfg);
            // With client tags, tag diversity and quotas may settle over one more
            // round; without them the second round is already the fixpoint: exactly
            // when totals can be level, for the actives otherwise (standbys must avoid
            // their active's process, and may still be rebalanced, as below).
            if spec.members.iter().all(|m| m.client_tags.is_empty()) || name == "sticky" {
                if quality(&round_two, &second).total_balance.spread <= 1 {
                    prop_assert_eq!(&second, &third, "{}", name);
                } else {
                    for (id, a) in &second.members {
                        prop_assert_eq!(&a.active, &third.members[id].active, "{}", name);
                    }
                }
            }
            if spec.members.iter().all(|m| m.client_tags.is_empty()) || name == "sticky" {
                let start = fresh(&spec);
                let first = run(name, &start, &cfg);
                let second = run(name, &next_round(&start, &first), &cfg);
                if quality(&start, &first).total_balance.spread <= 1 {
                    prop_assert_eq!(&first, &second, "{}", name);
                } else {
                    // Processes too uneven for level totals (standbys must avoid their
                    // active's process): actives stay, standbys may be rebalanced.
                    for (id, a) in &first.members {
                        prop_assert_eq!(&a.active, &second.members[id].active);
                    }
                }
            }
        }
    }

    /// Sticky: previous owners keep what their quota allows; with a balanced previous
    /// assignment from this assignor and one member more, only the newcomer gains.
    /// (With both flavours, balancing each flavour on its own may shift a few more.)
    #[test]
    fn a_joining_member_only_takes_its_share(spec in arb_group(false), cfg in arb_config(), stateful in any::<bool>()) {
        let mut spec = fresh(&spec);
        for s in &mut spec.subtopologies {
            s.stateful = stateful;
        }
        let first = run("sticky", &spec, &cfg);
        let mut next = next_round(&spec, &first);
        next.members.push(member("zz-new", "zz-new"));
        let second = run("sticky", &next, &cfg);
        let q = quality(&next, &second);
        prop_assert!(q.active_balance.spread <= 1);
        for m in &spec.members {
            prop_assert!(second.members[&m.member_id].active.is_subset(&first.members[&m.member_id].active));
        }
        prop_assert_eq!(q.active_tasks_moved + q.active_tasks_new, second.members["zz-new"].active.len());
    }

    /// Highly available: a stateful task changes owner only towards a process that is
    /// caught up on it (or stays in the owner's process); otherwise only a warm-up moves.
    #[test]
    fn tasks_move_only_to_caught_up_processes(spec in arb_group(false), cfg in arb_config()) {
        let a = run("highly_available", &spec, &cfg);
        let stateful: Vec<&str> = spec.subtopologies.iter().filter(|s| s.stateful).map(|s| s.id.as_str()).collect();
        let mut ends: BTreeMap<TaskId, i64> = BTreeMap::new();
        for m in &spec.members {
            for (t, e) in &m.task_end_offsets {
                let v = ends.entry(t.clone()).or_insert(*e);
                *v = (*v).max(*e);
            }
        }
        let process_of: BTreeMap<&str, &str> = spec.members.iter().map(|m| (m.member_id.as_str(), m.process_id.as_str())).collect();
        for (id, got) in &a.members {
            for (s, p) in got.active.iter() {
                if !stateful.contains(&s) {
                    continue;
                }
                let prev = spec.members.iter().find(|m| m.active.contains(s, p));
                let Some(prev) = prev else { continue };
                if &prev.member_id == id || prev.process_id == process_of[id.as_str()] {
                    continue;
                }
                // The first claimant in id order is the recognised previous owner.
                let owner = spec.members.iter().filter(|m| m.active.contains(s, p)).map(|m| m.member_id.as_str()).min();
                if owner == Some(id.as_str()) { continue; }
                let task = TaskId::new(s, p);
                let caught_up = spec.members.iter()
                    .filter(|m| m.process_id == process_of[id.as_str()])
                    .any(|m| match (m.task_offsets.get(&task), ends.get(&task)) {
                        (Some(&o), Some(&e)) => (if o > e { e } else { e - o }) <= cfg.acceptable_recovery_lag,
                        _ => false,
                    });
                prop_assert!(caught_up, "{s}_{p} moved to lagging {id}");
            }
        }
    }
}

/// The spec's owned tasks as packed lists (the wasm build's way into `assign()`), and
/// the spec with its sets emptied. Rows in reverse order; with `scramble`, each list's
/// entries reversed and its first entry given twice (as an input may). Unknown ids
/// and partitions out of range stay in, for the index to drop.
fn as_lists(spec: &GroupSpec, scramble: bool) -> (GroupSpec, OwnedLists) {
    /// Per role, (id index, partitions) per entry.
    type Row = [Vec<(usize, Vec<i32>)>; 3];
    let mut ids: Vec<String> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    for m in spec.members.iter().rev() {
        rows.push([&m.active, &m.standby, &m.warmup].map(|set| {
            let mut entries: Vec<(usize, Vec<i32>)> = set
                .subtopologies()
                .map(|(s, ps)| {
                    let id = ids.iter().position(|x| x == s).unwrap_or_else(|| {
                        ids.push(s.to_owned());
                        ids.len() - 1
                    });
                    (id, ps.to_vec())
                })
                .collect();
            if scramble {
                entries.reverse();
                if let Some(first) = entries.first().cloned() {
                    entries.push(first);
                }
            }
            entries
        }));
    }
    // Each list's entries read in order, as the binding reads the packed layout.
    let n = rows.len();
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let subtopologies = spec
        .subtopologies
        .iter()
        .map(|s| (s.id.as_str(), s.num_tasks));
    let mut lists = OwnedLists::new(&names, subtopologies, n);
    for list in rows.iter().flatten() {
        for (id, ps) in list {
            lists.push_entry(*id, ps);
        }
        lists.close_list(true);
    }
    lists.set_rows((0..n).rev());
    let mut bare = spec.clone();
    for m in &mut bare.members {
        m.active = TaskSet::new();
        m.standby = TaskSet::new();
        m.warmup = TaskSet::new();
    }
    (bare, lists)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        // Saved failures sit next to this file; the default place (beside a main.rs,
        // which the one test binary has) is a directory nobody reads.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// The packed lists that `assign()` in the wasm build hands to the assignors give
    /// the assignment the members' task sets give, whatever their order and repeats.
    #[test]
    fn owned_lists_assign_as_task_sets(spec in arb_group(true), cfg in arb_config(), scramble in any::<bool>()) {
        let (bare, lists) = as_lists(&spec, scramble);
        for name in BOTH {
            let a = by_name(name).expect("known assignor");
            prop_assert_eq!(a.assign_dense(&bare, Some(&lists), &cfg).into_assignment(), a.assign(&spec, &cfg));
        }
    }

    /// Lists numbered for another topology are not read: the spec's own sets are.
    #[test]
    fn owned_lists_of_another_topology_are_not_read(spec in arb_group(true), cfg in arb_config()) {
        let mut other = spec.clone();
        // Sorted first ("s0".. after it): every task of the spec numbered 3 higher.
        other.subtopologies.insert(0, SubtopologySpec { id: "a".to_owned(), num_tasks: 3, stateful: true });
        let (_, lists) = as_lists(&other, false);
        for name in BOTH {
            let a = by_name(name).expect("known assignor");
            prop_assert_eq!(a.assign_dense(&spec, Some(&lists), &cfg).into_assignment(), a.assign(&spec, &cfg));
        }
    }
}
