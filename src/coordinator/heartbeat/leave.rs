//! A leave (member epoch -1, or -2 for a static member that will come back): check
//! (nothing changes), commit, respond.

use super::{not_found, not_streams};
use crate::coordinator::member::{CurrentAssignment, MemberState, MemberTimers};
use crate::coordinator::static_membership;
use crate::coordinator::tasks::TasksTuple;
use crate::coordinator::Coordinator;
use crate::protocol::heartbeat::{LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use crate::protocol::ErrorCode::*;
use crate::protocol::{
    ProtocolError, Status, StatusCode, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
};

impl Coordinator {
    pub(super) fn leave(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let member_id = self.check_leave(req)?;
        self.commit_leave(req, &member_id);
        Ok(StreamsGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: self.heartbeat_interval_of(&req.group_id),
            acceptable_recovery_lag: self.recovery_lag_of(&req.group_id),
            task_offset_interval_ms: self.config.task_offset_interval_ms,
            status: Some(self.leave_status(&req.group_id)),
            ..Default::default()
        })
    }

    /// The leaving member: by member id, or by instance id for a static member (which
    /// must be the instance's owner).
    fn check_leave(&self, req: &StreamsGroupHeartbeatRequest) -> Result<String, ProtocolError> {
        let gid = req.group_id.as_str();
        if self.consumer_groups.contains_key(gid) {
            return Err(not_streams(gid));
        }
        let g = self.groups.get(gid).ok_or_else(|| not_found(gid))?;
        match &req.instance_id {
            None => {
                if !g.members.contains_key(&req.member_id) {
                    return Err(static_membership::unknown_member(&req.member_id, gid));
                }
                Ok(req.member_id.clone())
            }
            Some(instance) => {
                let owner = g.static_members.get(instance).ok_or_else(|| {
                    ProtocolError::new(
                        UNKNOWN_MEMBER_ID,
                        format!("Instance id {instance} is unknown."),
                    )
                })?;
                if *owner != req.member_id {
                    return Err(ProtocolError::new(
                        FENCED_INSTANCE_ID,
                        format!(
                            "Static member {} with instance id {instance} is fenced: the instance id belongs to member {owner}.",
                            req.member_id
                        ),
                    ));
                }
                Ok(owner.clone())
            }
        }
    }

    /// Records the shutdown request (the first one wins), then removes the member
    /// (-1) or keeps a static member's tasks for its session timeout (-2).
    fn commit_leave(&mut self, req: &StreamsGroupHeartbeatRequest, member_id: &str) {
        let gid = req.group_id.as_str();
        if let Some(g) = self.groups.get(gid) {
            if req.shutdown_application && g.shutdown_requester.is_none() {
                let epoch = g.group_epoch;
                self.write_group_metadata(gid, epoch, Some(member_id.to_owned()));
            }
        }
        if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH {
            self.remove_member(gid, member_id);
        } else if let Some(m) = self.groups.get(gid).and_then(|g| g.members.get(member_id)) {
            let current = CurrentAssignment {
                member_epoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH,
                previous_member_epoch: m.current.member_epoch,
                state: MemberState::Stable,
                assigned: m.current.assigned.clone(),
                pending_revocation: TasksTuple::default(),
                active_epochs: crate::coordinator::member::carry_epochs(
                    &m.current,
                    &m.current.assigned.active,
                    &crate::task::TaskSet::new(),
                    m.current.member_epoch,
                ),
            };
            let timers = MemberTimers {
                session_deadline_ms: m.timers.session_deadline_ms,
                rebalance_deadline: None,
            };
            let timers_changed = timers != m.timers;
            self.write_member_state(
                gid,
                member_id,
                Some(&current),
                timers_changed.then_some(&timers),
            );
        }
    }

    /// SHUTDOWN_APPLICATION while members remain and one asked for it.
    fn leave_status(&self, gid: &str) -> Vec<Status> {
        match self.groups.get(gid) {
            Some(g) if !g.members.is_empty() => g
                .shutdown_requester
                .as_ref()
                .map(|r| {
                    vec![Status {
                        status_code: StatusCode::SHUTDOWN_APPLICATION.code(),
                        status_detail: format!(
                            "Streams group member {r} encountered a fatal error and requested a shutdown for the entire application."
                        ),
                    }]
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}
