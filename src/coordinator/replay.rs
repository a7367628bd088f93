//! Applying a record to the coordinator's state: used for every write and for
//! `from_records`, so a rebuilt coordinator holds exactly the original's state.
//! Soft state (configured topology, ownership map, static-member index) follows here.

use super::consumer::{ConsumerGroup, ConsumerMember};
use super::group::StreamsGroup;
use super::member::{CurrentAssignment, MemberRuntime, MemberState, MemberTimers, StreamsMember};
use super::offsets::CommittedOffset;
use super::records::*;
use super::target_assignment::refresh_member;
use super::tasks::TasksTuple;
use super::Coordinator;
use crate::cluster::{Acl, Cluster, Operation, ResourceType, TopicMetadata};
use crate::protocol::{TaskIds, TaskOffset, Topology};
use crate::task::TaskId;
use crate::topology::creation::{InternalTopicCreation, PendingCreation};
use crate::topology::ConfiguredInternalTopic;
use std::collections::BTreeMap;

/// FNV-1a, 64 bit: a stable hash in every runtime.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Configures the group's topology against the cluster (soft state).
pub(crate) fn reconfigure(g: &mut StreamsGroup, cluster: &Cluster) {
    match &g.topology {
        Some(t) => {
            let c = crate::topology::configure(t, cluster);
            g.configured_hash = super::metadata_hash::canonical(&c);
            g.configured = Some(c);
        }
        None => {
            g.configured = None;
            g.configured_hash = 0;
        }
    }
    g.endpoints_version += 1;
    super::target_assignment::refresh_all(g);
}

fn offsets_map(list: &[TaskOffset]) -> BTreeMap<TaskId, i64> {
    list.iter()
        .map(|o| (TaskId::new(o.subtopology_id.clone(), o.partition), o.offset))
        .collect()
}

pub(crate) fn offsets_list(map: &BTreeMap<TaskId, i64>) -> Vec<TaskOffset> {
    map.iter()
        .map(|(t, o)| TaskOffset {
            subtopology_id: t.subtopology.clone(),
            partition: t.partition,
            offset: *o,
        })
        .collect()
}

impl From<&CurrentAssignment> for CurrentMemberAssignmentValue {
    fn from(c: &CurrentAssignment) -> Self {
        let (a, s, w) = c.assigned.to_wire();
        let (pa, ps, pw) = c.pending_revocation.to_wire();
        CurrentMemberAssignmentValue {
            member_epoch: c.member_epoch,
            previous_member_epoch: c.previous_member_epoch,
            state: c.state.code(),
            active_tasks: a,
            standby_tasks: s,
            warmup_tasks: w,
            active_tasks_pending_revocation: pa,
            standby_tasks_pending_revocation: ps,
            warmup_tasks_pending_revocation: pw,
            active_task_epochs: c
                .active_epochs
                .iter()
                .map(|(e, t)| AssignmentEpochTasks {
                    epoch: *e,
                    tasks: t.to_task_ids(),
                })
                .collect(),
        }
    }
}

impl From<&CurrentMemberAssignmentValue> for CurrentAssignment {
    fn from(v: &CurrentMemberAssignmentValue) -> Self {
        CurrentAssignment {
            member_epoch: v.member_epoch,
            previous_member_epoch: v.previous_member_epoch,
            state: MemberState::from_code(v.state).unwrap_or_default(),
            assigned: TasksTuple::from_wire(&v.active_tasks, &v.standby_tasks, &v.warmup_tasks),
            pending_revocation: TasksTuple::from_wire(
                &v.active_tasks_pending_revocation,
                &v.standby_tasks_pending_revocation,
                &v.warmup_tasks_pending_revocation,
            ),
            active_epochs: v
                .active_task_epochs
                .iter()
                .map(|e| (e.epoch, crate::task::TaskSet::from_task_ids(&e.tasks)))
                .collect(),
        }
    }
}

pub(crate) fn target_value(t: &TasksTuple) -> TargetAssignmentMemberValue {
    let (a, s, w) = t.to_wire();
    TargetAssignmentMemberValue {
        active_tasks: a,
        standby_tasks: s,
        warmup_tasks: w,
    }
}

impl From<&MemberRuntime> for MemberRuntimeValue {
    fn from(r: &MemberRuntime) -> Self {
        let (a, s, w) = r.reported.to_wire();
        MemberRuntimeValue {
            task_offsets: offsets_list(&r.task_offsets),
            task_end_offsets: offsets_list(&r.task_end_offsets),
            reported_active_tasks: a,
            reported_standby_tasks: s,
            reported_warmup_tasks: w,
            last_status: r.last_status.clone(),
            endpoints_sent_hash: r.endpoints_sent_hash.map(|h| h as i64),
        }
    }
}

impl From<&MemberTimers> for MemberTimersValue {
    fn from(t: &MemberTimers) -> Self {
        MemberTimersValue {
            session_deadline_ms: t.session_deadline_ms,
            rebalance_deadline_ms: t.rebalance_deadline.map(|d| d.0),
            rebalance_deadline_epoch: t.rebalance_deadline.map(|d| d.1).unwrap_or(0),
        }
    }
}

fn internal_topic(t: &TopicInfo) -> ConfiguredInternalTopic {
    ConfiguredInternalTopic {
        name: t.name.clone(),
        partitions: t.partitions,
        replication_factor: t.replication_factor,
        topic_configs: t.topic_configs.clone(),
    }
}

use crate::protocol::TopicInfo;

pub(crate) fn creation_value(c: &InternalTopicCreation) -> TopicCreationValue {
    TopicCreationValue {
        in_flight: c.in_flight.as_ref().map(|p| PendingCreationValue {
            topics: p
                .topics
                .iter()
                .map(|t| TopicInfo {
                    name: t.name.clone(),
                    partitions: t.partitions,
                    replication_factor: t.replication_factor,
                    topic_configs: t.topic_configs.clone(),
                })
                .collect(),
            completes_at_ms: p.completes_at_ms,
        }),
        last_failure: c.last_failure.clone(),
        attempts: c.attempts,
        next_attempt_at_ms: c.next_attempt_at_ms,
    }
}

fn creation_from(v: &TopicCreationValue) -> InternalTopicCreation {
    InternalTopicCreation {
        in_flight: v.in_flight.as_ref().map(|p| PendingCreation {
            topics: p.topics.iter().map(internal_topic).collect(),
            completes_at_ms: p.completes_at_ms,
        }),
        last_failure: v.last_failure.clone(),
        attempts: v.attempts,
        next_attempt_at_ms: v.next_attempt_at_ms,
    }
}

pub(crate) fn acl_value(a: &Acl) -> AclValue {
    AclValue {
        principal: a.principal.clone(),
        resource_type: a.resource_type.name().to_owned(),
        resource_name: a.resource_name.clone(),
        operation: a.operation.name().to_owned(),
    }
}

/// What a group's members and topology count against `maxStateBytes`.
fn group_bytes(g: &StreamsGroup) -> u64 {
    let members: u64 = g
        .members
        .values()
        .map(|m| crate::limits::metadata_bytes(&m.meta))
        .sum();
    members + g.topology.as_ref().map_or(0, crate::limits::topology_bytes)
}

fn wire(ids: &[TaskIds]) -> crate::task::TaskSet {
    crate::task::TaskSet::from_task_ids(ids)
}

impl Coordinator {
    fn streams_group_mut(&mut self, group_id: &str) -> &mut StreamsGroup {
        self.groups
            .entry(group_id.to_owned())
            .or_insert_with(|| StreamsGroup::new(group_id))
    }

    fn streams_member_mut(&mut self, group_id: &str, member_id: &str) -> &mut StreamsMember {
        self.streams_group_mut(group_id)
            .members
            .entry(member_id.to_owned())
            .or_insert_with(|| StreamsMember::new(member_id))
    }

    /// Reconfigures every group after the cluster's topics changed (once at the end of
    /// a batch of topic records, `write_topics`).
    pub(crate) fn cluster_changed(&mut self) {
        if self.batching_topics {
            return;
        }
        let cluster = &self.cluster;
        for g in self.groups.values_mut() {
            if g.topology.is_some() {
                reconfigure(g, cluster);
            }
        }
    }

    /// Configures every group on the cluster as it stands (once, after a log is read).
    pub(crate) fn reconfigure_all(&mut self) {
        let cluster = &self.cluster;
        for g in self.groups.values_mut() {
            reconfigure(g, cluster);
        }
    }

    /// Applies one record: the key's type picks the function, the value (None: a
    /// tombstone) is what it applies. Values that do not belong to their key never
    /// decode; tombstones of singleton records change nothing.
    pub(crate) fn apply(&mut self, r: &Record) {
        let v = r.value.as_ref();
        match &r.key {
            RecordKey::GroupMetadata { group_id } => self.apply_group_metadata(group_id, v),
            RecordKey::Topology { group_id } => self.apply_topology(group_id, v),
            RecordKey::MemberMetadata {
                group_id,
                member_id,
            } => self.apply_member_metadata(group_id, member_id, v),
            RecordKey::TargetAssignmentMetadata { group_id } => {
                self.apply_target_assignment_metadata(group_id, v)
            }
            RecordKey::TargetAssignmentMember {
                group_id,
                member_id,
            } => self.apply_target_assignment_member(group_id, member_id, v),
            RecordKey::CurrentMemberAssignment {
                group_id,
                member_id,
            } => self.apply_current_member_assignment(group_id, member_id, v),
            RecordKey::MemberRuntime {
                group_id,
                member_id,
            } => self.apply_member_runtime(group_id, member_id, v),
            RecordKey::MemberTimers {
                group_id,
                member_id,
            } => self.apply_member_timers(group_id, member_id, v),
            RecordKey::TopicCreation { group_id } => self.apply_topic_creation(group_id, v),
            RecordKey::ConsumerGroupMetadata { group_id } => {
                self.apply_consumer_group_metadata(group_id, v)
            }
            RecordKey::ConsumerGroupMember {
                group_id,
                member_id,
            } => self.apply_consumer_group_member(group_id, member_id, v),
            RecordKey::OffsetCommit {
                group_id,
                topic,
                partition,
            } => self.apply_offset_commit(group_id, topic, *partition, v),
            RecordKey::Topic { name } => self.apply_topic(name, v),
            RecordKey::Acls {} => self.apply_acls(v),
            RecordKey::Clock {} => {
                if let Some(RecordValue::Clock(c)) = v {
                    self.now_ms = self.now_ms.max(c.now_ms);
                }
            }
            RecordKey::MemberIdGenerator {} => {
                if let Some(RecordValue::MemberIdGenerator(g)) = v {
                    self.ids_generated = g.generated as u64;
                }
            }
            RecordKey::PendingEvents {} => {
                self.pending.set_legacy(match v {
                    Some(RecordValue::PendingEvents(p)) => p.events.clone(),
                    _ => Vec::new(),
                });
            }
            RecordKey::PendingEvent { seq } => match v {
                Some(RecordValue::PendingEvent(p)) => self.pending.insert(*seq, p.event.clone()),
                _ => self.pending.remove(*seq),
            },
            RecordKey::GroupConfig {} => {
                if let Some(RecordValue::GroupConfig(c)) = v {
                    self.apply_group_config(c);
                }
            }
            RecordKey::StreamsGroupConfig { group_id } => self.apply_group_overrides(group_id, v),
        }
    }

    fn apply_group_metadata(&mut self, group_id: &str, v: Option<&RecordValue>) {
        match v {
            Some(RecordValue::GroupMetadata(v)) => {
                let g = self.streams_group_mut(group_id);
                g.group_epoch = v.epoch;
                g.metadata_hash = v.metadata_hash as u64;
                g.shutdown_requester = v.shutdown_requester.clone();
            }
            None => {
                if let Some(g) = self.groups.remove(group_id) {
                    self.state_bytes = self.state_bytes.saturating_sub(group_bytes(&g));
                }
            }
            Some(_) => {}
        }
    }

    /// The topology as the client sent it; configured against the cluster at once
    /// (while a log is read, after its last record: `reconfigure_all`).
    fn apply_topology(&mut self, group_id: &str, v: Option<&RecordValue>) {
        if v.is_none() && !self.groups.contains_key(group_id) {
            // A tombstone never creates a group (a compacted log may end with one).
            return;
        }
        let cluster = &self.cluster;
        let g = self
            .groups
            .entry(group_id.to_owned())
            .or_insert_with(|| StreamsGroup::new(group_id));
        let old = g.topology.as_ref().map_or(0, crate::limits::topology_bytes);
        g.topology = match v {
            Some(RecordValue::Topology(t)) => Some(Topology {
                epoch: t.topology_epoch,
                subtopologies: t.subtopologies.clone(),
            }),
            _ => None,
        };
        let new = g.topology.as_ref().map_or(0, crate::limits::topology_bytes);
        if !self.batching_topics {
            reconfigure(g, cluster);
        }
        self.state_bytes = self.state_bytes.saturating_sub(old).saturating_add(new);
    }

    /// A member's metadata (keeping the static-member index), or its removal: a
    /// metadata tombstone releases the tasks the member held.
    fn apply_member_metadata(&mut self, group_id: &str, member_id: &str, v: Option<&RecordValue>) {
        match v {
            Some(RecordValue::MemberMetadata(v)) => {
                let meta = v.clone();
                let added = crate::limits::metadata_bytes(&meta);
                let m = self.streams_member_mut(group_id, member_id);
                let removed = crate::limits::metadata_bytes(&m.meta);
                let old_instance = m.meta.instance_id.clone();
                m.meta = meta;
                let new_instance = m.meta.instance_id.clone();
                let g = self.streams_group_mut(group_id);
                if let Some(i) = old_instance {
                    if g.static_members.get(&i).map(String::as_str) == Some(member_id) {
                        g.static_members.remove(&i);
                    }
                }
                if let Some(i) = new_instance {
                    g.static_members.insert(i, member_id.to_owned());
                }
                g.endpoints_version += 1;
                refresh_member(g, member_id);
                self.state_bytes = self
                    .state_bytes
                    .saturating_sub(removed)
                    .saturating_add(added);
            }
            None => {
                let mut removed = 0;
                if let Some(g) = self.groups.get_mut(group_id) {
                    if let Some(m) = g.members.remove(member_id) {
                        removed = crate::limits::metadata_bytes(&m.meta);
                        let held = m.current.assigned.union(&m.current.pending_revocation);
                        g.release(member_id, &held);
                        if let Some(i) = &m.meta.instance_id {
                            if g.static_members.get(i).map(String::as_str) == Some(member_id) {
                                g.static_members.remove(i);
                            }
                        }
                    }
                    g.endpoints_version += 1;
                    refresh_member(g, member_id);
                }
                self.state_bytes = self.state_bytes.saturating_sub(removed);
            }
            Some(_) => {}
        }
    }

    fn apply_target_assignment_metadata(&mut self, group_id: &str, v: Option<&RecordValue>) {
        if v.is_none() && !self.groups.contains_key(group_id) {
            return;
        }
        let g = self.streams_group_mut(group_id);
        (g.assignment_epoch, g.initial_rebalance_deadline_ms) = match v {
            Some(RecordValue::TargetAssignmentMetadata(t)) => {
                (t.assignment_epoch, t.initial_rebalance_deadline_ms)
            }
            _ => (0, None),
        };
    }

    fn apply_target_assignment_member(
        &mut self,
        group_id: &str,
        member_id: &str,
        v: Option<&RecordValue>,
    ) {
        if v.is_none() && !self.groups.contains_key(group_id) {
            return;
        }
        let g = self.streams_group_mut(group_id);
        match v {
            Some(RecordValue::TargetAssignmentMember(t)) => {
                g.target.insert(
                    member_id.to_owned(),
                    TasksTuple {
                        active: wire(&t.active_tasks),
                        standby: wire(&t.standby_tasks),
                        warmup: wire(&t.warmup_tasks),
                    },
                );
            }
            _ => {
                g.target.remove(member_id);
            }
        }
    }

    /// A member's current assignment, moving its tasks in the ownership map. A
    /// tombstone for a member the group no longer has changes nothing.
    fn apply_current_member_assignment(
        &mut self,
        group_id: &str,
        member_id: &str,
        v: Option<&RecordValue>,
    ) {
        let next = match v {
            Some(RecordValue::CurrentMemberAssignment(c)) => Some(CurrentAssignment::from(c)),
            _ => None,
        };
        if next.is_none()
            && !self
                .groups
                .get(group_id)
                .is_some_and(|g| g.members.contains_key(member_id))
        {
            return;
        }
        let next = next.unwrap_or_default();
        let held_new = next.assigned.union(&next.pending_revocation);
        let m = self.streams_member_mut(group_id, member_id);
        let held_old = m.current.assigned.union(&m.current.pending_revocation);
        m.current = next;
        m.update_acked();
        let g = self.streams_group_mut(group_id);
        g.release(member_id, &held_old);
        g.hold(member_id, &held_new);
        g.endpoints_version += 1;
        refresh_member(g, member_id);
    }

    fn apply_member_runtime(&mut self, group_id: &str, member_id: &str, v: Option<&RecordValue>) {
        let runtime = match v {
            Some(RecordValue::MemberRuntime(r)) => MemberRuntime {
                task_offsets: offsets_map(&r.task_offsets),
                task_end_offsets: offsets_map(&r.task_end_offsets),
                reported: TasksTuple::from_wire(
                    &r.reported_active_tasks,
                    &r.reported_standby_tasks,
                    &r.reported_warmup_tasks,
                ),
                last_status: r.last_status.clone(),
                endpoints_sent_hash: r.endpoints_sent_hash.map(|h| h as u64),
            },
            _ => {
                if let Some(m) = self
                    .groups
                    .get_mut(group_id)
                    .and_then(|g| g.members.get_mut(member_id))
                {
                    m.runtime = MemberRuntime::default();
                    m.update_acked();
                }
                return;
            }
        };
        let m = self.streams_member_mut(group_id, member_id);
        m.runtime = runtime;
        m.update_acked();
        refresh_member(self.streams_group_mut(group_id), member_id);
    }

    fn apply_member_timers(&mut self, group_id: &str, member_id: &str, v: Option<&RecordValue>) {
        let timers = match v {
            Some(RecordValue::MemberTimers(t)) => MemberTimers {
                session_deadline_ms: t.session_deadline_ms,
                rebalance_deadline: t
                    .rebalance_deadline_ms
                    .map(|d| (d, t.rebalance_deadline_epoch)),
            },
            _ => {
                if let Some(m) = self
                    .groups
                    .get_mut(group_id)
                    .and_then(|g| g.members.get_mut(member_id))
                {
                    m.timers = MemberTimers::default();
                }
                return;
            }
        };
        self.streams_member_mut(group_id, member_id).timers = timers;
    }

    fn apply_topic_creation(&mut self, group_id: &str, v: Option<&RecordValue>) {
        if v.is_none() && !self.groups.contains_key(group_id) {
            return;
        }
        let c = match v {
            Some(RecordValue::TopicCreation(c)) => creation_from(c),
            _ => InternalTopicCreation::default(),
        };
        self.streams_group_mut(group_id).creation = c;
    }

    fn apply_consumer_group_metadata(&mut self, group_id: &str, v: Option<&RecordValue>) {
        match v {
            Some(RecordValue::ConsumerGroupMetadata(m)) => {
                self.consumer_groups
                    .entry(group_id.to_owned())
                    .or_insert_with(|| ConsumerGroup::new(group_id))
                    .epoch = m.epoch;
            }
            _ => {
                self.consumer_groups.remove(group_id);
            }
        }
    }

    fn apply_consumer_group_member(
        &mut self,
        group_id: &str,
        member_id: &str,
        v: Option<&RecordValue>,
    ) {
        if v.is_none() && !self.consumer_groups.contains_key(group_id) {
            return;
        }
        let g = self
            .consumer_groups
            .entry(group_id.to_owned())
            .or_insert_with(|| ConsumerGroup::new(group_id));
        match v {
            Some(RecordValue::ConsumerGroupMember(m)) => {
                g.members
                    .insert(member_id.to_owned(), ConsumerMember::from(m));
            }
            _ => {
                g.members.remove(member_id);
            }
        }
    }

    fn apply_offset_commit(
        &mut self,
        group_id: &str,
        topic: &str,
        partition: i32,
        v: Option<&RecordValue>,
    ) {
        match v {
            Some(RecordValue::OffsetCommit(o)) => {
                self.offsets.entry(group_id.to_owned()).or_default().insert(
                    (topic.to_owned(), partition),
                    CommittedOffset {
                        offset: o.offset,
                        metadata: o.metadata.clone(),
                        commit_timestamp_ms: o.commit_timestamp_ms,
                    },
                );
            }
            _ => {
                if let Some(m) = self.offsets.get_mut(group_id) {
                    m.remove(&(topic.to_owned(), partition));
                    if m.is_empty() {
                        self.offsets.remove(group_id);
                    }
                }
            }
        }
    }

    /// A topic of the cluster, created, changed or deleted: every group is configured
    /// again.
    fn apply_topic(&mut self, name: &str, v: Option<&RecordValue>) {
        match v {
            Some(RecordValue::Topic(t)) => {
                self.cluster.topics.insert(
                    name.to_owned(),
                    TopicMetadata {
                        name: name.to_owned(),
                        num_partitions: t.num_partitions,
                        replication_factor: t.replication_factor,
                        configs: t
                            .configs
                            .iter()
                            .map(|kv| (kv.key.clone(), kv.value.clone()))
                            .collect(),
                    },
                );
            }
            _ => {
                self.cluster.topics.remove(name);
            }
        }
        self.cluster_changed();
    }

    fn apply_acls(&mut self, v: Option<&RecordValue>) {
        self.cluster.acls = match v {
            Some(RecordValue::Acls(a)) => a
                .acls
                .iter()
                .filter_map(|a| {
                    Some(Acl {
                        principal: a.principal.clone(),
                        resource_type: ResourceType::parse(&a.resource_type)?,
                        resource_name: a.resource_name.clone(),
                        operation: Operation::parse(&a.operation)?,
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
    }
}
