//! StreamsGroupHeartbeat handling (PROTOCOL.md §3): authorization, validation,
//! join / heartbeat / leave. A join or heartbeat is `check` (reads only, returns a
//! `Plan`), `commit` (writes the plan's records and what follows from them) and
//! `respond`; the one refusal that changes the group is FENCED_MEMBER_EPOCH, which
//! removes the member.

mod check;
mod commit;
mod leave;
mod respond;

use super::member::{CurrentAssignment, MemberMetadata, MemberTimers};
use super::records::*;
use super::{validation, Coordinator, RequestContext};
use crate::cluster::{Operation, ResourceType, ANONYMOUS};
use crate::protocol::heartbeat::{LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use crate::protocol::ErrorCode::*;
use crate::protocol::{
    ProtocolError, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, TaskList,
    TaskOffset, Topology,
};
use crate::task::TaskId;
use crate::topology::creation::CreationSettings;
pub(crate) use check::Refusal;
use std::collections::BTreeSet;

/// Every topic a topology names (regexes aside), sorted.
pub fn topology_topics(t: &Topology) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for s in &t.subtopologies {
        out.extend(s.source_topics.iter().map(String::as_str));
        out.extend(s.repartition_sink_topics.iter().map(String::as_str));
        out.extend(s.repartition_source_topics.iter().map(|t| t.name.as_str()));
        out.extend(s.state_changelog_topics.iter().map(|t| t.name.as_str()));
    }
    out
}

fn not_streams(group_id: &str) -> ProtocolError {
    ProtocolError::new(
        GROUP_ID_NOT_FOUND,
        format!("Group {group_id} is not a streams group."),
    )
}

fn not_found(group_id: &str) -> ProtocolError {
    ProtocolError::new(
        GROUP_ID_NOT_FOUND,
        format!("Streams group {group_id} not found."),
    )
}

fn owned_lists(req: &StreamsGroupHeartbeatRequest) -> Option<(&TaskList, &TaskList, &TaskList)> {
    match (&req.active_tasks, &req.standby_tasks, &req.warmup_tasks) {
        (Some(a), Some(s), Some(w)) => Some((a, s, w)),
        _ => None,
    }
}

pub(crate) fn offsets_of(list: &[TaskOffset]) -> std::collections::BTreeMap<TaskId, i64> {
    list.iter()
        .map(|o| (TaskId::new(o.subtopology_id.clone(), o.partition), o.offset))
        .collect()
}

/// The metadata after this request, or None when nothing changes (no clone on the
/// steady path).
fn updated_metadata(
    base: &MemberMetadata,
    req: &StreamsGroupHeartbeatRequest,
    ctx: &RequestContext,
    joining: bool,
) -> Option<MemberMetadata> {
    let differs = req
        .instance_id
        .as_ref()
        .is_some_and(|v| base.instance_id.as_ref() != Some(v))
        || req
            .rack_id
            .as_ref()
            .is_some_and(|v| base.rack_id.as_ref() != Some(v))
        || (req.rebalance_timeout_ms > 0 && req.rebalance_timeout_ms != base.rebalance_timeout_ms)
        || (joining
            && req
                .topology
                .as_ref()
                .is_some_and(|t| t.epoch != base.topology_epoch))
        || ctx.client_id.as_ref().is_some_and(|v| *v != base.client_id)
        || ctx
            .client_host
            .as_ref()
            .is_some_and(|v| *v != base.client_host)
        || req
            .process_id
            .as_ref()
            .is_some_and(|v| *v != base.process_id)
        || (joining && req.user_endpoint != base.user_endpoint)
        || (!joining
            && req
                .user_endpoint
                .as_ref()
                .is_some_and(|v| base.user_endpoint.as_ref() != Some(v)))
        || req
            .client_tags
            .as_ref()
            .is_some_and(|v| *v != base.client_tags);
    if !differs {
        return None;
    }
    let mut m = base.clone();
    if let Some(v) = &req.instance_id {
        m.instance_id = Some(v.clone());
    }
    if let Some(v) = &req.rack_id {
        m.rack_id = Some(v.clone());
    }
    if req.rebalance_timeout_ms > 0 {
        m.rebalance_timeout_ms = req.rebalance_timeout_ms;
    }
    if joining {
        if let Some(t) = &req.topology {
            m.topology_epoch = t.epoch;
        }
        m.user_endpoint = req.user_endpoint.clone();
    } else if let Some(e) = &req.user_endpoint {
        m.user_endpoint = Some(e.clone());
    }
    if let Some(v) = &ctx.client_id {
        m.client_id = v.clone();
    }
    if let Some(v) = &ctx.client_host {
        m.client_host = v.clone();
    }
    if let Some(v) = &req.process_id {
        m.process_id = v.clone();
    }
    if let Some(v) = &req.client_tags {
        m.client_tags = v.clone();
    }
    Some(m)
}

impl Coordinator {
    pub(crate) fn creation_settings(&self) -> CreationSettings {
        CreationSettings {
            delay_ms: self.config.internal_topic_creation_delay_ms,
            backoff_ms: self.config.internal_topic_creation_backoff_ms,
            max_backoff_ms: crate::config::MAX_CREATION_BACKOFF_MS,
            replication_factor: self.config.internal_topic_replication_factor.unwrap_or(0),
        }
    }

    /// Whether `principal` may create the group's missing internal topics.
    pub(crate) fn may_create(&self, principal: &str, group_id: &str) -> bool {
        if self.cluster.authorize(
            principal,
            ResourceType::Cluster,
            "kafka-cluster",
            Operation::Create,
        ) {
            return true;
        }
        let Some(Some(Ok(cfg))) = self.groups.get(group_id).map(|g| &g.configured) else {
            return false;
        };
        cfg.internal_topics_to_create.iter().all(|t| {
            self.cluster
                .authorize(principal, ResourceType::Topic, &t.name, Operation::Create)
        })
    }

    pub(crate) fn streams_heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let principal = ctx.principal.as_deref().unwrap_or(ANONYMOUS).to_owned();
        self.authorize_group_read(&principal, &req.group_id)?;
        validation::validate_heartbeat(req)?;
        crate::limits::check_heartbeat(req)?;
        if let Some(t) = &req.topology {
            let denied: Vec<&str> = topology_topics(t)
                .into_iter()
                .filter(|n| {
                    !self
                        .cluster
                        .authorize(&principal, ResourceType::Topic, n, Operation::Describe)
                })
                .collect();
            if !denied.is_empty() {
                return Err(ProtocolError::new(
                    TOPIC_AUTHORIZATION_FAILED,
                    format!("Not authorized to describe topics {}.", denied.join(", ")),
                ));
            }
        }
        if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH
            || req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH
        {
            self.leave(req)
        } else {
            self.join_or_heartbeat(req, ctx, &principal)
        }
    }

    /// READ on the group, which a heartbeat of either group type needs.
    pub(crate) fn authorize_group_read(
        &self,
        principal: &str,
        group_id: &str,
    ) -> Result<(), ProtocolError> {
        if self
            .cluster
            .authorize(principal, ResourceType::Group, group_id, Operation::Read)
        {
            return Ok(());
        }
        Err(ProtocolError::new(
            GROUP_AUTHORIZATION_FAILED,
            format!("Not authorized to read group {group_id}."),
        ))
    }

    /// Removes a member now: tombstones for all its records, then one group epoch bump.
    pub(crate) fn remove_member(&mut self, group_id: &str, member_id: &str) {
        self.tombstone_member(group_id, member_id);
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let empty = g.members.is_empty();
        let epoch = g.group_epoch.saturating_add(1);
        let value = GroupMetadataValue {
            epoch,
            metadata_hash: g.metadata_hash as i64,
            shutdown_requester: if empty {
                None
            } else {
                g.shutdown_requester.clone()
            },
        };
        self.write(
            RecordKey::GroupMetadata {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::GroupMetadata(value)),
        );
        if empty {
            self.write_target_metadata(group_id, epoch, None);
        }
    }

    /// Tombstones a member's records (no epoch bump).
    fn tombstone_member(&mut self, group_id: &str, member_id: &str) {
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let has_target = g.target.contains_key(member_id);
        let (g_id, m_id) = (group_id.to_owned(), member_id.to_owned());
        self.write(
            RecordKey::CurrentMemberAssignment {
                group_id: g_id.clone(),
                member_id: m_id.clone(),
            },
            None,
        );
        if has_target {
            self.write(
                RecordKey::TargetAssignmentMember {
                    group_id: g_id.clone(),
                    member_id: m_id.clone(),
                },
                None,
            );
        }
        self.write(
            RecordKey::MemberRuntime {
                group_id: g_id.clone(),
                member_id: m_id.clone(),
            },
            None,
        );
        self.write(
            RecordKey::MemberTimers {
                group_id: g_id.clone(),
                member_id: m_id.clone(),
            },
            None,
        );
        self.write(
            RecordKey::MemberMetadata {
                group_id: g_id,
                member_id: m_id,
            },
            None,
        );
    }

    pub(crate) fn write_group_metadata(
        &mut self,
        group_id: &str,
        epoch: i32,
        requester: Option<String>,
    ) {
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        // A bump records the metadata it answers; otherwise the last bump's stays.
        let metadata_hash = if epoch == g.group_epoch {
            g.metadata_hash
        } else {
            g.configured_hash ^ self.config_hash_of(group_id)
        };
        let value = GroupMetadataValue {
            epoch,
            metadata_hash: metadata_hash as i64,
            shutdown_requester: requester,
        };
        self.write(
            RecordKey::GroupMetadata {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::GroupMetadata(value)),
        );
    }

    /// A join or heartbeat: check (nothing changes), commit the plan, respond.
    fn join_or_heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
        principal: &str,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let plan = match self.check(req, ctx) {
            Ok(plan) => plan,
            Err(Refusal::Error(e)) => return Err(e),
            Err(Refusal::Fenced { member_id, error }) => {
                self.remove_member(&req.group_id, &member_id);
                return Err(error);
            }
        };
        let may_create = self.commit(&plan, principal)?;
        let response = self.respond(plan, may_create)?;
        self.complete_due_creations(&req.group_id);
        Ok(response)
    }
}

impl Coordinator {
    /// Records a member's new current assignment and/or timers (each only when given).
    fn write_member_state(
        &mut self,
        gid: &str,
        member_id: &str,
        current: Option<&CurrentAssignment>,
        timers: Option<&MemberTimers>,
    ) {
        if let Some(current) = current {
            self.write(
                RecordKey::CurrentMemberAssignment {
                    group_id: gid.to_owned(),
                    member_id: member_id.to_owned(),
                },
                Some(RecordValue::CurrentMemberAssignment(current.into())),
            );
        }
        if let Some(timers) = timers {
            self.write(
                RecordKey::MemberTimers {
                    group_id: gid.to_owned(),
                    member_id: member_id.to_owned(),
                },
                Some(RecordValue::MemberTimers(timers.into())),
            );
        }
    }
}
