//! `check`: every check of a join or heartbeat (PROTOCOL.md §3), and the plan of what
//! it will change. It reads the coordinator only (`&self`), so "nothing changes until
//! all checks pass" holds by construction; `commit` then writes the plan.

use super::{not_found, not_streams, owned_lists, updated_metadata};
use crate::coordinator::group::StreamsGroup;
use crate::coordinator::member::MemberMetadata;
use crate::coordinator::static_membership::{self, Who};
use crate::coordinator::tasks::{wire_equals, TasksTuple};
use crate::coordinator::topology_epoch::{self, TopologyAction};
use crate::coordinator::{Coordinator, RequestContext};
use crate::protocol::heartbeat::JOIN_GROUP_MEMBER_EPOCH;
use crate::protocol::ErrorCode::*;
use crate::protocol::{ProtocolError, StreamsGroupHeartbeatRequest, TaskOffset, Topology};
use std::collections::BTreeSet;

/// What a join or heartbeat that passed every check will change.
pub(super) struct Plan<'r> {
    pub req: &'r StreamsGroupHeartbeatRequest,
    /// Member epoch 0: a join (or rejoin).
    pub joining: bool,
    /// The member resends its previous epoch with a subset of its tasks: the last
    /// response was lost, so this one carries the assignment again.
    pub lost_response: bool,
    /// A topology to record (new, or a higher epoch), already configured and within
    /// the task limits.
    pub new_topology: Option<&'r Topology>,
    pub member: MemberPlan,
    /// The tasks the member now reports owning, when they differ from what it last
    /// reported (a join reports none).
    pub reported: Option<TasksTuple>,
}

/// The member a request is for, and the records that make or update it.
pub(super) struct MemberPlan {
    pub id: String,
    /// The id generator's new count, when `id` came from the generator.
    pub generated: Option<u64>,
    /// A static member restarting: what it takes over from the member that left.
    pub take_over: Option<TakeOver>,
    /// New metadata, when it changes.
    pub metadata: Option<MetadataUpdate>,
    /// A member the group does not know yet: it starts with an empty assignment.
    pub is_new: bool,
}

/// A static member's restart (PROTOCOL.md §10): the new member id inherits the old
/// member's metadata, target and assigned tasks, at member epoch 0.
pub(super) struct TakeOver {
    pub old_id: String,
    pub meta: MemberMetadata,
    pub assigned: TasksTuple,
    pub target: Option<TasksTuple>,
}

pub(super) struct MetadataUpdate {
    pub meta: MemberMetadata,
    /// Whether the change bumps the group epoch: any change for a dynamic member,
    /// placement only for a static one.
    pub rebalance: bool,
}

/// Why a join or heartbeat was refused (also a consumer group's).
pub(crate) enum Refusal {
    /// An error answer; nothing changes.
    Error(ProtocolError),
    /// FENCED_MEMBER_EPOCH: the one refusal that changes the group, which removes the
    /// member before answering.
    Fenced {
        member_id: String,
        error: ProtocolError,
    },
}

impl From<ProtocolError> for Refusal {
    fn from(e: ProtocolError) -> Self {
        Refusal::Error(e)
    }
}

fn check_offsets(list: &Option<Vec<TaskOffset>>, field: &str) -> Result<(), ProtocolError> {
    if let Some(l) = list {
        let mut seen = BTreeSet::new();
        for o in l {
            if !seen.insert((o.subtopology_id.as_str(), o.partition)) {
                return Err(ProtocolError::invalid_request(format!(
                    "Task {}_{} appears twice in {field}.",
                    o.subtopology_id, o.partition
                )));
            }
        }
    }
    Ok(())
}

/// FENCED_MEMBER_EPOCH unless the member sends its current epoch, or its previous one
/// with a subset of its tasks (a lost response: returns true).
fn check_member_epoch(who: Who, req: &StreamsGroupHeartbeatRequest) -> Result<bool, Refusal> {
    let Who::Existing(m) = who else {
        return Ok(false);
    };
    let cur = m.current.member_epoch;
    if req.member_epoch == cur {
        return Ok(false);
    }
    let owned_subset = owned_lists(req)
        .is_some_and(|(a, s, w)| TasksTuple::from_lists(a, s, w).is_subset(&m.current.assigned));
    if req.member_epoch == m.current.previous_member_epoch && req.member_epoch < cur && owned_subset
    {
        return Ok(true);
    }
    let which = if req.member_epoch > cur {
        "greater"
    } else {
        "smaller"
    };
    let error = ProtocolError::new(
        FENCED_MEMBER_EPOCH,
        format!(
            "The streams group member has a {which} member epoch ({}) than the one known by the group coordinator ({cur}). The member was removed from the group and must rejoin with epoch 0.",
            req.member_epoch
        ),
    );
    Err(Refusal::Fenced {
        member_id: m.member_id.clone(),
        error,
    })
}

/// Whether the member's topology epoch is behind the group's once this request is
/// applied (a stale member's owned tasks are not checked against the topology).
fn member_is_stale(
    group: Option<&StreamsGroup>,
    who: Who,
    req: &StreamsGroupHeartbeatRequest,
    new_topology: Option<&Topology>,
) -> bool {
    let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
    let member_topology_epoch = match (&req.topology, who) {
        (Some(t), _) if joining => t.epoch,
        (_, Who::Existing(m)) => m.meta.topology_epoch,
        _ => 0,
    };
    let group_topology_epoch = new_topology
        .map(|t| t.epoch)
        .or_else(|| group.and_then(|g| g.topology_epoch()))
        .unwrap_or(0);
    member_topology_epoch < group_topology_epoch
}

/// INVALID_REQUEST for an owned task that is not a task of the group's topology:
/// against the configured topology when it is ready, else (NotReady: the task counts
/// are not known yet) against the subtopology ids of the topology the group has.
fn check_owned_tasks(
    group: Option<&StreamsGroup>,
    req: &StreamsGroupHeartbeatRequest,
) -> Result<(), ProtocolError> {
    let (Some((a, s, w)), Some(g)) = (owned_lists(req), group) else {
        return Ok(());
    };
    let ready = g.ready_topology();
    let Some(topology) = &g.topology else {
        return Ok(());
    };
    let ids: std::collections::BTreeSet<&str> = match ready {
        Some(_) => Default::default(),
        None => topology
            .subtopologies
            .iter()
            .map(|s| s.subtopology_id.as_str())
            .collect(),
    };
    for (field, list) in [("ActiveTasks", a), ("StandbyTasks", s), ("WarmupTasks", w)] {
        for (id, partitions) in list.iter() {
            // How many tasks the subtopology has (any number while NotReady).
            let tasks = match ready {
                Some(cfg) => cfg.subtopology(id).map(|s| s.num_tasks),
                None => ids.contains(id).then_some(u32::MAX),
            };
            for &p in partitions {
                if !tasks.is_some_and(|n| p >= 0 && (p as u32) < n) {
                    return Err(ProtocolError::invalid_request(format!(
                        "{field} contains task {id}_{p}, which is not a task of the group's topology."
                    )));
                }
            }
        }
    }
    Ok(())
}

impl Coordinator {
    /// Every check of a join or heartbeat (in the order the first failing one is
    /// answered), and the plan of what it changes.
    pub(super) fn check<'r>(
        &self,
        req: &'r StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> Result<Plan<'r>, Refusal> {
        let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
        let gid = req.group_id.as_str();
        if self.consumer_groups.contains_key(gid) {
            return Err(not_streams(gid).into());
        }
        let group = self.groups.get(gid);
        if group.is_none() && !joining {
            return Err(not_found(gid).into());
        }
        let who = static_membership::lookup(group, req)?;
        if joining && matches!(who, Who::New) {
            self.check_room(group, gid)?;
        }
        let lost_response = if joining {
            false
        } else {
            check_member_epoch(who, req)?
        };
        let new_topology = self.check_topology(group, req)?;
        if !joining && !member_is_stale(group, who, req, new_topology) {
            check_owned_tasks(group, req)?;
        }
        check_offsets(&req.task_offsets, "TaskOffsets")?;
        check_offsets(&req.task_end_offsets, "TaskEndOffsets")?;
        let member = self.plan_member(group, who, req, ctx);
        self.check_budget(&req.group_id, group, &member, new_topology)?;
        let reported = reported_tasks(who, req);
        Ok(Plan {
            req,
            joining,
            lost_response,
            new_topology,
            member,
            reported,
        })
    }

    /// GROUP_MAX_SIZE_REACHED when the member metadata and topologies held, or the
    /// live records, would grow past the memory budget (`maxStateBytes`, each byte
    /// counted `STATE_COPIES` times): so the log stays within what `fromRecords`
    /// reads (`limits::records_limit`). A request that adds nothing, or shrinks
    /// them, always passes.
    fn check_budget(
        &self,
        gid: &str,
        group: Option<&StreamsGroup>,
        member: &MemberPlan,
        new_topology: Option<&Topology>,
    ) -> Result<(), ProtocolError> {
        use crate::limits::{metadata_bytes, topology_bytes, STATE_COPIES};
        if member.metadata.is_none() && member.take_over.is_none() && new_topology.is_none() {
            // Nothing the budget counts changes (a steady heartbeat): not even sized.
            return Ok(());
        }
        let old_meta = match (
            &member.take_over,
            group.and_then(|g| g.members.get(&member.id)),
        ) {
            (Some(t), _) => metadata_bytes(&t.meta) + member_key_bytes(gid, &t.old_id),
            (None, Some(m)) => metadata_bytes(&m.meta) + member_key_bytes(gid, &member.id),
            (None, None) => 0,
        };
        let new_meta = member.metadata.as_ref().map_or(old_meta, |u| {
            metadata_bytes(&u.meta) + member_key_bytes(gid, &member.id)
        });
        let old_topology = group
            .and_then(|g| g.topology.as_ref())
            .map_or(0, topology_bytes);
        let new_topology = new_topology.map_or(old_topology, topology_bytes);
        let (old, new) = (old_meta + old_topology, new_meta + new_topology);
        if new <= old {
            return Ok(());
        }
        let accounted = self.state_bytes.saturating_sub(old).saturating_add(new);
        let records = self.live_records_bytes().saturating_add(new - old);
        let after = accounted.max(records).saturating_mul(STATE_COPIES);
        let budget = u64::try_from(self.config.max_state_bytes).unwrap_or(0);
        if after > budget {
            return Err(ProtocolError::new(
                GROUP_MAX_SIZE_REACHED,
                format!(
                    "This coordinator's memory budget of {budget} bytes (maxStateBytes) would be passed: its members' metadata and topologies, or its live records, would hold about {} bytes (each counted {STATE_COPIES} times).",
                    after
                ),
            ));
        }
        Ok(())
    }

    /// A new member needs room: in the coordinator for a new group, in the group for
    /// a new member.
    fn check_room(&self, group: Option<&StreamsGroup>, gid: &str) -> Result<(), ProtocolError> {
        let max = self
            .config
            .group_max_size
            .map_or(crate::limits::MAX_MEMBERS_PER_GROUP, |m| {
                (m as usize).min(crate::limits::MAX_MEMBERS_PER_GROUP)
            });
        if group.is_none() && self.groups.len() >= crate::limits::MAX_GROUPS {
            return Err(ProtocolError::new(
                COORDINATOR_NOT_AVAILABLE,
                format!(
                    "This coordinator holds its limit of {} streams groups; group {gid} cannot be created.",
                    crate::limits::MAX_GROUPS
                ),
            ));
        }
        if let Some(g) = group {
            if g.members.len() >= max {
                return Err(ProtocolError::new(
                    GROUP_MAX_SIZE_REACHED,
                    format!(
                        "The streams group {gid} has reached its maximum size of {max} members."
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The topology a join brings, when it is one to record (checked against the
    /// group's topology epoch, configured, within the task limits); otherwise the
    /// group's own configuration error, if it has one.
    fn check_topology<'r>(
        &self,
        group: Option<&StreamsGroup>,
        req: &'r StreamsGroupHeartbeatRequest,
    ) -> Result<Option<&'r Topology>, ProtocolError> {
        let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
        let topology_action = match (&req.topology, joining) {
            (Some(t), true) => Some(topology_epoch::compare(
                group.and_then(|g| g.topology.as_ref()),
                t,
            )?),
            _ => None,
        };
        let new_topology = match (topology_action, &req.topology) {
            (Some(TopologyAction::Store | TopologyAction::Replace), Some(t)) => {
                let configured = crate::topology::configure(t, &self.cluster)?;
                crate::limits::check_tasks(&configured)?;
                Some(t)
            }
            _ => None,
        };
        if new_topology.is_none() {
            if let Some(Some(Err(e))) = group.map(|g| &g.configured) {
                return Err(e.clone());
            }
        }
        Ok(new_topology)
    }

    /// The member's id and the records that make or update it.
    fn plan_member(
        &self,
        group: Option<&StreamsGroup>,
        who: Who,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> MemberPlan {
        let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
        match who {
            Who::New => {
                let (id, generated) = self.member_id_for(group, req);
                let base = MemberMetadata {
                    process_id: id.clone(),
                    rebalance_timeout_ms: req.rebalance_timeout_ms,
                    ..Default::default()
                };
                let meta = updated_metadata(&base, req, ctx, joining).unwrap_or(base);
                MemberPlan {
                    id,
                    generated,
                    take_over: None,
                    metadata: Some(MetadataUpdate {
                        meta,
                        rebalance: true,
                    }),
                    is_new: true,
                }
            }
            Who::Existing(m) => {
                let metadata =
                    updated_metadata(&m.meta, req, ctx, joining).map(|n| MetadataUpdate {
                        rebalance: n.instance_id.is_none() || m.meta.placement_differs(&n),
                        meta: n,
                    });
                MemberPlan {
                    id: m.member_id.clone(),
                    generated: None,
                    take_over: None,
                    metadata,
                    is_new: false,
                }
            }
            Who::TakeOver(old) => {
                let (id, generated) = self.member_id_for(group, req);
                let take_over = TakeOver {
                    meta: old.meta.clone(),
                    assigned: old.current.assigned.clone(),
                    target: group.and_then(|g| g.target.get(&old.member_id)).cloned(),
                    old_id: old.member_id.clone(),
                };
                let metadata =
                    updated_metadata(&take_over.meta, req, ctx, joining).map(|n| MetadataUpdate {
                        rebalance: take_over.meta.placement_differs(&n),
                        meta: n,
                    });
                MemberPlan {
                    id,
                    generated,
                    take_over: Some(take_over),
                    metadata,
                    is_new: false,
                }
            }
        }
    }

    /// The id a joining member asked for, or the next free one from the seeded
    /// generator (with the generator's new count, which `commit` records).
    fn member_id_for(
        &self,
        group: Option<&StreamsGroup>,
        req: &StreamsGroupHeartbeatRequest,
    ) -> (String, Option<u64>) {
        if !req.member_id.is_empty() {
            return (req.member_id.clone(), None);
        }
        let taken = |id: &str| group.is_some_and(|g| g.members.contains_key(id));
        let mut n = self.ids_generated;
        let mut id = crate::coordinator::ids::member_id(self.config.seed, n);
        while taken(&id) {
            n += 1;
            id = crate::coordinator::ids::member_id(self.config.seed, n);
        }
        (id, Some(n + 1))
    }
}

/// The tasks a member reports owning, when they differ from what it last reported: a
/// join owns none; a heartbeat without the three lists reports nothing new.
fn reported_tasks(who: Who, req: &StreamsGroupHeartbeatRequest) -> Option<TasksTuple> {
    if req.member_epoch == JOIN_GROUP_MEMBER_EPOCH {
        return Some(TasksTuple::default());
    }
    // Only a join (answered above) can be for a member that is not `Existing`.
    let (Who::Existing(m), Some((a, s, w))) = (who, owned_lists(req)) else {
        return None;
    };
    (!wire_equals(a, s, w, &m.runtime.reported)).then(|| TasksTuple::from_lists(a, s, w))
}

/// Bytes the ids of a member take in its records' keys: group and member id in each
/// of `MEMBER_RECORDS` keys, about 128 bytes of names and punctuation besides.
fn member_key_bytes(gid: &str, mid: &str) -> u64 {
    const MEMBER_RECORDS: usize = 5;
    let ids = crate::limits::json_len(gid) + crate::limits::json_len(mid) + 128;
    (MEMBER_RECORDS * ids) as u64
}
