//! Quality figures of an assignment against its group spec: balance, movement,
//! standby spread, warm-ups in flight, and the rule breaks that must never happen.
//! Used by the tests, the benchmarks and the playground (`assignmentQuality()`).

use super::index::{Held, IdLookup, Index, NONE};
use super::{AssignmentConfig, GroupAssignment, GroupSpec};
use serde::Serialize;
use ts_rs::TS;

/// Smallest and largest value, and their difference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct Spread<T> {
    pub min: T,
    pub max: T,
    pub spread: T,
}

/// Mean and largest of a figure over subtopologies.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct MeanMax {
    pub mean: f64,
    pub max: u32,
}

/// Smallest, mean and largest of a figure over members.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct MinMeanMax {
    pub min: u32,
    pub mean: f64,
    pub max: u32,
}

/// Of `total` tasks, how many `landed` where wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct Landed {
    pub landed: usize,
    pub total: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AssignmentQuality")]
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
    /// Per subtopology, max - min of its active tasks per eligible member; mean and
    /// max over subtopologies.
    pub subtopology_spread: MeanMax,
    /// The same, less the one task of difference that a subtopology whose tasks do
    /// not divide evenly over the eligible members cannot avoid: 0 is an even spread.
    pub subtopology_spread_above_even: MeanMax,
    /// Per stateful subtopology, max - min of its standby tasks per eligible member.
    pub standby_subtopology_spread: MeanMax,
    /// The fewest active moves (as `active_tasks_moved`) that any assignment with the
    /// same active balance (max - min per eligible member) needs.
    pub active_tasks_moved_minimum: usize,
    /// Per member with stateful active tasks: how many distinct members hold the
    /// standbys of those tasks (where its tasks go warm when it fails).
    pub standby_fan_out: MinMeanMax,
    /// Standby slots wanted (`min(numStandbyReplicas, processes - 1)` per stateful
    /// task) and not filled; null without a config.
    pub standbys_unfilled: Option<usize>,
    /// Standbys on the process of their task's active (must be 0).
    pub standbys_on_active_process: usize,
    /// Stateful tasks that no member owned as active before (their owner left) while
    /// others were owned: how many went to a member that held a standby or warm-up of
    /// them. Zero of zero on an initial assignment.
    pub orphaned_stateful_to_standby: Landed,
}

/// Computes the figures; members of `result` that the spec lacks are ignored.
pub fn quality(spec: &GroupSpec, result: &GroupAssignment) -> Quality {
    quality_with_config(spec, result, None)
}

/// `quality`, with the assignment config for the figures that need it
/// (`standbys_unfilled`).
pub fn quality_with_config(
    spec: &GroupSpec,
    result: &GroupAssignment,
    config: Option<&AssignmentConfig>,
) -> Quality {
    let ix = Index::new(spec, None);
    let mut h = Holdings::of(&ix, result);
    let tf = TaskFigures::of(&ix, &h);
    let spread = Spreads::new(&ix, &h.owners, &h.standby_pairs);
    let owners = &h.owners;
    Quality {
        members: ix.num_members(),
        eligible_members: ix.num_eligible,
        processes: ix.num_processes(),
        tasks: owners.len(),
        stateful_tasks: ix.task_stateful.iter().filter(|s| **s).count(),
        unassigned_active_tasks: owners.iter().filter(|&&o| o == NONE).count(),
        duplicate_active_tasks: h.duplicate.iter().filter(|d| **d).count(),
        unknown_tasks: h.unknown,
        active_balance: member_spread(&ix, &h.active_count),
        total_balance: member_spread(&ix, &h.total_count),
        process_active_balance: process_active_balance(&ix, &h.active_count),
        active_tasks_moved: tf.moved,
        active_tasks_new: tf.new,
        standby_tasks: h.standby_pairs.len(),
        tasks_with_standbys: tf.with_standbys,
        process_duplicates: tf.process_duplicates,
        tasks_with_distinct_tag_values: tf.tag_diverse,
        warmups_in_flight: h.warmups,
        stale_member_gains: h.stale_gains,
        subtopology_spread: spread.active,
        subtopology_spread_above_even: spread.active_above_even,
        standby_subtopology_spread: spread.standby,
        active_tasks_moved_minimum: moved_minimum(&ix, &h.active_count),
        standby_fan_out: fan_out(&ix, &h.owners, &mut h.standby_pairs),
        standbys_unfilled: config.map(|c| unfilled(&ix, c, &h.standby_pairs)),
        standbys_on_active_process: h
            .standby_pairs
            .iter()
            .filter(|&&(t, m)| {
                let o = h.owners[t as usize];
                o != NONE && ix.process_of[o as usize] == ix.process_of[m as usize]
            })
            .count(),
        orphaned_stateful_to_standby: orphans(&ix, &h.owners),
    }
}

/// Who holds what in the assignment being rated, by dense index.
struct Holdings {
    /// The active owner of each task (`NONE` if none).
    owners: Vec<u32>,
    /// Tasks with more than one active owner.
    duplicate: Vec<bool>,
    /// Every member holding each task, in any role.
    holders: Vec<Vec<u32>>,
    active_count: Vec<u32>,
    total_count: Vec<u32>,
    /// Tasks the spec does not have.
    unknown: usize,
    warmups: usize,
    /// Tasks gained by members that may not gain any (stale topology epoch).
    stale_gains: usize,
    /// (task, member) for every standby.
    standby_pairs: Vec<(u32, u32)>,
}

impl Holdings {
    fn of(ix: &Index, result: &GroupAssignment) -> Holdings {
        let n = ix.num_members();
        let t_count = ix.num_tasks as usize;
        let mut h = Holdings {
            owners: vec![NONE; t_count],
            duplicate: vec![false; t_count],
            holders: vec![Vec::new(); t_count],
            active_count: vec![0u32; n],
            total_count: vec![0u32; n],
            unknown: 0,
            warmups: 0,
            stale_gains: 0,
            standby_pairs: Vec::new(),
        };
        // One for the whole result: a lookup per set (a table of some KB made each time,
        // and the ids searched again) was a sixth to a fifth of assignmentQuality() on
        // 1 000 x 10 000 in 100 subtopologies (bench/assignors.mjs --against --rate).
        let mut ids = IdLookup::new(ix);
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
                let tasks = ix.tasks_of(now, &mut ids);
                h.unknown += now.len() - tasks.len();
                if !ix.eligible[m] {
                    h.stale_gains += now.difference(before).len();
                }
                for t in tasks {
                    h.hold(m as u32, t, role);
                }
            }
        }
        h
    }

    /// Member `m` holds task `t` as active (role 0), standby (1) or warm-up (2).
    fn hold(&mut self, m: u32, t: u32, role: usize) {
        self.total_count[m as usize] += 1;
        self.holders[t as usize].push(m);
        match role {
            0 => {
                self.active_count[m as usize] += 1;
                let o = &mut self.owners[t as usize];
                if *o == NONE {
                    *o = m;
                } else {
                    self.duplicate[t as usize] = true;
                }
            }
            1 => self.standby_pairs.push((t, m)),
            _ => self.warmups += 1,
        }
    }
}

/// Max - min of a per-member count over the members that may take tasks.
fn member_spread(ix: &Index, counts: &[u32]) -> Spread<u32> {
    let vals = (0..ix.num_members())
        .filter(|&m| ix.eligible[m])
        .map(|m| counts[m]);
    let min = vals.clone().min().unwrap_or(0);
    let max = vals.max().unwrap_or(0);
    Spread {
        min,
        max,
        spread: max - min,
    }
}

/// Max - min over processes of the mean active count of their eligible members.
fn process_active_balance(ix: &Index, active_count: &[u32]) -> Spread<f64> {
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
    if per_process.is_empty() {
        return Spread::default();
    }
    let min = per_process.iter().copied().fold(f64::INFINITY, f64::min);
    let max = per_process
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    Spread {
        min,
        max,
        spread: max - min,
    }
}

/// The per-task counts: moves, new actives, replicas sharing a process, stateful tasks
/// with standbys and (with client tags) those whose replicas differ in every tag.
struct TaskFigures {
    moved: usize,
    new: usize,
    process_duplicates: usize,
    with_standbys: usize,
    tag_diverse: Option<usize>,
}

impl TaskFigures {
    fn of(ix: &Index, h: &Holdings) -> TaskFigures {
        let tags = tag_values(ix);
        let mut f = TaskFigures {
            moved: 0,
            new: 0,
            process_duplicates: 0,
            with_standbys: 0,
            tag_diverse: tags.as_ref().map(|_| 0),
        };
        for (t, (&owner, holders)) in h.owners.iter().zip(&h.holders).enumerate() {
            let before = ix.prev_active[t];
            if owner != NONE {
                if before == NONE {
                    f.new += 1;
                } else if before != owner {
                    f.moved += 1;
                }
            }
            let mut procs: Vec<u32> = holders.iter().map(|&m| ix.process_of[m as usize]).collect();
            let all = procs.len();
            procs.sort_unstable();
            procs.dedup();
            f.process_duplicates += all - procs.len();
            if ix.task_stateful[t] && all > 1 {
                f.with_standbys += 1;
                if let (Some(tags), Some(diverse)) = (&tags, f.tag_diverse.as_mut()) {
                    *diverse += usize::from(distinct_in_every_tag(tags, &procs));
                }
            }
        }
        f
    }
}

/// Whether the processes `procs` have pairwise different values in every tag key.
fn distinct_in_every_tag(tags: &[Vec<Option<&str>>], procs: &[u32]) -> bool {
    let keys = tags.first().map_or(0, Vec::len);
    (0..keys).all(|k| {
        let mut vals: Vec<Option<&str>> = procs.iter().map(|&p| tags[p as usize][k]).collect();
        vals.sort_unstable();
        vals.dedup();
        vals.len() == procs.len()
    })
}

struct Spreads {
    active: MeanMax,
    active_above_even: MeanMax,
    standby: MeanMax,
}

impl Spreads {
    /// Per subtopology spreads of actives (`owners`) and standbys (`(task, member)`).
    fn new(ix: &Index<'_>, owners: &[u32], standbys: &[(u32, u32)]) -> Self {
        let subs = ix.subtopologies.len();
        let mut counter = Counter::new(ix);
        let mut active = Vec::with_capacity(subs);
        let mut above_even = Vec::with_capacity(subs);
        for s in 0..subs {
            let (lo, hi) = (ix.base[s] as usize, ix.base[s + 1] as usize);
            let spread = counter.spread(s, owners[lo..hi].iter().copied());
            active.push(spread);
            let uneven = ix.num_eligible > 0 && (hi - lo) % ix.num_eligible != 0;
            above_even.push(spread.saturating_sub(u32::from(uneven)));
        }
        let mut by_task: Vec<(u32, u32)> = standbys.to_vec();
        by_task.sort_unstable();
        let mut standby = Vec::new();
        for s in (0..subs).filter(|&s| ix.subtopologies[s].stateful) {
            let (lo, hi) = (ix.base[s], ix.base[s + 1]);
            let from = by_task.partition_point(|e| e.0 < lo);
            let to = by_task.partition_point(|e| e.0 < hi);
            standby.push(counter.spread(s, by_task[from..to].iter().map(|e| e.1)));
        }
        Spreads {
            active: mean_max(&active),
            active_above_even: mean_max(&above_even),
            standby: mean_max(&standby),
        }
    }
}

/// Counts per eligible member, one subtopology at a time (stamped, no matrix).
struct Counter<'x, 'a> {
    ix: &'x Index<'a>,
    stamp: Vec<usize>,
    count: Vec<u32>,
}

impl<'x, 'a> Counter<'x, 'a> {
    fn new(ix: &'x Index<'a>) -> Self {
        Counter {
            ix,
            stamp: vec![usize::MAX; ix.num_members()],
            count: vec![0; ix.num_members()],
        }
    }

    /// Max - min over eligible members of how many of `members` each is.
    fn spread(&mut self, s: usize, members: impl Iterator<Item = u32>) -> u32 {
        let mut counted: Vec<u32> = Vec::new();
        for m in members.filter(|&m| m != NONE) {
            let mi = m as usize;
            if !self.ix.eligible[mi] {
                continue;
            }
            if self.stamp[mi] != s {
                self.stamp[mi] = s;
                self.count[mi] = 0;
                counted.push(m);
            }
            self.count[mi] += 1;
        }
        let max = counted
            .iter()
            .map(|&m| self.count[m as usize])
            .max()
            .unwrap_or(0);
        let min = if counted.len() < self.ix.num_eligible {
            0
        } else {
            counted
                .iter()
                .map(|&m| self.count[m as usize])
                .min()
                .unwrap_or(0)
        };
        // Reset the stamps, so the same subtopology may be counted again.
        for &m in &counted {
            self.stamp[m as usize] = usize::MAX;
        }
        max - min
    }
}

fn mean_max(values: &[u32]) -> MeanMax {
    if values.is_empty() {
        return MeanMax::default();
    }
    MeanMax {
        mean: values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64,
        max: values.iter().copied().max().unwrap_or(0),
    }
}

/// The fewest moves at the result's active balance: eligible members end with counts
/// in `[low, low + b]` (b the result's max - min) summing to what they hold in the
/// result; a member keeps as many of its previous tasks as its count allows. For a
/// given `low` the best counts follow each member's previous count within the band,
/// then the sum is met by raising (free) or lowering (one move each); stale members
/// count what they lost.
fn moved_minimum(ix: &Index<'_>, count: &[u32]) -> usize {
    let n = ix.num_members();
    let eligible: Vec<usize> = (0..n).filter(|&m| ix.eligible[m]).collect();
    let stale_losses: u64 = (0..n)
        .filter(|&m| !ix.eligible[m])
        .map(|m| (ix.prev_active_of(m).len() as u64).saturating_sub(u64::from(count[m])))
        .sum();
    if eligible.is_empty() {
        return stale_losses as usize;
    }
    let e = eligible.len() as u64;
    let total: u64 = eligible.iter().map(|&m| u64::from(count[m])).sum();
    let lo = eligible
        .iter()
        .map(|&m| u64::from(count[m]))
        .min()
        .unwrap_or(0);
    let hi = eligible
        .iter()
        .map(|&m| u64::from(count[m]))
        .max()
        .unwrap_or(0);
    let band = hi - lo;
    let prev: Vec<u64> = eligible
        .iter()
        .map(|&m| ix.prev_active_of(m).len() as u64)
        .collect();
    let top = total / e;
    let bottom = total.saturating_sub(e * band).div_ceil(e);
    let mut best = u64::MAX;
    for low in bottom..=top {
        let high = low + band;
        let mut sum = 0u64;
        let mut cost = 0u64;
        for &p in &prev {
            sum += p.clamp(low, high);
            cost += p.saturating_sub(high);
        }
        cost += sum.saturating_sub(total);
        best = best.min(cost);
    }
    (best + stale_losses) as usize
}

/// Distinct standby holders per member with stateful actives.
fn fan_out(ix: &Index<'_>, owners: &[u32], standbys: &mut [(u32, u32)]) -> MinMeanMax {
    let mut pairs: Vec<(u32, u32)> = standbys
        .iter()
        .filter(|&&(t, _)| owners[t as usize] != NONE)
        .map(|&(t, m)| (owners[t as usize], m))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut per_member = vec![0u32; ix.num_members()];
    for &(o, _) in &pairs {
        per_member[o as usize] += 1;
    }
    let mut with_stateful = vec![false; ix.num_members()];
    for (t, &o) in owners.iter().enumerate() {
        if o != NONE && ix.task_stateful[t] {
            with_stateful[o as usize] = true;
        }
    }
    let values: Vec<u32> = (0..ix.num_members())
        .filter(|&m| with_stateful[m])
        .map(|m| per_member[m])
        .collect();
    if values.is_empty() {
        return MinMeanMax::default();
    }
    MinMeanMax {
        min: values.iter().copied().min().unwrap_or(0),
        mean: values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64,
        max: values.iter().copied().max().unwrap_or(0),
    }
}

/// Standby slots wanted and not filled.
fn unfilled(ix: &Index<'_>, config: &AssignmentConfig, standbys: &[(u32, u32)]) -> usize {
    let wanted = (config.num_standby_replicas as usize).min(ix.num_processes().saturating_sub(1));
    let mut have = vec![0usize; ix.num_tasks as usize];
    for &(t, _) in standbys {
        have[t as usize] += 1;
    }
    (0..ix.num_tasks as usize)
        .filter(|&t| ix.task_stateful[t])
        .map(|t| wanted.saturating_sub(have[t]))
        .sum()
}

/// Stateful tasks without a previous owner in a group where others had one, and how
/// many of them went to a member that held a standby or warm-up of them.
fn orphans(ix: &Index<'_>, owners: &[u32]) -> Landed {
    if !ix.has_prev_actives() {
        return Landed::default();
    }
    let mut out = Landed::default();
    for t in 0..ix.num_tasks {
        if !ix.task_stateful[t as usize] || ix.prev_active[t as usize] != NONE {
            continue;
        }
        out.total += 1;
        let o = owners[t as usize];
        let warm = ix
            .candidates(t)
            .iter()
            .any(|c| c.member == o && c.held != Held::OffsetsOnly);
        out.landed += usize::from(o != NONE && warm);
    }
    out
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
