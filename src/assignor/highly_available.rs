//! `highly_available`: in the manner of Kafka Streams' HighAvailabilityTaskAssignor,
//! run by the coordinator.
//!
//! It starts from the sticky, balanced assignment. A stateful task that would move to
//! a member whose process is not caught up (lag above `acceptableRecoveryLag`) stays
//! active where it is caught up, and the intended owner gets a **warm-up** copy instead,
//! at most `maxWarmupReplicas` in the whole group (warm-ups already in flight first).
//! When a warm-up reports that it caught up (`warmup_caught_up`), the coordinator
//! computes a new target and the task moves (Kafka's probing rebalance). With
//! `maxWarmupReplicas` 0 such a task never moves to a lagging member. Standbys are
//! spread over distinct client-tag values where the tags allow.

use super::dense::DenseAssignment;
use super::index::{Index, NONE};
use super::lag::CaughtUp;
use super::owned::OwnedLists;
use super::placement::Placement;
use super::tags::TagPlacement;
use super::{AssignmentConfig, GroupSpec, TaskAssignor};
use std::collections::BTreeSet;

pub struct HighlyAvailableAssignor;

impl TaskAssignor for HighlyAvailableAssignor {
    fn name(&self) -> &'static str {
        "highly_available"
    }

    fn assign_dense<'a>(
        &self,
        spec: &'a GroupSpec,
        owned: Option<&OwnedLists>,
        config: &AssignmentConfig,
    ) -> DenseAssignment<'a> {
        let ix = Index::new(spec, owned);
        let mut placement = Placement::new(&ix, config);
        placement.assign_actives();
        // Moves to lagging members are held back; the intended owner wants a warm-up.
        // Only the stateful tasks whose target differs from their owner are checked,
        // so only their end offsets are looked up.
        // A task nobody owned that nobody reported offsets for stays where it goes:
        // no process is caught up on it (such members would be its candidates).
        let moving: Vec<u32> = (0..ix.num_tasks)
            .filter(|&t| {
                let target = placement.active_owner[t as usize];
                let owner = ix.prev_active[t as usize];
                ix.task_stateful[t as usize]
                    && target != NONE
                    && target != owner
                    && (owner != NONE || !ix.candidates(t).is_empty())
            })
            .collect();
        let caught_up = CaughtUp::new(&ix, config.acceptable_recovery_lag, &moving);
        let mut wanted: Vec<(u32, u32)> = Vec::new();
        for &t in &moving {
            let target = placement.active_owner[t as usize];
            let owner = ix.prev_active[t as usize];
            if caught_up.is(&ix, t, ix.process_of[target as usize]) {
                continue;
            }
            let keeper = if owner != NONE {
                Some(owner)
            } else {
                // The owner is gone: a caught-up member elsewhere runs it meanwhile.
                caught_up
                    .processes_without_owner(&ix, t)
                    .into_iter()
                    .flat_map(|p| ix.process_members(p as usize).iter().copied())
                    .filter(|&m| ix.eligible[m as usize])
                    .min_by_key(|&m| (placement.active_count[m as usize], m))
            };
            if let Some(keeper) = keeper {
                placement.move_active(t, keeper);
                wanted.push((target, t));
            }
        }
        if !wanted.is_empty() {
            level_stateless(&mut placement);
        }

        // Warm-ups in flight keep going; new ones in task order, within the budget.
        let in_flight = |m: u32, t: u32| ix.prev_warmup_of(m as usize).binary_search(&t).is_ok();
        wanted.sort_by_key(|&(m, t)| (!in_flight(m, t), t, m));
        let mut budget = config.max_warmup_replicas as usize;
        for (m, t) in wanted {
            if budget == 0 {
                break;
            }
            if !placement.process_holds(t, ix.process_of[m as usize] as usize) {
                placement.give_warmup(t, m);
                budget -= 1;
            }
        }

        let tags = TagPlacement::new(&ix);
        placement.assign_standbys(tags.as_ref());
        drop(tags);
        let lists = placement.into_lists();
        DenseAssignment::new(ix, lists)
    }
}

/// After the hold-back the members keeping a lagging target's stateful tasks are above
/// their share and the targets below it. Stateless actives (nothing to restore) level
/// the counts again, as Kafka's assignor places its stateless tasks after the stateful
/// ones: from the busiest eligible member to the least busy while they are two apart,
/// each time one the giver did not own before if it can, then of the subtopology it
/// holds most of against the taker (so each subtopology stays spread). Left uneven,
/// the next round's sticky pass moved them instead: an unchanged group changed twice.
fn level_stateless(placement: &mut Placement<'_, '_>) {
    let ix = placement.ix;
    let n = ix.num_members();
    // Each eligible member's stateless actives.
    let mut of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for t in (0..ix.num_tasks).filter(|&t| !ix.task_stateful[t as usize]) {
        let owner = placement.active_owner[t as usize];
        if owner != NONE && ix.eligible[owner as usize] {
            of[owner as usize].push(t);
        }
    }
    let mut by_count: BTreeSet<(u32, u32)> = (0..n as u32)
        .filter(|&m| ix.eligible[m as usize])
        .map(|m| (placement.active_count[m as usize], m))
        .collect();
    // Per subtopology, the giver's stateless actives less the taker's.
    let mut lead = vec![0i64; ix.subtopologies.len()];
    let sub = |t: u32| ix.subtopology_of(0, t);
    while let (Some(&(low, to)), Some(&(high, from))) = (by_count.first(), by_count.last()) {
        if high < low + 2 {
            break;
        }
        for &t in &of[from as usize] {
            lead[sub(t)] += 1;
        }
        for &t in &of[to as usize] {
            lead[sub(t)] -= 1;
        }
        let pick = of[from as usize]
            .iter()
            .enumerate()
            .max_by_key(|&(_, &t)| {
                let kept = ix.prev_active[t as usize] == from;
                (!kept, lead[sub(t)], std::cmp::Reverse(t))
            })
            .map(|(i, &t)| (i, t));
        for &t in of[from as usize].iter().chain(&of[to as usize]) {
            lead[sub(t)] = 0;
        }
        by_count.remove(&(high, from));
        let Some((i, t)) = pick else {
            // Nothing stateless to give: it stays as it is, out of the levelling.
            continue;
        };
        by_count.remove(&(low, to));
        of[from as usize].swap_remove(i);
        of[to as usize].push(t);
        placement.move_active(t, to);
        by_count.insert((high - 1, from));
        by_count.insert((low + 1, to));
    }
}

/// True when some member's warm-up task has caught up (its process's lag is within
/// `acceptableRecoveryLag`): the coordinator should then compute a new target
/// assignment, in which the task moves to that member (the probing rebalance).
pub fn warmup_caught_up(spec: &GroupSpec, config: &AssignmentConfig) -> bool {
    let ix = Index::new(spec, None);
    if !ix.has_prev_warmups() {
        return false;
    }
    let mut warmups: Vec<u32> = (0..ix.num_members())
        .flat_map(|m| ix.prev_warmup_of(m).iter().copied())
        .collect();
    warmups.sort_unstable();
    warmups.dedup();
    let caught_up = CaughtUp::new(&ix, config.acceptable_recovery_lag, &warmups);
    (0..ix.num_members()).any(|m| {
        ix.prev_warmup_of(m)
            .iter()
            .any(|&t| caught_up.is(&ix, t, ix.process_of[m]))
    })
}
