//! Quality figures of an assignment against its group spec: balance, movement,
//! standby spread, warm-ups in flight, and the rule breaks that must never happen.
//! Used by the tests, the benchmarks and the playground (`assignmentQuality()`).

use super::index::{Index, NONE};
use super::{GroupAssignment, GroupSpec};
use serde::Serialize;

/// Smallest and largest value, and their difference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Spread<T> {
    pub min: T,
    pub max: T,
    pub spread: T,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quality {
    pub members: usize,
    /// Members at the group's topology epoch (only they may gain tasks).
    pub eligible_members: usize,
    pub processes: usize,
    pub tasks: usize,
    pub stateful_tasks: usize,
    /// Tasks of the topology with no active owner.
    pub unassigned_active_tasks: usize,
    /// Tasks active on more than one member.
    pub duplicate_active_tasks: usize,
    /// Assigned tasks that do not exist in the topology.
    pub unknown_tasks: usize,
    /// Active tasks per eligible member.
    pub active_balance: Spread<u32>,
    /// Active + standby + warm-up tasks per eligible member.
    pub total_balance: Spread<u32>,
    /// Active tasks per member of each process holding eligible members (members are
    /// the capacity units).
    pub process_active_balance: Spread<f64>,
    /// Active tasks that changed owner (previously owned by another member).
    pub active_tasks_moved: usize,
    /// Active tasks that had no owner before.
    pub active_tasks_new: usize,
    pub standby_tasks: usize,
    /// Stateful tasks with at least one standby.
    pub tasks_with_standbys: usize,
    /// Times a process holds one task more than once, in any roles (must be 0).
    pub process_duplicates: usize,
    /// Tasks with standbys whose holders (active, standbys, warm-up) differ in every
    /// client-tag value; null when no member reports tags.
    pub tasks_with_distinct_tag_values: Option<usize>,
    pub warmups_in_flight: usize,
    /// Tasks given to a member at another topology epoch that it did not own before,
    /// in that role (must be 0).
    pub stale_member_gains: usize,
}

/// Computes the figures; members of `result` that the spec lacks are ignored.
pub fn quality(spec: &GroupSpec, result: &GroupAssignment) -> Quality {
    let ix = Index::new(spec);
    let n = ix.num_members();
    let t_count = ix.num_tasks as usize;
    let mut owners = vec![NONE; t_count];
    let mut duplicate = vec![false; t_count];
    let mut holders: Vec<Vec<u32>> = vec![Vec::new(); t_count];
    let mut active_count = vec![0u32; n];
    let mut total_count = vec![0u32; n];
    let mut unknown = 0;
    let mut standby_tasks = 0;
    let mut warmups = 0;
    let mut stale_gains = 0;
    for (m, member) in ix.members.iter().enumerate() {
        let Some(a) = result.members.get(&member.member_id) else {
            continue;
        };
        let roles = [
            (&a.active, &member.active),
            (&a.standby, &member.standby),
            (&a.warmup, &member.warmup),
        ];
        for (role, (now, before)) in roles.into_iter().enumerate() {
            let tasks = ix.tasks_of(now);
            unknown += now.len() - tasks.len();
            if !ix.eligible[m] {
                stale_gains += now.difference(before).len();
            }
            for t in tasks {
                total_count[m] += 1;
                holders[t as usize].push(m as u32);
                match role {
                    0 => {
                        active_count[m] += 1;
                        let o = &mut owners[t as usize];
                        if *o == NONE {
                            *o = m as u32;
                        } else {
                            duplicate[t as usize] = true;
                        }
                    }
                    1 => standby_tasks += 1,
                    _ => warmups += 1,
                }
            }
        }
    }
    let spread_of = |counts: &[u32]| {
        let vals = (0..n).filter(|&m| ix.eligible[m]).map(|m| counts[m]);
        let min = vals.clone().min().unwrap_or(0);
        let max = vals.max().unwrap_or(0);
        Spread {
            min,
            max,
            spread: max - min,
        }
    };
    let mut per_process: Vec<f64> = Vec::new();
    for members in ix.all_process_members() {
        let eligible: Vec<u32> = members
            .iter()
            .copied()
            .filter(|&m| ix.eligible[m as usize])
            .collect();
        if !eligible.is_empty() {
            let sum: u64 = eligible
                .iter()
                .map(|&m| u64::from(active_count[m as usize]))
                .sum();
            per_process.push(sum as f64 / eligible.len() as f64);
        }
    }
    let pmin = per_process.iter().copied().fold(f64::INFINITY, f64::min);
    let pmax = per_process
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let process_active_balance = if per_process.is_empty() {
        Spread::default()
    } else {
        Spread {
            min: pmin,
            max: pmax,
            spread: pmax - pmin,
        }
    };

    let tags = tag_values(&ix);
    let mut moved = 0;
    let mut new = 0;
    let mut process_duplicates = 0;
    let mut with_standbys = 0;
    let mut tag_diverse = 0;
    for t in 0..t_count {
        let owner = owners[t];
        let before = ix.prev_active[t];
        if owner != NONE {
            if before == NONE {
                new += 1;
            } else if before != owner {
                moved += 1;
            }
        }
        let mut procs: Vec<u32> = holders[t]
            .iter()
            .map(|&m| ix.process_of[m as usize])
            .collect();
        let all = procs.len();
        procs.sort_unstable();
        procs.dedup();
        process_duplicates += all - procs.len();
        if ix.task_stateful[t] && all > 1 {
            with_standbys += 1;
            if let Some(tags) = &tags {
                let keys = tags.first().map_or(0, Vec::len);
                let diverse = (0..keys).all(|k| {
                    let mut vals: Vec<Option<&str>> =
                        procs.iter().map(|&p| tags[p as usize][k]).collect();
                    vals.sort_unstable();
                    vals.dedup();
                    vals.len() == procs.len()
                });
                tag_diverse += usize::from(diverse);
            }
        }
    }
    Quality {
        members: n,
        eligible_members: ix.num_eligible,
        processes: ix.num_processes(),
        tasks: t_count,
        stateful_tasks: ix.task_stateful.iter().filter(|s| **s).count(),
        unassigned_active_tasks: owners.iter().filter(|&&o| o == NONE).count(),
        duplicate_active_tasks: duplicate.iter().filter(|d| **d).count(),
        unknown_tasks: unknown,
        active_balance: spread_of(&active_count),
        total_balance: spread_of(&total_count),
        process_active_balance,
        active_tasks_moved: moved,
        active_tasks_new: new,
        standby_tasks,
        tasks_with_standbys: with_standbys,
        process_duplicates,
        tasks_with_distinct_tag_values: tags.map(|_| tag_diverse),
        warmups_in_flight: warmups,
        stale_member_gains: stale_gains,
    }
}

/// Per process, per tag key (sorted): its value, from its first member.
fn tag_values<'a>(ix: &Index<'a>) -> Option<Vec<Vec<Option<&'a str>>>> {
    let keys = super::tags::tag_keys(ix)?;
    Some(
        ix.all_process_members()
            .map(|ms| {
                let first = ms.first().map(|&m| ix.members[m as usize]);
                keys.iter()
                    .map(|k| first.and_then(|m| m.client_tags.get(*k).map(String::as_str)))
                    .collect()
            })
            .collect(),
    )
}
