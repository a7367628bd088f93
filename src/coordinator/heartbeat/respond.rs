//! `respond`: the answer to a join or heartbeat once `commit` has run, and the record
//! of what the member was sent (so an unchanged heartbeat gets a short answer, also
//! from a rebuilt coordinator).

use super::check::Plan;
use super::{not_found, offsets_of};
use crate::coordinator::member::{MemberRuntime, StreamsMember};
use crate::coordinator::records::*;
use crate::coordinator::response::{cached_endpoints, statuses};
use crate::coordinator::static_membership;
use crate::coordinator::tasks::TasksTuple;
use crate::coordinator::Coordinator;
use crate::protocol::{EndpointToPartitions, ProtocolError, Status, StreamsGroupHeartbeatResponse};
use std::sync::Arc;

/// The group's endpoint information and its hash, when the member may not have seen
/// this version yet.
type Endpoints = Option<(Arc<Vec<EndpointToPartitions>>, u64)>;

/// What the member was sent, as its runtime record will say.
struct Sent {
    /// The member's new runtime, when it changes.
    runtime: Option<MemberRuntime>,
    partitions_by_user_endpoint: Option<Vec<EndpointToPartitions>>,
}

/// The member's runtime after this response: the tasks and offsets it reported, the
/// status and the endpoint information it is sent.
fn sent(
    m: &StreamsMember,
    plan: &Plan,
    reported: Option<TasksTuple>,
    status: &[Status],
    endpoints: Endpoints,
) -> Sent {
    let req = plan.req;
    let mut runtime: Option<MemberRuntime> = None;
    fn runtime_mut<'a>(
        r: &'a mut Option<MemberRuntime>,
        base: &MemberRuntime,
    ) -> &'a mut MemberRuntime {
        r.get_or_insert_with(|| base.clone())
    }
    if let Some(o) = reported {
        if o != m.runtime.reported {
            runtime_mut(&mut runtime, &m.runtime).reported = o;
        }
    }
    if let Some(list) = &req.task_offsets {
        let map = offsets_of(list);
        if map != m.runtime.task_offsets {
            runtime_mut(&mut runtime, &m.runtime).task_offsets = map;
        }
    }
    if let Some(list) = &req.task_end_offsets {
        let map = offsets_of(list);
        if map != m.runtime.task_end_offsets {
            runtime_mut(&mut runtime, &m.runtime).task_end_offsets = map;
        }
    }
    if m.runtime.last_status.as_deref() != Some(status) {
        runtime_mut(&mut runtime, &m.runtime).last_status = Some(status.to_vec());
    }
    let partitions_by_user_endpoint = match endpoints {
        Some((e, h)) if plan.joining || m.runtime.endpoints_sent_hash != Some(h) => {
            runtime_mut(&mut runtime, &m.runtime).endpoints_sent_hash = Some(h);
            Some((*e).clone())
        }
        _ => None,
    };
    Sent {
        runtime,
        partitions_by_user_endpoint,
    }
}

impl Coordinator {
    /// The response: tasks when the member joined, lost the last response or has not
    /// acknowledged its assignment; statuses and endpoint information when they changed.
    pub(super) fn respond(
        &mut self,
        mut plan: Plan,
        may_create: bool,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let (req, joining) = (plan.req, plan.joining);
        let gid = req.group_id.as_str();
        let member_id = plan.member.id.as_str();
        let (seen, endpoints) = self.endpoints_to_send(gid, member_id, joining)?;
        let Some(g) = self.groups.get(gid) else {
            return Err(not_found(gid));
        };
        let Some(m) = g.members.get(member_id) else {
            return Err(static_membership::unknown_member(member_id, gid));
        };
        let delayed = if g.assignment_delayed(self.now_ms) {
            Some("Assignment delayed due to the configured initial rebalance delay.".to_owned())
        } else {
            self.target_held(g)
        };
        let status = statuses(g, m, may_create, delayed);
        let send_status =
            joining || !status.is_empty() || m.runtime.last_status.as_ref() != Some(&status);
        let reported = plan.reported.take();
        let sent = sent(m, &plan, reported, &status, endpoints);
        let acked = match &sent.runtime {
            Some(r) => r.reported == m.current.assigned,
            None => m.acked,
        };
        let send_tasks = joining || plan.lost_response || !acked;
        let (active, standby, warmup) = if send_tasks {
            let (a, s, w) = m.current.assigned.to_wire();
            (Some(a), Some(s), Some(w))
        } else {
            (None, None, None)
        };
        let response = StreamsGroupHeartbeatResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            member_id: Some(member_id.to_owned()),
            member_epoch: m.current.member_epoch,
            heartbeat_interval_ms: self.heartbeat_interval_of(gid),
            acceptable_recovery_lag: self.recovery_lag_of(gid),
            task_offset_interval_ms: self.config.task_offset_interval_ms,
            status: send_status.then_some(status),
            active_tasks: active,
            standby_tasks: standby,
            warmup_tasks: warmup,
            partitions_by_user_endpoint: sent.partitions_by_user_endpoint,
            ..Default::default()
        };
        self.record_sent(gid, member_id, seen, sent.runtime);
        Ok(response)
    }

    /// The endpoints version the member is checked against now (when it was not
    /// before), and the endpoint information when it joins or was not checked against
    /// this version.
    fn endpoints_to_send(
        &mut self,
        gid: &str,
        member_id: &str,
        joining: bool,
    ) -> Result<(Option<u64>, Endpoints), ProtocolError> {
        let cluster = &self.cluster;
        let Some(g) = self.groups.get_mut(gid) else {
            return Err(not_found(gid));
        };
        let version = g.endpoints_version;
        let seen = g
            .members
            .get(member_id)
            .and_then(|m| m.endpoints_seen_version);
        let endpoints = if joining || seen != Some(version) {
            Some(cached_endpoints(g, cluster))
        } else {
            None
        };
        Ok(((seen != Some(version)).then_some(version), endpoints))
    }

    /// Notes the endpoints version the member was checked against, when new, and
    /// records its new runtime.
    fn record_sent(
        &mut self,
        gid: &str,
        member_id: &str,
        seen: Option<u64>,
        runtime: Option<MemberRuntime>,
    ) {
        if let Some(version) = seen {
            if let Some(m) = self
                .groups
                .get_mut(gid)
                .and_then(|g| g.members.get_mut(member_id))
            {
                m.endpoints_seen_version = Some(version);
            }
        }
        if let Some(r) = runtime {
            self.write(
                RecordKey::MemberRuntime {
                    group_id: gid.to_owned(),
                    member_id: member_id.to_owned(),
                },
                Some(RecordValue::MemberRuntime((&r).into())),
            );
        }
    }
}
