//! How many tasks each member should end up with: the stickiness quota and the
//! water-filling targets for tasks that have no previous owner to go back to.
//!
//! Members are the capacity units (a process with three members counts three times).
//! A member whose topology epoch differs from the group's may keep what it owns but
//! never gains (PROTOCOL.md §4.4), so its capacity is what it owns: if that is below the fair
//! share it is "fixed" (keeps everything, counts for nothing else) and the rest of the
//! tasks are shared among the others.

use super::index::Index;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Kafka's shrinking quota: `ceil(total / units)`; whenever a member reaches it exactly,
/// that member and its tasks leave the totals and the quota is recomputed, so that in
/// the end no two members differ by more than one.
pub(crate) struct Quota {
    total: u64,
    units: u64,
    per: u64,
    fixed: Vec<bool>,
}

impl Quota {
    /// `total` tasks shared over every member; `stale_cap(m)` is what a member that may
    /// not gain could keep (ignored for eligible members).
    pub fn new(ix: &Index<'_>, total: u64, stale_cap: impl Fn(usize) -> u64) -> Self {
        let n = ix.num_members();
        let mut fixed = vec![false; n];
        let mut units = n as u64;
        let mut total = total;
        let mut stale: Vec<(u64, usize)> = (0..n)
            .filter(|&m| !ix.eligible[m])
            .map(|m| (stale_cap(m), m))
            .collect();
        stale.sort_unstable();
        for (cap, m) in stale {
            // Nobody can take over what a stale member drops: it keeps all of it.
            let keeps_all = ix.num_eligible == 0 || cap.saturating_mul(units) <= total;
            if !keeps_all {
                break;
            }
            fixed[m] = true;
            units -= 1;
            total = total.saturating_sub(cap);
        }
        let mut q = Quota {
            total,
            units,
            per: 0,
            fixed,
        };
        q.recompute();
        q
    }

    fn recompute(&mut self) {
        self.per = if self.units == 0 {
            0
        } else {
            self.total.div_ceil(self.units)
        };
    }

    /// May member `m`, holding `count`, take one more?
    pub fn allows(&self, m: usize, count: u32) -> bool {
        self.fixed.get(m).copied().unwrap_or(false) || u64::from(count) < self.per
    }

    /// How many more member `m`, holding `count`, may take while the quota stands:
    /// everything for a fixed member, else up to the quota (which only shrinks when
    /// members reach it, so a member stops at the quota it started under).
    pub fn room(&self, m: usize, count: u32) -> u64 {
        if self.fixed.get(m).copied().unwrap_or(false) {
            u64::MAX
        } else {
            self.per.saturating_sub(u64::from(count))
        }
    }

    /// Records that member `m` now holds `count`.
    pub fn note(&mut self, m: usize, count: u32) {
        if self.fixed.get(m).copied().unwrap_or(true) {
            return;
        }
        if u64::from(count) == self.per && self.units > 0 {
            self.units -= 1;
            self.total = self.total.saturating_sub(u64::from(count));
            self.recompute();
        }
    }

    /// Records that member `m` went from `from` to `to` one task at a time: the same
    /// as `note` for each count in `from + 1..=to`. A recompute never raises the
    /// quota (what is left per unit cannot exceed it), so the member meets it at most
    /// once on the way up.
    pub fn note_run(&mut self, m: usize, from: u32, to: u32) {
        if self.fixed.get(m).copied().unwrap_or(true) || self.units == 0 {
            return;
        }
        if u64::from(from) < self.per && self.per <= u64::from(to) {
            self.units -= 1;
            self.total = self.total.saturating_sub(self.per);
            self.recompute();
        }
    }
}

/// A process's load for ordering: `count / capacity`, compared exactly.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Load {
    count: u64,
    capacity: u64,
    process: u32,
    /// The process's segment in the group's buffer: (index, end).
    segment: (usize, usize),
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed so that BinaryHeap pops the least loaded (then the lowest id) first.
        (u128::from(other.count) * u128::from(self.capacity))
            .cmp(&(u128::from(self.count) * u128::from(other.capacity)))
            .then(other.process.cmp(&self.process))
    }
}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Tasks that members may take: each eligible member's `need` brings it to the common
/// level; `extras` more may go one each to members with `extra_ok` (at the level).
#[derive(Clone)]
pub(crate) struct Targets {
    pub need: Vec<u32>,
    pub extra_ok: Vec<bool>,
    pub extras: u64,
    /// The common level, and the members `fill_targets` raised one above it, in the
    /// order it chose them.
    pub level: u64,
    pub raised: Vec<u32>,
}

impl Targets {
    /// `fill_targets`, except that where every process has at most one eligible
    /// member the one-above-level places stay open: any member at the level may take
    /// one (member and process balance are then the same whichever members take them),
    /// so the caller can choose them for a better spread.
    pub fn new(
        ix: &Index<'_>,
        count: &[u32],
        flavour: &[u32],
        process_count: &[u32],
        remaining: u64,
    ) -> Self {
        if !ix.one_eligible_per_process {
            let (need, level, raised) = fill_targets(ix, count, flavour, process_count, remaining);
            return Targets {
                extra_ok: vec![false; need.len()],
                need,
                extras: 0,
                level,
                raised,
            };
        }
        let Level {
            need, level, extra, ..
        } = level(ix, count, remaining);
        let extra_ok = (0..need.len())
            .map(|m| ix.eligible[m] && u64::from(count[m]) + u64::from(need[m]) == level)
            .collect();
        Targets {
            need,
            extra_ok,
            extras: extra,
            level,
            raised: Vec::new(),
        }
    }

    /// Member `m`, holding `count` (the level) and without room, takes a
    /// one-above-level place from a member that was raised to it and has not used it:
    /// a previous holder keeps its task where the task would otherwise move to whoever
    /// the process balance picked for that place. False when there is none.
    pub fn pass_raise_to(&mut self, m: usize, count: u32) -> bool {
        if self.need.get(m) != Some(&0) || u64::from(count) != self.level {
            return false;
        }
        while let Some(&x) = self.raised.last() {
            self.raised.pop();
            if x as usize != m && self.need[x as usize] > 0 {
                self.need[x as usize] -= 1;
                return true;
            }
        }
        false
    }

    /// May member `m` take one more?
    pub fn has_room(&self, m: usize) -> bool {
        self.need[m] > 0 || (self.extra_ok[m] && self.extras > 0)
    }

    /// Member `m` takes one (it has room).
    pub fn take(&mut self, m: usize) {
        if self.need[m] > 0 {
            self.need[m] -= 1;
        } else if self.extra_ok[m] && self.extras > 0 {
            self.extra_ok[m] = false;
            self.extras -= 1;
        }
    }
}

struct Level {
    need: Vec<u32>,
    level: u64,
    extra: u64,
}

/// Raises the eligible members with the fewest tasks to a common level with
/// `remaining` tasks: `need` per member, and the `extra` tasks left over (fewer than
/// the members at the level). The level is the highest `L` with
/// `sum(max(0, L - count)) <= remaining`, found by bisection (no sort).
fn level(ix: &Index<'_>, count: &[u32], remaining: u64) -> Level {
    let n = ix.num_members();
    let mut need = vec![0u32; n];
    let counts: Vec<u64> = (0..n)
        .filter(|&m| ix.eligible[m])
        .map(|m| u64::from(count[m]))
        .collect();
    let Some(&low) = counts.iter().min() else {
        return Level {
            need,
            level: 0,
            extra: 0,
        };
    };
    let members = counts.len() as u64;
    let sum: u64 = counts.iter().sum();
    let raise = |l: u64| -> u64 { counts.iter().map(|&c| l.saturating_sub(c)).sum() };
    // raise(lo) <= remaining < raise(hi): raising everyone by remaining / members
    // fits, and a level above the mean after the deal cannot.
    let (mut lo, mut hi) = (low + remaining / members, (remaining + sum) / members + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if raise(mid) <= remaining {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut given = 0u64;
    for m in (0..n).filter(|&m| ix.eligible[m]) {
        let add = lo.saturating_sub(u64::from(count[m]));
        need[m] = add as u32;
        given += add;
    }
    Level {
        need,
        level: lo,
        extra: remaining - given,
    }
}

/// How many of `remaining` tasks each eligible member should get so that counts end as
/// level as possible: members are raised to a common level; the few one-above-level
/// places go first to members with the fewest tasks of the flavour being placed
/// (`flavour[m]`, so stateless tasks spread evenly on their own too), then to members
/// of the least-loaded processes (per-process balance). `count[m]` is the member's
/// current count, `process_count[p]` its process's. Returns the needs, the level and
/// the members raised one above it, in the order chosen.
fn fill_targets(
    ix: &Index<'_>,
    count: &[u32],
    flavour: &[u32],
    process_count: &[u32],
    remaining: u64,
) -> (Vec<u32>, u64, Vec<u32>) {
    let Level {
        mut need,
        level,
        mut extra,
    } = level(ix, count, remaining);
    let mut raised = Vec::new();
    if extra == 0 {
        return (need, level, raised);
    }
    // Members now at the level can take one more: fewest of the flavour first, then
    // spread over processes by load.
    let mut after: Vec<u64> = process_count.iter().map(|&c| u64::from(c)).collect();
    let mut at_level: Vec<(u32, u32)> = Vec::new();
    for m in (0..ix.num_members()).filter(|&m| ix.eligible[m]) {
        let c = count[m];
        after[ix.process_of[m] as usize] += u64::from(need[m]);
        if u64::from(c) + u64::from(need[m]) == level {
            at_level.push((flavour[m] + need[m], m as u32));
        }
    }
    at_level.sort_unstable();
    // Per flavour group: its members by process (in member order), each process a
    // segment of one buffer; the least-loaded process takes the next one of its own.
    let mut by_process: Vec<(u32, u32)> = Vec::with_capacity(at_level.len());
    let mut segments: Vec<(usize, usize)> = Vec::new();
    let mut next_of: Vec<usize> = Vec::new();
    let mut heap: BinaryHeap<Load> = BinaryHeap::new();
    let mut start = 0;
    while extra > 0 && start < at_level.len() {
        let f = at_level[start].0;
        let end = start + at_level[start..].partition_point(|e| e.0 == f);
        by_process.clear();
        by_process.extend(
            at_level[start..end]
                .iter()
                .map(|&(_, m)| (ix.process_of[m as usize], m)),
        );
        by_process.sort_unstable();
        segments.clear();
        for (i, &(p, _)) in by_process.iter().enumerate() {
            match segments.last_mut() {
                Some((_, seg_end)) if by_process[i - 1].0 == p => *seg_end = i + 1,
                _ => segments.push((i, i + 1)),
            }
        }
        next_of.clear();
        next_of.extend(segments.iter().map(|&(lo, _)| lo));
        heap.clear();
        heap.extend(segments.iter().enumerate().map(|(i, &(lo, hi))| {
            let p = by_process[lo].0 as usize;
            Load {
                count: after[p],
                capacity: ix.process_members(p).len() as u64,
                process: p as u32,
                segment: (i, hi),
            }
        }));
        while extra > 0 {
            let Some(mut top) = heap.pop() else { break };
            let (i, hi) = top.segment;
            let p = top.process as usize;
            if let Some(&(_, m)) = by_process.get(next_of[i]).filter(|_| next_of[i] < hi) {
                need[m as usize] += 1;
                raised.push(m);
                extra -= 1;
                next_of[i] += 1;
                after[p] += 1;
                top.count += 1;
            }
            if next_of[i] < hi {
                heap.push(top);
            }
        }
        start = end;
    }
    (need, level, raised)
}
