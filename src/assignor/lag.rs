//! Which processes are caught up on which stateful task, from reported offsets.
//!
//! Lag of a member on a task = the task's end offset - the member's offset, where the
//! end offset is the highest any member reported for the task (it belongs to the
//! changelog, not to the member). As in Kafka Streams, an offset above the end offset
//! (a truncated changelog) counts as a lag of the end offset. Members of one process
//! share its state directory, so being caught up is a property of the process. The
//! process running the task as active is always caught up.

use super::index::{Index, NONE};
use crate::task::TaskId;

pub(crate) struct CaughtUp {
    /// Per task, the highest end offset any member reported (when `reported[t]`).
    end: Vec<i64>,
    reported: Vec<bool>,
    acceptable_recovery_lag: i64,
    /// An acceptable lag of i64::MAX means any lag is fine: everyone is caught up
    /// (as in Kafka Streams), even without reported offsets.
    unbounded: bool,
}

impl CaughtUp {
    /// Ready to answer for the sorted dense `tasks` (the only ones asked about): end
    /// offsets are read for their subtopologies' partition ranges only, so a group
    /// where few tasks move reads few of the reported end offsets.
    pub fn new(ix: &Index<'_>, acceptable_recovery_lag: i64, tasks: &[u32]) -> Self {
        let unbounded = acceptable_recovery_lag == i64::MAX;
        let mut end = Vec::new();
        let mut reported = Vec::new();
        if !unbounded && !tasks.is_empty() {
            // (subtopology, lowest and highest partition asked about).
            let mut ranges: Vec<(usize, u32, u32)> = Vec::new();
            let mut s = 0usize;
            for &t in tasks {
                s = ix.subtopology_of(s, t);
                let p = t - ix.base[s];
                match ranges.last_mut() {
                    Some((last, _, hi)) if *last == s => *hi = p,
                    _ => ranges.push((s, p, p)),
                }
            }
            let bounds: Vec<(u32, TaskId, TaskId)> = ranges
                .iter()
                .map(|&(s, lo, hi)| {
                    let id = ix.subtopologies[s].id.as_str();
                    (
                        ix.base[s],
                        TaskId::new(id, lo as i32),
                        TaskId::new(id, hi as i32),
                    )
                })
                .collect();
            for m in &ix.members {
                let map = &m.task_end_offsets;
                if map.is_empty() {
                    continue;
                }
                if end.is_empty() {
                    end = vec![i64::MIN; ix.num_tasks as usize];
                    reported = vec![false; ix.num_tasks as usize];
                }
                let mut note = |t: u32, v: i64| {
                    let t = t as usize;
                    end[t] = if reported[t] { end[t].max(v) } else { v };
                    reported[t] = true;
                };
                // A range lookup costs a few comparisons; a short map is read whole.
                if map.len() <= bounds.len() * 16 {
                    ix.for_each_offset(map, note);
                } else {
                    for (base, lo, hi) in &bounds {
                        // One descent (to `lo`), then read on while within `hi`.
                        for (task, &v) in map.range(lo..).take_while(|(task, _)| *task <= hi) {
                            // Within [lo, hi]: a valid partition of this subtopology.
                            note(base + task.partition as u32, v);
                        }
                    }
                }
            }
        }
        CaughtUp {
            end,
            reported,
            acceptable_recovery_lag,
            unbounded,
        }
    }

    /// Did member `m` report an offset for `t` within the acceptable lag?
    fn member_caught_up(&self, ix: &Index<'_>, t: u32, m: u32) -> bool {
        let Some(end) = self
            .reported
            .get(t as usize)
            .filter(|r| **r)
            .and_then(|_| self.end.get(t as usize))
        else {
            return false;
        };
        let offsets = ix.task_offsets(m as usize);
        offsets
            .binary_search_by_key(&t, |e| e.0)
            .ok()
            .and_then(|i| offsets.get(i))
            .and_then(|&(_, offset)| lag(*end, offset))
            .is_some_and(|l| l <= self.acceptable_recovery_lag)
    }

    /// Is process `p` caught up on task `t` by the offsets its members reported?
    fn by_offsets(&self, ix: &Index<'_>, t: u32, p: u32) -> bool {
        ix.process_members(p as usize)
            .iter()
            .any(|&m| self.member_caught_up(ix, t, m))
    }

    /// Is process `p` caught up on task `t` (by offsets, or running it as active)?
    pub fn is(&self, ix: &Index<'_>, t: u32, p: u32) -> bool {
        let owner = ix.prev_active.get(t as usize).copied().unwrap_or(NONE);
        self.unbounded
            || (owner != NONE && ix.process_of[owner as usize] == p)
            || self.by_offsets(ix, t, p)
    }

    /// Processes caught up on a stateful task `t` that no member owned as active, by
    /// reported offsets, in process order. Every member that reported an offset for
    /// such a task is one of its candidates (index.rs), so only those are looked at.
    pub fn processes_without_owner(&self, ix: &Index<'_>, t: u32) -> Vec<u32> {
        let mut out: Vec<u32> = ix
            .candidates(t)
            .iter()
            .filter(|c| self.member_caught_up(ix, t, c.member))
            .map(|c| ix.process_of[c.member as usize])
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// `None` when the lag cannot be computed (it would overflow).
fn lag(end: i64, offset: i64) -> Option<i64> {
    if offset > end {
        Some(end)
    } else {
        end.checked_sub(offset)
    }
}
