//! A streams group member: its metadata (the member metadata record), its current
//! assignment (the current assignment record), what Kafka keeps in memory only (task
//! offsets, what it last reported and was last sent; recorded here) and its timers.

use super::tasks::TasksTuple;
use crate::protocol::Status;
use crate::task::{TaskId, TaskSet};
use std::collections::BTreeMap;

/// Reconciliation state (Kafka's `MemberState`; numbers as in its record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum MemberState {
    /// Reconciled to its epoch.
    #[default]
    Stable,
    /// Waiting for the member to confirm revocations.
    UnrevokedTasks,
    /// At the target epoch, but some target tasks are still held by others.
    UnreleasedTasks,
}

impl MemberState {
    pub fn code(self) -> i8 {
        match self {
            MemberState::Stable => 1,
            MemberState::UnrevokedTasks => 2,
            MemberState::UnreleasedTasks => 3,
        }
    }

    pub fn from_code(c: i8) -> Option<Self> {
        match c {
            1 => Some(MemberState::Stable),
            2 => Some(MemberState::UnrevokedTasks),
            3 => Some(MemberState::UnreleasedTasks),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MemberState::Stable => "Stable",
            MemberState::UnrevokedTasks => "UnrevokedTasks",
            MemberState::UnreleasedTasks => "UnreleasedTasks",
        }
    }
}

/// A member's metadata is its record's value (StreamsGroupMemberMetadataValue): one
/// type for what the member holds and what the log records.
pub type MemberMetadata = super::records::MemberMetadataValue;

impl MemberMetadata {
    /// The fields whose change rebalances a static member (Kafka: a static restart
    /// with the same placement is not a membership change).
    pub fn placement_differs(&self, other: &MemberMetadata) -> bool {
        self.topology_epoch != other.topology_epoch
            || self.rack_id != other.rack_id
            || self.client_tags != other.client_tags
            || self.process_id != other.process_id
    }
}

/// Active tasks by the member epoch at which the member got them (Kafka 4.2+'s
/// assignment epochs, which fence offset commits: PROTOCOL.md §11).
pub type TaskEpochs = BTreeMap<i32, TaskSet>;

/// StreamsGroupCurrentMemberAssignmentValue.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CurrentAssignment {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: MemberState,
    /// What the member was given (kept + added); pending revocations are not in it.
    pub assigned: TasksTuple,
    pub pending_revocation: TasksTuple,
    /// The epoch of each active task, assigned or pending revocation.
    pub active_epochs: TaskEpochs,
}

impl CurrentAssignment {
    /// The epoch at which the member got active task (s, p), if it holds it as active
    /// (assigned or pending revocation); a task without a recorded epoch (an older log)
    /// has the member epoch.
    pub fn active_epoch(&self, s: &str, p: i32) -> Option<i32> {
        if let Some((e, _)) = self.active_epochs.iter().find(|(_, t)| t.contains(s, p)) {
            return Some(*e);
        }
        (self.assigned.active.contains(s, p) || self.pending_revocation.active.contains(s, p))
            .then_some(self.member_epoch)
    }
}

/// The epochs after a reconciliation step: `kept` active tasks keep theirs (the member
/// epoch if none was recorded), `added` ones get `epoch`.
pub fn carry_epochs(
    current: &CurrentAssignment,
    kept: &TaskSet,
    added: &TaskSet,
    epoch: i32,
) -> TaskEpochs {
    let mut out = TaskEpochs::new();
    let mut covered = TaskSet::new();
    let put = |out: &mut TaskEpochs, e: i32, set: TaskSet| {
        if set.is_empty() {
            return;
        }
        let merged = match out.get(&e) {
            Some(old) => old.union(&set),
            None => set,
        };
        out.insert(e, merged);
    };
    for (e, set) in &current.active_epochs {
        let k = set.intersection(kept);
        covered = covered.union(&k);
        put(&mut out, *e, k);
    }
    put(&mut out, current.member_epoch, kept.difference(&covered));
    put(&mut out, epoch, added.clone());
    out
}

/// What Kafka keeps in memory only; recorded here so a rebuilt coordinator answers
/// exactly as the original would.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberRuntime {
    pub task_offsets: BTreeMap<TaskId, i64>,
    pub task_end_offsets: BTreeMap<TaskId, i64>,
    /// The owned tasks the member last reported (null lists mean "unchanged").
    pub reported: TasksTuple,
    /// The status list last sent (None before the first response).
    pub last_status: Option<Vec<Status>>,
    /// Hash of the `partitionsByUserEndpoint` last sent (None before the first).
    pub endpoints_sent_hash: Option<u64>,
}

/// Session and rebalance timeouts on the coordinator's clock.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberTimers {
    pub session_deadline_ms: i64,
    /// Armed while the member must revoke: (deadline, the member epoch it was armed at).
    pub rebalance_deadline: Option<(i64, i32)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamsMember {
    pub member_id: String,
    pub meta: MemberMetadata,
    pub current: CurrentAssignment,
    pub runtime: MemberRuntime,
    pub timers: MemberTimers,
    /// Soft state: the group's endpoint-information version this member was last
    /// checked against (not recorded; after a rebuild the hash decides).
    pub endpoints_seen_version: Option<u64>,
    /// Soft state: whether the member last reported owning exactly its assignment
    /// (kept by replay, so a steady heartbeat need not compare task sets).
    pub acked: bool,
}

impl StreamsMember {
    pub fn new(member_id: &str) -> Self {
        StreamsMember {
            member_id: member_id.to_owned(),
            acked: true,
            ..Default::default()
        }
    }

    pub fn update_acked(&mut self) {
        self.acked = self.runtime.reported == self.current.assigned;
    }

    /// Reconciled to `epoch` with nothing in flight.
    pub fn is_reconciled_to(&self, epoch: i32) -> bool {
        self.current.state == MemberState::Stable && self.current.member_epoch == epoch
    }
}
