//! Which processes are caught up on which stateful task, from reported offsets.
//!
//! Lag of a member on a task = the task's end offset - the member's offset, where the
//! end offset is the highest any member reported for the task (it belongs to the
//! changelog, not to the member). As in Kafka Streams, an offset above the end offset
//! (a truncated changelog) counts as a lag of the end offset. Members of one process
//! share its state directory, so being caught up is a property of the process. The
//! process running the task as active is always caught up.

use super::index::{Index, NONE};

pub(crate) struct CaughtUp {
    /// Sorted `(task, process)` pairs caught up by reported offsets.
    pairs: Vec<(u32, u32)>,
    /// An acceptable lag of i64::MAX means any lag is fine: everyone is caught up
    /// (as in Kafka Streams), even without reported offsets.
    unbounded: bool,
}

impl CaughtUp {
    pub fn new(ix: &Index<'_>, acceptable_recovery_lag: i64) -> Self {
        let mut ends: Vec<(u32, i64)> = ix.task_end_offsets.iter().flatten().copied().collect();
        // Highest end offset per task first, then keep one entry per task.
        ends.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        ends.dedup_by_key(|e| e.0);
        let mut pairs = Vec::new();
        for (m, offsets) in ix.task_offsets.iter().enumerate() {
            for &(t, offset) in offsets {
                let Ok(i) = ends.binary_search_by_key(&t, |e| e.0) else {
                    continue;
                };
                let end = ends[i].1;
                if lag(end, offset).is_some_and(|l| l <= acceptable_recovery_lag) {
                    pairs.push((t, ix.process_of[m]));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        CaughtUp {
            pairs,
            unbounded: acceptable_recovery_lag == i64::MAX,
        }
    }

    /// Is process `p` caught up on task `t` (by offsets, or running it as active)?
    pub fn is(&self, ix: &Index<'_>, t: u32, p: u32) -> bool {
        let owner = ix.prev_active.get(t as usize).copied().unwrap_or(NONE);
        self.unbounded
            || (owner != NONE && ix.process_of[owner as usize] == p)
            || self.pairs.binary_search(&(t, p)).is_ok()
    }

    /// Processes caught up on `t` by reported offsets, in process order.
    pub fn processes(&self, t: u32) -> impl Iterator<Item = u32> + '_ {
        let lo = self.pairs.partition_point(|e| e.0 < t);
        self.pairs[lo..]
            .iter()
            .take_while(move |e| e.0 == t)
            .map(|e| e.1)
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
