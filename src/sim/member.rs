//! One simulated member (a stream thread) as Kafka's StreamsMembershipManager runs it:
//! join with epoch 0 and the topology, heartbeat every interval, reconcile what the
//! coordinator assigns (revoke first, then confirm by reporting the owned tasks), rejoin
//! after being fenced, leave with -1 (or -2 for a static member).

use crate::protocol::{
    ErrorCode, Status, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, TaskIds,
};
use crate::task::TaskSet;
use serde::Serialize;

/// The three task lists a member owns or is given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tasks {
    pub active: TaskSet,
    pub standby: TaskSet,
    pub warmup: TaskSet,
}

impl Tasks {
    pub fn from_response(r: &StreamsGroupHeartbeatResponse) -> Option<Tasks> {
        // The coordinator sends all three lists or none.
        match (&r.active_tasks, &r.standby_tasks, &r.warmup_tasks) {
            (Some(a), Some(s), Some(w)) => Some(Tasks {
                active: TaskSet::from_task_ids(a),
                standby: TaskSet::from_task_ids(s),
                warmup: TaskSet::from_task_ids(w),
            }),
            _ => None,
        }
    }

    pub fn all(&self) -> TaskSet {
        self.active.union(&self.standby).union(&self.warmup)
    }

    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    fn wire(&self) -> (Vec<TaskIds>, Vec<TaskIds>, Vec<TaskIds>) {
        (
            self.active.to_task_ids(),
            self.standby.to_task_ids(),
            self.warmup.to_task_ids(),
        )
    }
}

/// What the member itself believes (the client's view, not the coordinator's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MemberState {
    /// About to send (or has sent) a heartbeat with epoch 0.
    Joining,
    /// Owns exactly what it was last given.
    Stable,
    /// Closing revoked tasks / starting new ones before it confirms.
    Reconciling,
    /// Sent its leave heartbeat; gone.
    Left,
    /// Silent: the process crashed.
    Crashed,
    /// A fatal error: the member stopped (as a real client's thread would die).
    Failed,
}

/// A reconciliation in progress: owned becomes `target` at `at_ms`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub target: Tasks,
    pub at_ms: i64,
    /// Tasks being closed (owned but not in the target).
    pub revoking: Tasks,
}

#[derive(Debug, Clone)]
pub struct Member {
    pub member_id: String,
    pub instance_id: Option<String>,
    /// 1-based stream thread index.
    pub thread: u32,
    pub epoch: i32,
    pub state: MemberState,
    pub owned: Tasks,
    /// The owned tasks last reported, None when the next heartbeat must report them.
    pub reported: Option<Tasks>,
    pub pending: Option<Pending>,
    pub next_heartbeat_ms: Option<i64>,
    pub heartbeat_interval_ms: i64,
    pub statuses: Vec<Status>,
    pub last_error: Option<(i16, String)>,
    /// When offsets were last reported (None: never).
    pub offsets_reported_ms: Option<i64>,
    pub task_offset_interval_ms: i64,
    /// A caught-up warm-up must be reported at once (the probing rebalance's trigger).
    pub offsets_due: bool,
    /// Sends leave with this epoch on its next heartbeat (-1 or -2).
    pub leaving: Option<i32>,
    /// Number of heartbeats sent, for the inspector.
    pub sent: u64,
}

/// How a response changes a member: what the simulation must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Lost its tasks and rejoins with epoch 0 (fenced or unknown).
    Rejoin,
    /// Will retry later (coordinator unavailable, instance not yet released).
    Retry,
    /// Stopped for good.
    Fatal,
}

impl Member {
    pub fn new(member_id: String, instance_id: Option<String>, thread: u32, now: i64) -> Member {
        Member {
            member_id,
            instance_id,
            thread,
            epoch: 0,
            state: MemberState::Joining,
            owned: Tasks::default(),
            reported: None,
            pending: None,
            next_heartbeat_ms: Some(now),
            heartbeat_interval_ms: 5000,
            statuses: Vec::new(),
            last_error: None,
            offsets_reported_ms: None,
            task_offset_interval_ms: 60_000,
            offsets_due: false,
            leaving: None,
            sent: 0,
        }
    }

    pub fn is_alive(&self) -> bool {
        !matches!(
            self.state,
            MemberState::Left | MemberState::Crashed | MemberState::Failed
        )
    }

    /// The earliest time this member has something to do.
    pub fn next_due(&self) -> Option<i64> {
        if !self.is_alive() {
            return None;
        }
        let p = self.pending.as_ref().map(|p| p.at_ms);
        match (self.next_heartbeat_ms, p) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Finishes a reconciliation whose time has come: the member now runs exactly the
    /// target and confirms at once (Kafka's client heartbeats right after reconciling).
    pub fn finish_reconciliation(&mut self, now: i64) -> Option<Pending> {
        if self.pending.as_ref().is_some_and(|p| p.at_ms <= now) {
            let p = self.pending.take()?;
            self.owned = p.target.clone();
            self.state = MemberState::Stable;
            self.next_heartbeat_ms = Some(now);
            Some(p)
        } else {
            None
        }
    }

    /// Builds the next heartbeat. The topology goes only with epoch 0; owned tasks go
    /// whenever they differ from what was last reported (null otherwise).
    pub fn request(
        &self,
        base: &StreamsGroupHeartbeatRequest,
        rebalance_timeout_ms: i32,
    ) -> StreamsGroupHeartbeatRequest {
        let mut r = base.clone();
        r.member_id = self.member_id.clone();
        r.instance_id = self.instance_id.clone();
        if let Some(leave) = self.leaving {
            r.member_epoch = leave;
            r.topology = None;
            r.rack_id = None;
            r.process_id = None;
            r.client_tags = None;
            r.user_endpoint = None;
            return r;
        }
        r.member_epoch = self.epoch;
        if self.epoch == 0 {
            r.rebalance_timeout_ms = rebalance_timeout_ms;
            let (a, s, w) = Tasks::default().wire();
            r.active_tasks = Some(a.into());
            r.standby_tasks = Some(s.into());
            r.warmup_tasks = Some(w.into());
        } else {
            r.topology = None;
            r.rebalance_timeout_ms = -1;
            // Static metadata goes with the join only; null means unchanged.
            r.rack_id = None;
            r.client_tags = None;
            r.user_endpoint = None;
            r.process_id = None;
            if self.reported.as_ref() != Some(&self.owned) {
                let (a, s, w) = self.owned.wire();
                r.active_tasks = Some(a.into());
                r.standby_tasks = Some(s.into());
                r.warmup_tasks = Some(w.into());
            }
        }
        r
    }

    /// Takes note of what a request reported.
    pub fn sent_request(&mut self, r: &StreamsGroupHeartbeatRequest) {
        self.sent += 1;
        if r.active_tasks.is_some() {
            self.reported = Some(if r.member_epoch == 0 {
                Tasks::default()
            } else {
                self.owned.clone()
            });
        }
        if r.task_offsets.is_some() {
            self.offsets_due = false;
        }
    }

    /// Applies a response: epochs, statuses, the assignment to reconcile, or the error.
    pub fn handle(
        &mut self,
        resp: &StreamsGroupHeartbeatResponse,
        now: i64,
        revocation_delay_ms: i64,
        assignment_delay_ms: i64,
    ) -> Outcome {
        if resp.heartbeat_interval_ms > 0 {
            self.heartbeat_interval_ms = i64::from(resp.heartbeat_interval_ms);
        }
        if resp.task_offset_interval_ms > 0 {
            self.task_offset_interval_ms = i64::from(resp.task_offset_interval_ms);
        }
        let next = now.saturating_add(self.heartbeat_interval_ms);
        if let Some(leave) = self.leaving {
            // Whatever the answer, a leaving member is gone.
            let _ = leave;
            self.state = MemberState::Left;
            self.next_heartbeat_ms = None;
            self.pending = None;
            self.owned = Tasks::default();
            self.leaving = None;
            return Outcome::Ok;
        }
        if resp.error_code != 0 {
            self.last_error = Some((
                resp.error_code,
                resp.error_message.clone().unwrap_or_default(),
            ));
            return match ErrorCode::from_code(resp.error_code) {
                Some(ErrorCode::FENCED_MEMBER_EPOCH) | Some(ErrorCode::UNKNOWN_MEMBER_ID) => {
                    // Kafka's client: all tasks are lost, rejoin at once with epoch 0.
                    self.owned = Tasks::default();
                    self.pending = None;
                    self.reported = None;
                    self.epoch = 0;
                    self.state = MemberState::Joining;
                    self.next_heartbeat_ms = Some(now.saturating_add(1));
                    Outcome::Rejoin
                }
                Some(ErrorCode::COORDINATOR_NOT_AVAILABLE)
                | Some(ErrorCode::NOT_COORDINATOR)
                | Some(ErrorCode::UNRELEASED_INSTANCE_ID) => {
                    self.next_heartbeat_ms = Some(next);
                    Outcome::Retry
                }
                _ => {
                    self.state = MemberState::Failed;
                    self.next_heartbeat_ms = None;
                    self.pending = None;
                    self.owned = Tasks::default();
                    Outcome::Fatal
                }
            };
        }
        self.last_error = None;
        if let Some(id) = &resp.member_id {
            if !id.is_empty() {
                self.member_id = id.clone();
            }
        }
        if let Some(s) = &resp.status {
            self.statuses = s.clone();
        }
        self.epoch = resp.member_epoch;
        self.next_heartbeat_ms = Some(next);
        if let Some(target) = Tasks::from_response(resp) {
            let base = self
                .pending
                .as_ref()
                .map(|p| p.target.clone())
                .unwrap_or_else(|| self.owned.clone());
            if target == self.owned {
                // Already running exactly this: nothing to reconcile.
                self.pending = None;
                if self.state != MemberState::Joining || resp.member_epoch > 0 {
                    self.state = MemberState::Stable;
                }
            } else if target != base || self.pending.is_none() {
                let revoking = Tasks {
                    active: self.owned.active.difference(&target.active),
                    standby: self.owned.standby.difference(&target.standby),
                    warmup: self.owned.warmup.difference(&target.warmup),
                };
                let delay = if revoking.is_empty() {
                    assignment_delay_ms
                } else {
                    revocation_delay_ms
                };
                let at_ms = match &self.pending {
                    // A reconciliation in progress finishes first.
                    Some(p) => p.at_ms.max(now.saturating_add(delay)),
                    None => now.saturating_add(delay),
                };
                self.pending = Some(Pending {
                    target,
                    at_ms,
                    revoking,
                });
                self.state = MemberState::Reconciling;
            }
        } else if self.state == MemberState::Joining && resp.member_epoch > 0 {
            self.state = MemberState::Stable;
        }
        Outcome::Ok
    }
}
