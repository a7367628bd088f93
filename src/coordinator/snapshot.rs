//! `snapshot()`: plain JSON of everything the playground draws.

use super::group::StreamsGroup;
use super::member::StreamsMember;
use super::tasks::TasksTuple;
use super::Coordinator;
use crate::protocol::json::{int64, int64_opt, Invalid, Validate};
use crate::protocol::{Endpoint, KeyValue, Status, TaskIds, TopicPartitions, Topology};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "TaskLists")]
pub struct TasksSnapshot {
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
}

impl From<&TasksTuple> for TasksSnapshot {
    fn from(t: &TasksTuple) -> Self {
        let (a, s, w) = t.to_wire();
        TasksSnapshot {
            active_tasks: a,
            standby_tasks: s,
            warmup_tasks: w,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberSnapshot {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub process_id: String,
    pub rack_id: Option<String>,
    pub client_tags: Vec<KeyValue>,
    pub user_endpoint: Option<Endpoint>,
    pub topology_epoch: i32,
    /// Behind the group's topology epoch: gets no new tasks (PROTOCOL.md §4.4).
    pub stale: bool,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub member_state: String,
    pub assignment: TasksSnapshot,
    pub pending_revocation: TasksSnapshot,
    pub target_assignment: TasksSnapshot,
    pub last_status: Option<Vec<Status>>,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub session_deadline_ms: i64,
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64 | null")]
    pub rebalance_deadline_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubtopologySnapshot {
    pub subtopology_id: String,
    pub num_tasks: u32,
    pub stateful: bool,
    pub source_topics: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "ConfiguredTopologySnapshot")]
pub struct ConfiguredSnapshot {
    pub ready: bool,
    /// Every status (1-4) that keeps the group NotReady, in code order.
    pub statuses: Vec<Status>,
    /// The STREAMS_INVALID_TOPOLOGY error.
    pub error: Option<String>,
    pub subtopologies: Vec<SubtopologySnapshot>,
    pub internal_topics_to_create: Vec<String>,
    /// Missing internal topics whose partition count is not decided yet (not created).
    pub internal_topics_undecided: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreationSnapshot {
    pub in_flight: Option<Vec<String>>,
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64 | null")]
    pub completes_at_ms: Option<i64>,
    pub attempts: u32,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub next_attempt_at_ms: i64,
    pub last_failure: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupSnapshot {
    pub group_id: String,
    pub group_type: String,
    pub group_state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub topology_epoch: Option<i32>,
    pub topology: Option<Topology>,
    pub configured_topology: Option<ConfiguredSnapshot>,
    pub shutdown_requested_by: Option<String>,
    pub internal_topic_creation: Option<CreationSnapshot>,
    pub members: Vec<MemberSnapshot>,
    pub consumer_members: Vec<ConsumerMemberSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsumerMemberSnapshot {
    pub member_id: String,
    pub member_epoch: i32,
    pub subscribed_topic_names: Vec<String>,
    pub assignment: Vec<TopicPartitions>,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub session_deadline_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "TopicDescription")]
pub struct TopicSnapshot {
    pub name: String,
    pub num_partitions: i32,
    pub replication_factor: i16,
    pub configs: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Snapshot {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub now_ms: i64,
    pub assignor: String,
    pub groups: Vec<GroupSnapshot>,
    pub topics: Vec<TopicSnapshot>,
    pub acls: Vec<super::records::AclValue>,
    pub record_count: usize,
}

fn member_snapshot(g: &StreamsGroup, m: &StreamsMember) -> MemberSnapshot {
    let empty = TasksTuple::default();
    MemberSnapshot {
        member_id: m.member_id.clone(),
        instance_id: m.meta.instance_id.clone(),
        process_id: m.meta.process_id.clone(),
        rack_id: m.meta.rack_id.clone(),
        client_tags: m.meta.client_tags.clone(),
        user_endpoint: m.meta.user_endpoint.clone(),
        topology_epoch: m.meta.topology_epoch,
        stale: g.is_stale(m),
        member_epoch: m.current.member_epoch,
        previous_member_epoch: m.current.previous_member_epoch,
        member_state: m.current.state.name().to_owned(),
        assignment: (&m.current.assigned).into(),
        pending_revocation: (&m.current.pending_revocation).into(),
        target_assignment: g.target.get(&m.member_id).unwrap_or(&empty).into(),
        last_status: m.runtime.last_status.clone(),
        session_deadline_ms: m.timers.session_deadline_ms,
        rebalance_deadline_ms: m.timers.rebalance_deadline.map(|d| d.0),
    }
}

fn group_snapshot(g: &StreamsGroup) -> GroupSnapshot {
    let configured = g.configured.as_ref().map(|c| match c {
        Ok(c) => ConfiguredSnapshot {
            ready: c.is_ready(),
            statuses: c
                .statuses
                .iter()
                .map(|s| Status {
                    status_code: s.code.code(),
                    status_detail: s.detail.clone(),
                })
                .collect(),
            error: None,
            subtopologies: c
                .subtopologies
                .iter()
                .map(|s| SubtopologySnapshot {
                    subtopology_id: s.id.clone(),
                    num_tasks: s.num_tasks,
                    stateful: s.stateful,
                    source_topics: s.source_topics.clone(),
                })
                .collect(),
            internal_topics_to_create: c
                .internal_topics_to_create
                .iter()
                .map(|t| t.name.clone())
                .collect(),
            internal_topics_undecided: c.internal_topics_undecided.clone(),
        },
        Err(e) => ConfiguredSnapshot {
            ready: false,
            statuses: Vec::new(),
            error: Some(e.to_string()),
            subtopologies: Vec::new(),
            internal_topics_to_create: Vec::new(),
            internal_topics_undecided: Vec::new(),
        },
    });
    let c = &g.creation;
    let creation = (c.in_flight.is_some() || c.attempts > 0).then(|| CreationSnapshot {
        in_flight: c
            .in_flight
            .as_ref()
            .map(|p| p.topics.iter().map(|t| t.name.clone()).collect()),
        completes_at_ms: c.in_flight.as_ref().map(|p| p.completes_at_ms),
        attempts: c.attempts,
        next_attempt_at_ms: c.next_attempt_at_ms,
        last_failure: c.last_failure.clone(),
    });
    GroupSnapshot {
        group_id: g.group_id.clone(),
        group_type: "streams".to_owned(),
        group_state: g.state().name().to_owned(),
        group_epoch: g.group_epoch,
        assignment_epoch: g.assignment_epoch,
        topology_epoch: g.topology_epoch(),
        topology: g.topology.clone(),
        configured_topology: configured,
        shutdown_requested_by: g.shutdown_requester.clone(),
        internal_topic_creation: creation,
        members: g.members.values().map(|m| member_snapshot(g, m)).collect(),
        consumer_members: Vec::new(),
    }
}

impl Coordinator {
    pub fn snapshot(&self) -> Snapshot {
        let mut groups: Vec<GroupSnapshot> = self.groups.values().map(group_snapshot).collect();
        groups.extend(self.consumer_groups.values().map(|g| {
            GroupSnapshot {
                group_id: g.group_id.clone(),
                group_type: "consumer".to_owned(),
                group_state: g.state().to_owned(),
                group_epoch: g.epoch,
                assignment_epoch: g.epoch,
                topology_epoch: None,
                topology: None,
                configured_topology: None,
                shutdown_requested_by: None,
                internal_topic_creation: None,
                members: Vec::new(),
                consumer_members: g
                    .members
                    .iter()
                    .map(|(id, m)| ConsumerMemberSnapshot {
                        member_id: id.clone(),
                        member_epoch: m.member_epoch,
                        subscribed_topic_names: m.subscribed_topic_names.clone(),
                        assignment: m.assignment.clone(),
                        session_deadline_ms: m.session_deadline_ms,
                    })
                    .collect(),
            }
        }));
        groups.sort_by(|a, b| a.group_id.cmp(&b.group_id));
        Snapshot {
            now_ms: self.now_ms,
            assignor: self.config.assignor.clone(),
            groups,
            topics: self
                .cluster
                .topics
                .values()
                .map(|t| TopicSnapshot {
                    name: t.name.clone(),
                    num_partitions: t.num_partitions,
                    replication_factor: t.replication_factor,
                    configs: t.configs.clone(),
                })
                .collect(),
            acls: self
                .cluster
                .acls
                .iter()
                .map(super::replay::acl_value)
                .collect(),
            record_count: self.log.len(),
        }
    }
}

/// A snapshot given to the checkers obeys the limits of a live coordinator (README,
/// "Limits"): what it claims sizes the work, so the claims are checked first.
impl Validate for Snapshot {
    fn validate(&self) -> Result<(), Invalid> {
        use crate::limits::MAX_GROUPS;
        let streams = self
            .groups
            .iter()
            .filter(|g| g.group_type == "streams")
            .count();
        let consumer = self.groups.len() - streams;
        if streams > MAX_GROUPS || consumer > MAX_GROUPS {
            return Err(Invalid::new(
                "groups",
                format!(
                    "{streams} streams and {consumer} consumer groups; a coordinator holds at most {MAX_GROUPS} of each"
                ),
            ));
        }
        for (i, g) in self.groups.iter().enumerate() {
            g.validate().map_err(|e| e.under(&format!("groups[{i}]")))?;
        }
        Ok(())
    }
}

impl Validate for GroupSnapshot {
    fn validate(&self) -> Result<(), Invalid> {
        use crate::limits::{MAX_MEMBERS_PER_GROUP, MAX_SUBTOPOLOGIES, MAX_TASKS_PER_GROUP};
        for (field, n) in [
            ("members", self.members.len()),
            ("consumerMembers", self.consumer_members.len()),
        ] {
            if n > MAX_MEMBERS_PER_GROUP {
                return Err(Invalid::new(
                    field,
                    format!("{n} members; a group has at most {MAX_MEMBERS_PER_GROUP}"),
                ));
            }
        }
        if let Some(c) = &self.configured_topology {
            let n = c.subtopologies.len();
            if n > MAX_SUBTOPOLOGIES {
                return Err(Invalid::new(
                    "configuredTopology.subtopologies",
                    format!("{n} subtopologies; a topology has at most {MAX_SUBTOPOLOGIES}"),
                ));
            }
            let tasks = c
                .subtopologies
                .iter()
                .map(|s| u64::from(s.num_tasks))
                .fold(0u64, u64::saturating_add);
            if tasks > MAX_TASKS_PER_GROUP {
                return Err(Invalid::new(
                    "configuredTopology.subtopologies",
                    format!("{tasks} tasks in all; a group has at most {MAX_TASKS_PER_GROUP}"),
                ));
            }
        }
        for (i, m) in self.members.iter().enumerate() {
            for (field, t) in [
                ("assignment", &m.assignment),
                ("pendingRevocation", &m.pending_revocation),
                ("targetAssignment", &m.target_assignment),
            ] {
                t.validate()
                    .map_err(|e| e.under(&format!("members[{i}].{field}")))?;
            }
        }
        Ok(())
    }
}

impl Validate for TasksSnapshot {
    fn validate(&self) -> Result<(), Invalid> {
        use crate::limits::MAX_TASK_ENTRIES;
        for (field, list) in [
            ("activeTasks", &self.active_tasks),
            ("standbyTasks", &self.standby_tasks),
            ("warmupTasks", &self.warmup_tasks),
        ] {
            let n = crate::limits::entries(list);
            if n > MAX_TASK_ENTRIES {
                return Err(Invalid::new(
                    field,
                    format!("{n} task entries; a list holds at most {MAX_TASK_ENTRIES}"),
                ));
            }
        }
        Ok(())
    }
}
