//! StreamsGroupHeartbeat handling (SPEC.md section 3): authorization, validation,
//! join / heartbeat / leave. All checks run before anything changes; the one error
//! that changes the group is FENCED_MEMBER_EPOCH, which removes the member.

use super::member::{CurrentAssignment, MemberMetadata, MemberRuntime, MemberState, MemberTimers};
use super::records::*;
use super::replay::{creation_value, target_value};
use super::static_membership::{self, Who};
use super::tasks::{wire_equals, TasksTuple};
use super::topology_epoch::{self, TopologyAction};
use super::{validation, Coordinator, RequestContext};
use crate::cluster::{Operation, ResourceType, ANONYMOUS};
use crate::protocol::heartbeat::{
    JOIN_GROUP_MEMBER_EPOCH, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::protocol::ErrorCode::*;
use crate::protocol::{
    ProtocolError, StatusCode, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse,
    TaskIds, TaskOffset, Topology,
};
use crate::task::TaskId;
use crate::topology::creation::CreationSettings;
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

fn owned_lists(req: &StreamsGroupHeartbeatRequest) -> Option<(&[TaskIds], &[TaskIds], &[TaskIds])> {
    match (&req.active_tasks, &req.standby_tasks, &req.warmup_tasks) {
        (Some(a), Some(s), Some(w)) => Some((a, s, w)),
        _ => None,
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

    fn next_member_id(&mut self, group_id: &str) -> String {
        let taken = |c: &Coordinator, id: &str| {
            c.groups
                .get(group_id)
                .is_some_and(|g| g.members.contains_key(id))
        };
        let mut n = self.ids_generated;
        let mut id = super::ids::member_id(self.config.seed, n);
        while taken(self, &id) {
            n += 1;
            id = super::ids::member_id(self.config.seed, n);
        }
        self.write(
            RecordKey::MemberIdGenerator {},
            Some(RecordValue::MemberIdGenerator(MemberIdGeneratorValue {
                generated: (n + 1) as i64,
            })),
        );
        id
    }

    pub(crate) fn streams_heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let principal = ctx.principal.as_deref().unwrap_or(ANONYMOUS).to_owned();
        if !self.cluster.authorize(
            &principal,
            ResourceType::Group,
            &req.group_id,
            Operation::Read,
        ) {
            return Err(ProtocolError::new(
                GROUP_AUTHORIZATION_FAILED,
                format!("Not authorized to read group {}.", req.group_id),
            ));
        }
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
            self.write(
                RecordKey::TargetAssignmentMetadata {
                    group_id: group_id.to_owned(),
                },
                Some(RecordValue::TargetAssignmentMetadata(
                    TargetAssignmentMetadataValue {
                        assignment_epoch: epoch,
                    },
                )),
            );
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

    fn write_group_metadata(&mut self, group_id: &str, epoch: i32, requester: Option<String>) {
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        // A bump records the metadata it answers; otherwise the last bump's stays.
        let metadata_hash = if epoch == g.group_epoch {
            g.metadata_hash
        } else {
            g.configured_hash ^ self.assignment_config_hash
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

    fn leave(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let gid = req.group_id.as_str();
        if self.consumer_groups.contains_key(gid) {
            return Err(not_streams(gid));
        }
        let g = self.groups.get(gid).ok_or_else(|| not_found(gid))?;
        let member_id = match &req.instance_id {
            None => {
                if !g.members.contains_key(&req.member_id) {
                    return Err(static_membership::unknown_member(&req.member_id, gid));
                }
                req.member_id.clone()
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
                owner.clone()
            }
        };
        if req.shutdown_application && g.shutdown_requester.is_none() {
            let epoch = g.group_epoch;
            self.write_group_metadata(gid, epoch, Some(member_id.clone()));
        }
        if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH {
            self.remove_member(gid, &member_id);
        } else if let Some(m) = self.groups.get(gid).and_then(|g| g.members.get(&member_id)) {
            // -2: the static member keeps its tasks for its session timeout.
            let current = CurrentAssignment {
                member_epoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH,
                previous_member_epoch: m.current.member_epoch,
                state: MemberState::Stable,
                assigned: m.current.assigned.clone(),
                pending_revocation: TasksTuple::default(),
            };
            let timers = MemberTimers {
                session_deadline_ms: m.timers.session_deadline_ms,
                rebalance_deadline: None,
            };
            let timers_changed = timers != m.timers;
            self.write_member_state(
                gid,
                &member_id,
                Some(&current),
                timers_changed.then_some(&timers),
            );
        }
        let status = match self.groups.get(gid) {
            Some(g) if !g.members.is_empty() => g
                .shutdown_requester
                .as_ref()
                .map(|r| {
                    vec![crate::protocol::Status {
                        status_code: StatusCode::SHUTDOWN_APPLICATION.code(),
                        status_detail: format!(
                            "Streams group member {r} encountered a fatal error and requested a shutdown for the entire application."
                        ),
                    }]
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Ok(StreamsGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            acceptable_recovery_lag: self.config.acceptable_recovery_lag,
            task_offset_interval_ms: self.config.task_offset_interval_ms,
            status: Some(status),
            ..Default::default()
        })
    }

    fn join_or_heartbeat(
        &mut self,
        req: &StreamsGroupHeartbeatRequest,
        ctx: &RequestContext,
        principal: &str,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
        let joining = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
        let gid = req.group_id.as_str();
        if self.consumer_groups.contains_key(gid) {
            return Err(not_streams(gid));
        }
        let group = self.groups.get(gid);
        if group.is_none() && !joining {
            return Err(not_found(gid));
        }

        // ---- Checks: nothing changes until they all pass. ----
        let who = static_membership::lookup(group, req)?;
        if joining && who == Who::New {
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
                        format!("The streams group {gid} has reached its maximum size of {max} members."),
                    ));
                }
            }
        }
        let mut lost_response = false;
        if let (false, Who::Existing(id), Some(g)) = (joining, &who, group) {
            if let Some(m) = g.members.get(id) {
                let cur = m.current.member_epoch;
                if req.member_epoch != cur {
                    let owned_subset = owned_lists(req).is_some_and(|(a, s, w)| {
                        TasksTuple::from_wire(a, s, w).is_subset(&m.current.assigned)
                    });
                    if req.member_epoch == m.current.previous_member_epoch
                        && req.member_epoch < cur
                        && owned_subset
                    {
                        lost_response = true;
                    } else {
                        let which = if req.member_epoch > cur {
                            "greater"
                        } else {
                            "smaller"
                        };
                        let err = ProtocolError::new(
                            FENCED_MEMBER_EPOCH,
                            format!(
                                "The streams group member has a {which} member epoch ({}) than the one known by the group coordinator ({cur}). The member was removed from the group and must rejoin with epoch 0.",
                                req.member_epoch
                            ),
                        );
                        let id = id.clone();
                        self.remove_member(gid, &id);
                        return Err(err);
                    }
                }
            }
        }
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
        // The member's and the group's topology epochs once this request is applied.
        let member_topology_epoch = match (&req.topology, &who, group) {
            (Some(t), _, _) if joining => t.epoch,
            (_, Who::Existing(id), Some(g)) => g
                .members
                .get(id)
                .map(|m| m.meta.topology_epoch)
                .unwrap_or(0),
            _ => 0,
        };
        let group_topology_epoch = new_topology
            .map(|t| t.epoch)
            .or_else(|| group.and_then(|g| g.topology_epoch()))
            .unwrap_or(0);
        let stale = member_topology_epoch < group_topology_epoch;
        if let (false, false, Some((a, s, w))) = (joining, stale, owned_lists(req)) {
            if let Some(cfg) = group.and_then(|g| g.ready_topology()) {
                for (field, list) in [("ActiveTasks", a), ("StandbyTasks", s), ("WarmupTasks", w)] {
                    for t in list {
                        let tasks = cfg.subtopology(&t.subtopology_id).map(|s| s.num_tasks);
                        for &p in &t.partitions {
                            if !tasks.is_some_and(|n| p >= 0 && (p as u32) < n) {
                                return Err(ProtocolError::invalid_request(format!(
                                    "{field} contains task {}_{}, which is not a task of the group's topology.",
                                    t.subtopology_id, p
                                )));
                            }
                        }
                    }
                }
            }
        }
        check_offsets(&req.task_offsets, "TaskOffsets")?;
        check_offsets(&req.task_end_offsets, "TaskEndOffsets")?;

        // ---- Changes. ----
        let now = self.now_ms;
        let mut bump = false;
        if let Some(t) = new_topology {
            self.write(
                RecordKey::Topology {
                    group_id: gid.to_owned(),
                },
                Some(RecordValue::Topology(TopologyValue {
                    topology_epoch: t.epoch,
                    subtopologies: t.subtopologies.clone(),
                })),
            );
            bump = true;
        }
        // The member's metadata after this request, and whether it rebalances the group
        // (any change for a dynamic member; placement only for a static one).
        let (member_id, meta_update, is_new): (String, Option<(MemberMetadata, bool)>, bool) =
            match &who {
                Who::New => {
                    let id = if req.member_id.is_empty() {
                        self.next_member_id(gid)
                    } else {
                        req.member_id.clone()
                    };
                    let base = MemberMetadata {
                        process_id: id.clone(),
                        rebalance_timeout_ms: req.rebalance_timeout_ms,
                        ..Default::default()
                    };
                    let meta = updated_metadata(&base, req, ctx, joining).unwrap_or(base);
                    (id, Some((meta, true)), true)
                }
                Who::Existing(id) => {
                    let update = self
                        .groups
                        .get(gid)
                        .and_then(|g| g.members.get(id))
                        .and_then(|m| {
                            updated_metadata(&m.meta, req, ctx, joining).map(|n| {
                                let rebalance =
                                    n.instance_id.is_none() || m.meta.placement_differs(&n);
                                (n, rebalance)
                            })
                        });
                    (id.clone(), update, false)
                }
                Who::TakeOver(old) => {
                    let id = if req.member_id.is_empty() {
                        self.next_member_id(gid)
                    } else {
                        req.member_id.clone()
                    };
                    let (meta, current, target) = match self
                        .groups
                        .get(gid)
                        .and_then(|g| g.members.get(old).map(|m| (m, g)))
                    {
                        Some((m, g)) => (
                            m.meta.clone(),
                            m.current.clone(),
                            g.target.get(old).cloned(),
                        ),
                        None => Default::default(),
                    };
                    self.tombstone_member(gid, old);
                    self.write(
                        RecordKey::MemberMetadata {
                            group_id: gid.to_owned(),
                            member_id: id.clone(),
                        },
                        Some(RecordValue::MemberMetadata((&meta).into())),
                    );
                    if let Some(t) = target {
                        self.write(
                            RecordKey::TargetAssignmentMember {
                                group_id: gid.to_owned(),
                                member_id: id.clone(),
                            },
                            Some(RecordValue::TargetAssignmentMember(target_value(&t))),
                        );
                    }
                    let taken_over = CurrentAssignment {
                        member_epoch: 0,
                        previous_member_epoch: 0,
                        state: MemberState::Stable,
                        assigned: current.assigned,
                        pending_revocation: TasksTuple::default(),
                    };
                    self.write(
                        RecordKey::CurrentMemberAssignment {
                            group_id: gid.to_owned(),
                            member_id: id.clone(),
                        },
                        Some(RecordValue::CurrentMemberAssignment((&taken_over).into())),
                    );
                    let update = updated_metadata(&meta, req, ctx, joining).map(|n| {
                        let rebalance = meta.placement_differs(&n);
                        (n, rebalance)
                    });
                    (id, update, false)
                }
            };
        if let Some((meta, rebalance)) = meta_update {
            bump |= rebalance;
            self.write(
                RecordKey::MemberMetadata {
                    group_id: gid.to_owned(),
                    member_id: member_id.clone(),
                },
                Some(RecordValue::MemberMetadata((&meta).into())),
            );
        }
        if is_new {
            self.write(
                RecordKey::CurrentMemberAssignment {
                    group_id: gid.to_owned(),
                    member_id: member_id.clone(),
                },
                Some(RecordValue::CurrentMemberAssignment(
                    (&CurrentAssignment::default()).into(),
                )),
            );
        }

        // A warm-up that caught up moves its task (the probing rebalance, SPEC 6).
        let offsets_changed = self.record_task_offsets(gid, &member_id, req);
        if !bump {
            bump = self.warmup_promotion_due(gid, &member_id, offsets_changed);
        }

        // Topic metadata changed since the last bump: bump once more (at most once per request).
        let (group_epoch, configured_hash, metadata_hash, requester) = match self.groups.get(gid) {
            Some(g) => (
                g.group_epoch,
                g.configured_hash,
                g.metadata_hash,
                g.shutdown_requester.clone(),
            ),
            None => return Err(not_found(gid)),
        };
        // ... or the assignment configs changed (`group_config`).
        bump |= configured_hash ^ self.assignment_config_hash != metadata_hash;
        let new_requester = if req.shutdown_application && requester.is_none() {
            Some(member_id.clone())
        } else {
            requester.clone()
        };
        if bump || new_requester != requester {
            let epoch = if bump {
                group_epoch.saturating_add(1)
            } else {
                group_epoch
            };
            self.write_group_metadata(gid, epoch, new_requester);
        }

        // Internal topics the coordinator must create.
        let missing = match self.groups.get(gid).map(|g| &g.configured) {
            Some(Some(Ok(cfg))) if cfg.status(StatusCode::MISSING_INTERNAL_TOPICS).is_some() => {
                Some(cfg.internal_topics_to_create.clone())
            }
            _ => None,
        };
        let may_create = missing.is_some() && self.may_create(principal, gid);
        if let Some(missing) = missing {
            let settings = self.creation_settings();
            if let Some(g) = self.groups.get(gid) {
                let mut creation = g.creation.clone();
                if creation.on_missing(now, &missing, may_create, &settings) {
                    self.write(
                        RecordKey::TopicCreation {
                            group_id: gid.to_owned(),
                        },
                        Some(RecordValue::TopicCreation(creation_value(&creation))),
                    );
                }
            }
        }

        // A new target when the group epoch is ahead.
        if self
            .groups
            .get(gid)
            .is_some_and(|g| g.group_epoch > g.assignment_epoch)
        {
            self.update_target(gid);
        }

        // Reconcile this member.
        let owned_new: Option<TasksTuple> = if joining {
            Some(TasksTuple::default())
        } else {
            owned_lists(req).and_then(|(a, s, w)| {
                let m = self
                    .groups
                    .get(gid)
                    .and_then(|g| g.members.get(&member_id))?;
                (!wire_equals(a, s, w, &m.runtime.reported)).then(|| TasksTuple::from_wire(a, s, w))
            })
        };
        let rebalance_enabled = self.config.rebalance_timeout_enabled;
        let Some(g) = self.groups.get(gid) else {
            return Err(not_found(gid));
        };
        let Some(m) = g.members.get(&member_id) else {
            return Err(static_membership::unknown_member(&member_id, gid));
        };
        let target_epoch = g.assignment_epoch;
        let mut next_current = None;
        if !m.is_reconciled_to(target_epoch) {
            let empty = TasksTuple::default();
            let target = g.target.get(&member_id).unwrap_or(&empty);
            let owned = owned_new.as_ref().or(Some(&m.runtime.reported));
            next_current = super::reconciliation::next(
                &m.current,
                target_epoch,
                target,
                owned,
                |role, s, p| g.is_free(&member_id, role, s, p),
            );
        }
        let mut timers = m.timers.clone();
        timers.session_deadline_ms = now.saturating_add(i64::from(self.config.session_timeout_ms));
        if let Some(n) = &next_current {
            if n.state == MemberState::UnrevokedTasks {
                let rearm = m.current.state != MemberState::UnrevokedTasks
                    || m.current.member_epoch != n.member_epoch;
                if rearm && rebalance_enabled {
                    timers.rebalance_deadline = Some((
                        now.saturating_add(i64::from(m.meta.rebalance_timeout_ms.max(0))),
                        n.member_epoch,
                    ));
                }
            } else {
                timers.rebalance_deadline = None;
            }
        }
        let timers_changed = timers != m.timers;
        self.write_member_state(
            gid,
            &member_id,
            next_current.as_ref(),
            timers_changed.then_some(&timers),
        );

        // The response, and what the member was sent.
        let response = self.respond(
            gid,
            &member_id,
            req,
            joining,
            lost_response,
            owned_new,
            may_create,
        )?;
        self.complete_due_creations(gid);
        Ok(response)
    }

    #[allow(clippy::too_many_arguments)]
    fn respond(
        &mut self,
        gid: &str,
        member_id: &str,
        req: &StreamsGroupHeartbeatRequest,
        joining: bool,
        lost_response: bool,
        owned_new: Option<TasksTuple>,
        may_create: bool,
    ) -> Result<StreamsGroupHeartbeatResponse, ProtocolError> {
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
            Some(super::response::cached_endpoints(g, cluster))
        } else {
            None
        };
        let Some(m) = g.members.get(member_id) else {
            return Err(static_membership::unknown_member(member_id, gid));
        };
        let status = super::response::statuses(g, m, may_create);
        let send_status =
            joining || !status.is_empty() || m.runtime.last_status.as_ref() != Some(&status);
        let mut runtime: Option<MemberRuntime> = None;
        fn runtime_mut<'a>(
            r: &'a mut Option<MemberRuntime>,
            base: &MemberRuntime,
        ) -> &'a mut MemberRuntime {
            r.get_or_insert_with(|| base.clone())
        }
        if let Some(o) = owned_new {
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
        if m.runtime.last_status.as_ref() != Some(&status) {
            runtime_mut(&mut runtime, &m.runtime).last_status = Some(status.clone());
        }
        let partitions_by_user_endpoint = match endpoints {
            Some((e, h)) if joining || m.runtime.endpoints_sent_hash != Some(h) => {
                runtime_mut(&mut runtime, &m.runtime).endpoints_sent_hash = Some(h);
                Some((*e).clone())
            }
            _ => None,
        };
        let acked = match &runtime {
            Some(r) => r.reported == m.current.assigned,
            None => m.acked,
        };
        let send_tasks = joining || lost_response || !acked;
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
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            acceptable_recovery_lag: self.config.acceptable_recovery_lag,
            task_offset_interval_ms: self.config.task_offset_interval_ms,
            status: send_status.then_some(status),
            active_tasks: active,
            standby_tasks: standby,
            warmup_tasks: warmup,
            partitions_by_user_endpoint,
            ..Default::default()
        };
        if let Some(m) = g.members.get_mut(member_id) {
            m.endpoints_seen_version = Some(version);
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
