//! The coordinator's record log (PROTOCOL.md §8): Kafka's streams group records,
//! plus what Kafka keeps in memory only (task offsets, the shutdown request, what each
//! member was last sent, timers), the consumer-group and offset records, and the
//! simulated cluster's own metadata (topics, ACLs) and clock.
//!
//! Every record is a key and a value (null = tombstone); a later value for the same key
//! replaces the earlier one, so the log can be compacted. Records encode to JSON as
//! `{ offset, key: { type, ... }, value: { type, ... } | null }` and decode strictly.

use crate::protocol::json::{int64, int64_opt, list, nullable, tagged, Invalid, Tagged, Validate};
use crate::protocol::{
    Endpoint, KeyValue, Status, Subtopology, TaskIds, TaskOffset, TopicInfo, TopicPartitions,
};
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, TS)]
#[serde(tag = "type")]
pub enum RecordKey {
    #[serde(rename = "StreamsGroupMetadataKey", rename_all = "camelCase")]
    GroupMetadata { group_id: String },
    #[serde(rename = "StreamsGroupTopologyKey", rename_all = "camelCase")]
    Topology { group_id: String },
    #[serde(rename = "StreamsGroupMemberMetadataKey", rename_all = "camelCase")]
    MemberMetadata { group_id: String, member_id: String },
    #[serde(
        rename = "StreamsGroupTargetAssignmentMetadataKey",
        rename_all = "camelCase"
    )]
    TargetAssignmentMetadata { group_id: String },
    #[serde(
        rename = "StreamsGroupTargetAssignmentMemberKey",
        rename_all = "camelCase"
    )]
    TargetAssignmentMember { group_id: String, member_id: String },
    #[serde(
        rename = "StreamsGroupCurrentMemberAssignmentKey",
        rename_all = "camelCase"
    )]
    CurrentMemberAssignment { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupMemberRuntimeKey", rename_all = "camelCase")]
    MemberRuntime { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupMemberTimersKey", rename_all = "camelCase")]
    MemberTimers { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupTopicCreationKey", rename_all = "camelCase")]
    TopicCreation { group_id: String },
    #[serde(rename = "ConsumerGroupMetadataKey", rename_all = "camelCase")]
    ConsumerGroupMetadata { group_id: String },
    #[serde(rename = "ConsumerGroupMemberKey", rename_all = "camelCase")]
    ConsumerGroupMember { group_id: String, member_id: String },
    #[serde(rename = "OffsetCommitKey", rename_all = "camelCase")]
    OffsetCommit {
        group_id: String,
        topic: String,
        partition: i32,
    },
    #[serde(rename = "TopicKey", rename_all = "camelCase")]
    Topic { name: String },
    #[serde(rename = "AclsKey")]
    Acls {},
    #[serde(rename = "ClockKey")]
    Clock {},
    #[serde(rename = "MemberIdGeneratorKey")]
    MemberIdGenerator {},
    /// Events waiting for the next `advanceTime`, as one list (logs written before
    /// `PendingEventKey`; read, never written).
    #[serde(rename = "PendingEventsKey")]
    PendingEvents {},
    /// One event waiting for the next `advanceTime` (so a rebuilt coordinator returns
    /// it too), keyed by the offset of the record that queued it.
    #[serde(rename = "PendingEventKey", rename_all = "camelCase")]
    PendingEvent {
        #[serde(with = "offset")]
        #[ts(type = "Int64")]
        seq: u64,
    },
    /// The assignment-relevant group configs set at run time (`setGroupConfig`).
    #[serde(rename = "GroupConfigKey")]
    GroupConfig {},
    /// One group's own configs (`setGroupConfig(groupId, ...)`, Kafka's group configs).
    #[serde(rename = "StreamsGroupConfigKey", rename_all = "camelCase")]
    StreamsGroupConfig { group_id: String },
}

impl RecordKey {
    /// The value type a key of this type carries.
    pub fn value_type(&self) -> &'static str {
        match self {
            RecordKey::GroupMetadata { .. } => "StreamsGroupMetadataValue",
            RecordKey::Topology { .. } => "StreamsGroupTopologyValue",
            RecordKey::MemberMetadata { .. } => "StreamsGroupMemberMetadataValue",
            RecordKey::TargetAssignmentMetadata { .. } => {
                "StreamsGroupTargetAssignmentMetadataValue"
            }
            RecordKey::TargetAssignmentMember { .. } => "StreamsGroupTargetAssignmentMemberValue",
            RecordKey::CurrentMemberAssignment { .. } => "StreamsGroupCurrentMemberAssignmentValue",
            RecordKey::MemberRuntime { .. } => "StreamsGroupMemberRuntimeValue",
            RecordKey::MemberTimers { .. } => "StreamsGroupMemberTimersValue",
            RecordKey::TopicCreation { .. } => "StreamsGroupTopicCreationValue",
            RecordKey::ConsumerGroupMetadata { .. } => "ConsumerGroupMetadataValue",
            RecordKey::ConsumerGroupMember { .. } => "ConsumerGroupMemberValue",
            RecordKey::OffsetCommit { .. } => "OffsetCommitValue",
            RecordKey::Topic { .. } => "TopicValue",
            RecordKey::Acls {} => "AclsValue",
            RecordKey::Clock {} => "ClockValue",
            RecordKey::MemberIdGenerator {} => "MemberIdGeneratorValue",
            RecordKey::PendingEvents {} => "PendingEventsValue",
            RecordKey::PendingEvent { .. } => "PendingEventValue",
            RecordKey::GroupConfig {} => "GroupConfigValue",
            RecordKey::StreamsGroupConfig { .. } => "StreamsGroupConfigValue",
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GroupKey {
    group_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MemberKey {
    group_id: String,
    member_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OffsetKey {
    group_id: String,
    topic: String,
    #[serde(deserialize_with = "crate::protocol::json::partition::deserialize")]
    partition: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameKey {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoFields {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeqKey {
    #[serde(with = "offset")]
    seq: u64,
}

impl Tagged for RecordKey {
    const TAGS: &'static [&'static str] = &[
        "StreamsGroupMetadataKey",
        "StreamsGroupTopologyKey",
        "StreamsGroupMemberMetadataKey",
        "StreamsGroupTargetAssignmentMetadataKey",
        "StreamsGroupTargetAssignmentMemberKey",
        "StreamsGroupCurrentMemberAssignmentKey",
        "StreamsGroupMemberRuntimeKey",
        "StreamsGroupMemberTimersKey",
        "StreamsGroupTopicCreationKey",
        "ConsumerGroupMetadataKey",
        "ConsumerGroupMemberKey",
        "OffsetCommitKey",
        "TopicKey",
        "AclsKey",
        "ClockKey",
        "MemberIdGeneratorKey",
        "PendingEventsKey",
        "PendingEventKey",
        "GroupConfigKey",
        "StreamsGroupConfigKey",
    ];
    const WHAT: &'static str = "record key type";

    fn variant<'de, D: Deserializer<'de>>(tag: &str, rest: D) -> Result<Self, D::Error> {
        let group = |rest: D| GroupKey::deserialize(rest).map(|k| k.group_id);
        let member = |rest: D| MemberKey::deserialize(rest).map(|k| (k.group_id, k.member_id));
        Ok(match tag {
            "StreamsGroupMetadataKey" => RecordKey::GroupMetadata {
                group_id: group(rest)?,
            },
            "StreamsGroupTopologyKey" => RecordKey::Topology {
                group_id: group(rest)?,
            },
            "StreamsGroupTargetAssignmentMetadataKey" => RecordKey::TargetAssignmentMetadata {
                group_id: group(rest)?,
            },
            "StreamsGroupTopicCreationKey" => RecordKey::TopicCreation {
                group_id: group(rest)?,
            },
            "ConsumerGroupMetadataKey" => RecordKey::ConsumerGroupMetadata {
                group_id: group(rest)?,
            },
            "StreamsGroupConfigKey" => RecordKey::StreamsGroupConfig {
                group_id: group(rest)?,
            },
            "StreamsGroupMemberMetadataKey"
            | "StreamsGroupTargetAssignmentMemberKey"
            | "StreamsGroupCurrentMemberAssignmentKey"
            | "StreamsGroupMemberRuntimeKey"
            | "StreamsGroupMemberTimersKey"
            | "ConsumerGroupMemberKey" => {
                let (group_id, member_id) = member(rest)?;
                match tag {
                    "StreamsGroupMemberMetadataKey" => RecordKey::MemberMetadata {
                        group_id,
                        member_id,
                    },
                    "StreamsGroupTargetAssignmentMemberKey" => RecordKey::TargetAssignmentMember {
                        group_id,
                        member_id,
                    },
                    "StreamsGroupCurrentMemberAssignmentKey" => {
                        RecordKey::CurrentMemberAssignment {
                            group_id,
                            member_id,
                        }
                    }
                    "StreamsGroupMemberRuntimeKey" => RecordKey::MemberRuntime {
                        group_id,
                        member_id,
                    },
                    "StreamsGroupMemberTimersKey" => RecordKey::MemberTimers {
                        group_id,
                        member_id,
                    },
                    _ => RecordKey::ConsumerGroupMember {
                        group_id,
                        member_id,
                    },
                }
            }
            "OffsetCommitKey" => {
                let k = OffsetKey::deserialize(rest)?;
                RecordKey::OffsetCommit {
                    group_id: k.group_id,
                    topic: k.topic,
                    partition: k.partition,
                }
            }
            "TopicKey" => RecordKey::Topic {
                name: NameKey::deserialize(rest)?.name,
            },
            "PendingEventKey" => RecordKey::PendingEvent {
                seq: SeqKey::deserialize(rest)?.seq,
            },
            other => {
                NoFields::deserialize(rest)?;
                match other {
                    "AclsKey" => RecordKey::Acls {},
                    "ClockKey" => RecordKey::Clock {},
                    "MemberIdGeneratorKey" => RecordKey::MemberIdGenerator {},
                    "PendingEventsKey" => RecordKey::PendingEvents {},
                    _ => RecordKey::GroupConfig {},
                }
            }
        })
    }
}

impl<'de> Deserialize<'de> for RecordKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged(d)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupMetadataValue {
    pub epoch: i32,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub metadata_hash: i64,
    /// Not in Kafka's record (it keeps it in memory): the member that asked for shutdown.
    #[serde(default)]
    pub shutdown_requester: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopologyValue {
    pub topology_epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberMetadataValue {
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: i32,
    pub topology_epoch: i32,
    pub process_id: String,
    #[serde(default)]
    pub user_endpoint: Option<Endpoint>,
    #[serde(default, deserialize_with = "list")]
    pub client_tags: Vec<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetAssignmentMetadataValue {
    pub assignment_epoch: i32,
    /// Not in Kafka's record (a timer there): while set, the first target of a new or
    /// emptied group waits for the initial rebalance delay to end at this time.
    #[serde(default, with = "int64_opt", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Int64")]
    pub initial_rebalance_deadline_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetAssignmentMemberValue {
    #[serde(default, deserialize_with = "list")]
    pub active_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub standby_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub warmup_tasks: Vec<TaskIds>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CurrentMemberAssignmentValue {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    /// 1 Stable, 2 UnrevokedTasks, 3 UnreleasedTasks (Kafka's numbers).
    #[serde(deserialize_with = "member_state")]
    pub state: i8,
    #[serde(default, deserialize_with = "list")]
    pub active_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub standby_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub warmup_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub active_tasks_pending_revocation: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub standby_tasks_pending_revocation: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub warmup_tasks_pending_revocation: Vec<TaskIds>,
    /// The epoch at which the member got each active task, assigned or pending
    /// revocation (Kafka 4.2+ tags each active TaskIds with `AssignmentEpochs`). Absent
    /// in older logs: the member epoch then.
    #[serde(
        default,
        deserialize_with = "list",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[ts(as = "Option<Vec<AssignmentEpochTasks>>", optional)]
    pub active_task_epochs: Vec<AssignmentEpochTasks>,
}

/// Active tasks the member got at `epoch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssignmentEpochTasks {
    pub epoch: i32,
    #[serde(deserialize_with = "list")]
    pub tasks: Vec<TaskIds>,
}

fn member_state<'de, D: Deserializer<'de>>(d: D) -> Result<i8, D::Error> {
    let state = i8::deserialize(d)?;
    if super::member::MemberState::from_code(state).is_none() {
        return Err(serde::de::Error::custom(format_args!(
            "unknown member state {state} (1 Stable, 2 UnrevokedTasks, 3 UnreleasedTasks)"
        )));
    }
    Ok(state)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberRuntimeValue {
    #[serde(default, deserialize_with = "list")]
    pub task_offsets: Vec<TaskOffset>,
    #[serde(default, deserialize_with = "list")]
    pub task_end_offsets: Vec<TaskOffset>,
    #[serde(default, deserialize_with = "list")]
    pub reported_active_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub reported_standby_tasks: Vec<TaskIds>,
    #[serde(default, deserialize_with = "list")]
    pub reported_warmup_tasks: Vec<TaskIds>,
    #[serde(default)]
    pub last_status: Option<Vec<Status>>,
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64 | null")]
    pub endpoints_sent_hash: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberTimersValue {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub session_deadline_ms: i64,
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64 | null")]
    pub rebalance_deadline_ms: Option<i64>,
    #[serde(default)]
    pub rebalance_deadline_epoch: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingCreationValue {
    pub topics: Vec<TopicInfo>,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub completes_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicCreationValue {
    #[serde(default)]
    pub in_flight: Option<PendingCreationValue>,
    #[serde(default)]
    pub last_failure: Option<String>,
    #[serde(default, deserialize_with = "crate::protocol::json::count")]
    pub attempts: u32,
    #[serde(default, with = "int64")]
    #[ts(type = "Int64")]
    pub next_attempt_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsumerGroupMetadataValue {
    pub epoch: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsumerGroupMemberValue {
    pub member_epoch: i32,
    #[serde(default)]
    pub previous_member_epoch: i32,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default = "crate::protocol::heartbeat::minus_one")]
    pub rebalance_timeout_ms: i32,
    #[serde(default, deserialize_with = "list")]
    pub subscribed_topic_names: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    pub assignment: Vec<TopicPartitions>,
    #[serde(default, with = "int64")]
    #[ts(type = "Int64")]
    pub session_deadline_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OffsetCommitValue {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub offset: i64,
    #[serde(default)]
    pub metadata: Option<String>,
    #[serde(default, with = "int64")]
    #[ts(type = "Int64")]
    pub commit_timestamp_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicValue {
    #[serde(deserialize_with = "positive_partition_count")]
    pub num_partitions: i32,
    #[serde(default = "one")]
    pub replication_factor: i16,
    #[serde(default, deserialize_with = "list")]
    pub configs: Vec<KeyValue>,
}

fn one() -> i16 {
    1
}

fn positive_partition_count<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    let n = i32::deserialize(d)?;
    if n <= 0 {
        return Err(serde::de::Error::custom(format_args!(
            "{n} is not a positive partition count"
        )));
    }
    Ok(n)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AclValue {
    pub principal: String,
    #[serde(deserialize_with = "resource_type")]
    pub resource_type: String,
    pub resource_name: String,
    #[serde(deserialize_with = "operation")]
    pub operation: String,
}

fn resource_type<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if crate::cluster::ResourceType::parse(&s).is_none() {
        return Err(serde::de::Error::custom(
            "expected \"group\", \"topic\" or \"cluster\"",
        ));
    }
    Ok(s)
}

fn operation<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if crate::cluster::Operation::parse(&s).is_none() {
        return Err(serde::de::Error::custom(
            "expected \"read\", \"describe\", \"create\" or \"all\"",
        ));
    }
    Ok(s)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AclsValue {
    #[serde(default, deserialize_with = "list")]
    pub acls: Vec<AclValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClockValue {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemberIdGeneratorValue {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub generated: i64,
}

/// The assignment-relevant group configs (`setGroupConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "GroupConfig")]
pub struct GroupConfigValue {
    #[serde(deserialize_with = "crate::config::assignor_name")]
    pub assignor: String,
    #[serde(deserialize_with = "crate::protocol::json::count")]
    pub num_standby_replicas: u32,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub acceptable_recovery_lag: i64,
    #[serde(deserialize_with = "crate::protocol::json::count")]
    pub max_warmup_replicas: u32,
}

impl Validate for GroupConfigValue {
    fn validate(&self) -> Result<(), Invalid> {
        crate::config::at_least(self.acceptable_recovery_lag, 0, "acceptableRecoveryLag")
    }
}

/// One group's own configs; null: the coordinator's (`group_settings`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct StreamsGroupConfigValue {
    #[serde(default)]
    #[ts(optional = nullable)]
    pub session_timeout_ms: Option<i32>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub heartbeat_interval_ms: Option<i32>,
    #[serde(default, deserialize_with = "crate::protocol::json::count_opt")]
    #[ts(optional = nullable)]
    pub num_standby_replicas: Option<u32>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub initial_rebalance_delay_ms: Option<i32>,
    #[serde(default, deserialize_with = "crate::config::assignor_name_opt")]
    #[ts(optional = nullable)]
    pub assignor: Option<String>,
    #[serde(default, with = "int64_opt")]
    #[ts(optional = nullable, type = "Int64 | null")]
    pub acceptable_recovery_lag: Option<i64>,
    #[serde(default, deserialize_with = "crate::protocol::json::count_opt")]
    #[ts(optional = nullable)]
    pub max_warmup_replicas: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingEventsValue {
    #[serde(default, deserialize_with = "list")]
    pub events: Vec<super::events::Event>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingEventValue {
    pub event: super::events::Event,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "type")]
pub enum RecordValue {
    #[serde(rename = "StreamsGroupMetadataValue")]
    GroupMetadata(GroupMetadataValue),
    #[serde(rename = "StreamsGroupTopologyValue")]
    Topology(TopologyValue),
    #[serde(rename = "StreamsGroupMemberMetadataValue")]
    MemberMetadata(MemberMetadataValue),
    #[serde(rename = "StreamsGroupTargetAssignmentMetadataValue")]
    TargetAssignmentMetadata(TargetAssignmentMetadataValue),
    #[serde(rename = "StreamsGroupTargetAssignmentMemberValue")]
    TargetAssignmentMember(TargetAssignmentMemberValue),
    #[serde(rename = "StreamsGroupCurrentMemberAssignmentValue")]
    CurrentMemberAssignment(CurrentMemberAssignmentValue),
    #[serde(rename = "StreamsGroupMemberRuntimeValue")]
    MemberRuntime(MemberRuntimeValue),
    #[serde(rename = "StreamsGroupMemberTimersValue")]
    MemberTimers(MemberTimersValue),
    #[serde(rename = "StreamsGroupTopicCreationValue")]
    TopicCreation(TopicCreationValue),
    #[serde(rename = "ConsumerGroupMetadataValue")]
    ConsumerGroupMetadata(ConsumerGroupMetadataValue),
    #[serde(rename = "ConsumerGroupMemberValue")]
    ConsumerGroupMember(ConsumerGroupMemberValue),
    #[serde(rename = "OffsetCommitValue")]
    OffsetCommit(OffsetCommitValue),
    #[serde(rename = "TopicValue")]
    Topic(TopicValue),
    #[serde(rename = "AclsValue")]
    Acls(AclsValue),
    #[serde(rename = "ClockValue")]
    Clock(ClockValue),
    #[serde(rename = "MemberIdGeneratorValue")]
    MemberIdGenerator(MemberIdGeneratorValue),
    #[serde(rename = "PendingEventsValue")]
    PendingEvents(PendingEventsValue),
    #[serde(rename = "PendingEventValue")]
    PendingEvent(PendingEventValue),
    #[serde(rename = "GroupConfigValue")]
    GroupConfig(GroupConfigValue),
    #[serde(rename = "StreamsGroupConfigValue")]
    StreamsGroupConfig(StreamsGroupConfigValue),
}

impl Tagged for RecordValue {
    const TAGS: &'static [&'static str] = &[
        "StreamsGroupMetadataValue",
        "StreamsGroupTopologyValue",
        "StreamsGroupMemberMetadataValue",
        "StreamsGroupTargetAssignmentMetadataValue",
        "StreamsGroupTargetAssignmentMemberValue",
        "StreamsGroupCurrentMemberAssignmentValue",
        "StreamsGroupMemberRuntimeValue",
        "StreamsGroupMemberTimersValue",
        "StreamsGroupTopicCreationValue",
        "ConsumerGroupMetadataValue",
        "ConsumerGroupMemberValue",
        "OffsetCommitValue",
        "TopicValue",
        "AclsValue",
        "ClockValue",
        "MemberIdGeneratorValue",
        "PendingEventsValue",
        "PendingEventValue",
        "GroupConfigValue",
        "StreamsGroupConfigValue",
    ];
    const WHAT: &'static str = "record value type";

    fn variant<'de, D: Deserializer<'de>>(tag: &str, rest: D) -> Result<Self, D::Error> {
        use RecordValue as V;
        let d = rest;
        Ok(match tag {
            "StreamsGroupMetadataValue" => V::GroupMetadata(Deserialize::deserialize(d)?),
            "StreamsGroupTopologyValue" => V::Topology(Deserialize::deserialize(d)?),
            "StreamsGroupMemberMetadataValue" => V::MemberMetadata(Deserialize::deserialize(d)?),
            "StreamsGroupTargetAssignmentMetadataValue" => {
                V::TargetAssignmentMetadata(Deserialize::deserialize(d)?)
            }
            "StreamsGroupTargetAssignmentMemberValue" => {
                V::TargetAssignmentMember(Deserialize::deserialize(d)?)
            }
            "StreamsGroupCurrentMemberAssignmentValue" => {
                V::CurrentMemberAssignment(Deserialize::deserialize(d)?)
            }
            "StreamsGroupMemberRuntimeValue" => V::MemberRuntime(Deserialize::deserialize(d)?),
            "StreamsGroupMemberTimersValue" => V::MemberTimers(Deserialize::deserialize(d)?),
            "StreamsGroupTopicCreationValue" => V::TopicCreation(Deserialize::deserialize(d)?),
            "ConsumerGroupMetadataValue" => V::ConsumerGroupMetadata(Deserialize::deserialize(d)?),
            "ConsumerGroupMemberValue" => V::ConsumerGroupMember(Deserialize::deserialize(d)?),
            "OffsetCommitValue" => V::OffsetCommit(Deserialize::deserialize(d)?),
            "TopicValue" => V::Topic(Deserialize::deserialize(d)?),
            "AclsValue" => V::Acls(Deserialize::deserialize(d)?),
            "ClockValue" => V::Clock(Deserialize::deserialize(d)?),
            "MemberIdGeneratorValue" => V::MemberIdGenerator(Deserialize::deserialize(d)?),
            "PendingEventsValue" => V::PendingEvents(Deserialize::deserialize(d)?),
            "PendingEventValue" => V::PendingEvent(Deserialize::deserialize(d)?),
            "StreamsGroupConfigValue" => V::StreamsGroupConfig(Deserialize::deserialize(d)?),
            _ => V::GroupConfig(Deserialize::deserialize(d)?),
        })
    }
}

impl<'de> Deserialize<'de> for RecordValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged(d)
    }
}

impl RecordValue {
    /// The value's `type` (what `value_type` of its key must say).
    pub fn type_name(&self) -> &'static str {
        use RecordValue as V;
        match self {
            V::GroupMetadata(_) => "StreamsGroupMetadataValue",
            V::Topology(_) => "StreamsGroupTopologyValue",
            V::MemberMetadata(_) => "StreamsGroupMemberMetadataValue",
            V::TargetAssignmentMetadata(_) => "StreamsGroupTargetAssignmentMetadataValue",
            V::TargetAssignmentMember(_) => "StreamsGroupTargetAssignmentMemberValue",
            V::CurrentMemberAssignment(_) => "StreamsGroupCurrentMemberAssignmentValue",
            V::MemberRuntime(_) => "StreamsGroupMemberRuntimeValue",
            V::MemberTimers(_) => "StreamsGroupMemberTimersValue",
            V::TopicCreation(_) => "StreamsGroupTopicCreationValue",
            V::ConsumerGroupMetadata(_) => "ConsumerGroupMetadataValue",
            V::ConsumerGroupMember(_) => "ConsumerGroupMemberValue",
            V::OffsetCommit(_) => "OffsetCommitValue",
            V::Topic(_) => "TopicValue",
            V::Acls(_) => "AclsValue",
            V::Clock(_) => "ClockValue",
            V::MemberIdGenerator(_) => "MemberIdGeneratorValue",
            V::PendingEvents(_) => "PendingEventsValue",
            V::PendingEvent(_) => "PendingEventValue",
            V::GroupConfig(_) => "GroupConfigValue",
            V::StreamsGroupConfig(_) => "StreamsGroupConfigValue",
        }
    }
}

/// One entry of the log: `{ offset, key: { type, ... }, value: { type, ... } | null }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "CoordinatorRecord")]
pub struct Record {
    /// A JSON number while a JS number holds it exactly, else a decimal string.
    #[serde(with = "offset")]
    #[ts(type = "Int64")]
    pub offset: u64,
    pub key: RecordKey,
    /// Null: a tombstone (present all the same).
    #[serde(deserialize_with = "nullable")]
    pub value: Option<RecordValue>,
}

impl Validate for Record {
    fn validate(&self) -> Result<(), Invalid> {
        match &self.value {
            Some(v) if v.type_name() != self.key.value_type() => Err(Invalid::new(
                "value.type",
                format!(
                    "a key of this type carries a {}, found {:?}",
                    self.key.value_type(),
                    v.type_name()
                ),
            )),
            Some(v) => v.validate().map_err(|e| e.under("value")),
            None => Ok(()),
        }
    }
}

/// A record's offset: an unsigned int64 written as `int64` writes (a number up to
/// 2^53, a decimal string beyond), read from either.
mod offset {
    use crate::protocol::json::{int64, MAX_SAFE_INTEGER};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        if *v <= MAX_SAFE_INTEGER as u64 {
            s.serialize_u64(*v)
        } else {
            s.serialize_str(&v.to_string())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let v = int64::deserialize(d)?;
        u64::try_from(v)
            .map_err(|_| serde::de::Error::custom(format_args!("offset {v} is negative")))
    }
}

/// A list of a record beyond the limit the live path enforces on it.
fn list_limit(field: &str, n: usize, max: usize) -> Result<(), Invalid> {
    match crate::limits::list_excess(field, n, max) {
        Some(m) => Err(Invalid::new(field, m)),
        None => Ok(()),
    }
}

/// Owned-task lists of a record, each within the heartbeat's limit.
fn task_lists(lists: &[(&str, &[TaskIds])]) -> Result<(), Invalid> {
    for (field, list) in lists {
        let n = crate::limits::entries(list);
        list_limit(field, n, crate::limits::MAX_TASK_ENTRIES)?;
    }
    Ok(())
}

/// Each record value obeys the limits the live path checks before writing one
/// (README, "Limits"), so `fromRecords` accepts no state a live coordinator could
/// not reach: one validation per value type, with the live path's own checks
/// (`crate::limits`, `crate::topology::validate`).
impl Validate for RecordValue {
    fn validate(&self) -> Result<(), Invalid> {
        use crate::limits::{MAX_TAGS, MAX_TASK_ENTRIES};
        use RecordValue as V;
        match self {
            V::Topology(t) => {
                if let Some(e) = crate::limits::topology_excess(&t.subtopologies) {
                    return Err(Invalid::new(e.path(), e.message()));
                }
                let topology = crate::protocol::Topology {
                    epoch: t.topology_epoch,
                    subtopologies: t.subtopologies.clone(),
                };
                crate::topology::validate(&topology)
                    .map_err(|e| Invalid::new("subtopologies", e.message))
            }
            V::MemberMetadata(m) => list_limit("clientTags", m.client_tags.len(), MAX_TAGS),
            V::TargetAssignmentMember(t) => task_lists(&[
                ("activeTasks", t.active_tasks.as_slice()),
                ("standbyTasks", t.standby_tasks.as_slice()),
                ("warmupTasks", t.warmup_tasks.as_slice()),
            ]),
            V::CurrentMemberAssignment(c) => task_lists(&[
                ("activeTasks", c.active_tasks.as_slice()),
                ("standbyTasks", c.standby_tasks.as_slice()),
                ("warmupTasks", c.warmup_tasks.as_slice()),
                (
                    "activeTasksPendingRevocation",
                    c.active_tasks_pending_revocation.as_slice(),
                ),
                (
                    "standbyTasksPendingRevocation",
                    c.standby_tasks_pending_revocation.as_slice(),
                ),
                (
                    "warmupTasksPendingRevocation",
                    c.warmup_tasks_pending_revocation.as_slice(),
                ),
            ]),
            V::MemberRuntime(r) => {
                list_limit("taskOffsets", r.task_offsets.len(), MAX_TASK_ENTRIES)?;
                list_limit("taskEndOffsets", r.task_end_offsets.len(), MAX_TASK_ENTRIES)?;
                task_lists(&[
                    ("reportedActiveTasks", r.reported_active_tasks.as_slice()),
                    ("reportedStandbyTasks", r.reported_standby_tasks.as_slice()),
                    ("reportedWarmupTasks", r.reported_warmup_tasks.as_slice()),
                ])
            }
            V::Topic(t) => {
                if let Some(m) = crate::limits::partitions_excess(t.num_partitions) {
                    return Err(Invalid::new("numPartitions", m));
                }
                if t.replication_factor <= 0 {
                    return Err(Invalid::new(
                        "replicationFactor",
                        format!(
                            "{} is not a positive replication factor",
                            t.replication_factor
                        ),
                    ));
                }
                list_limit("configs", t.configs.len(), MAX_TAGS)
            }
            V::GroupConfig(c) => c.validate(),
            V::StreamsGroupConfig(c) => c.validate(),
            _ => Ok(()),
        }
    }
}
