//! Kafka's coordinator records for streams groups and offset commits, field for field
//! as its schemas define them (`group-coordinator/.../common/message/StreamsGroup*.json`,
//! `OffsetCommit*.json`) and as its generated JSON converters print them: field names
//! with the first letter lower-cased, tagged fields only when not at their default,
//! int64 as plain JSON numbers. Reading follows the converters too: a mandatory field
//! must be present, an unknown field (a later version's tagged field) is ignored.

use serde::{Deserialize, Serialize};

/// Record types (the key's `apiKey`) of the group coordinator.
pub const LEGACY_OFFSET_COMMIT: i16 = 0;
pub const OFFSET_COMMIT: i16 = 1;
pub const STREAMS_GROUP_METADATA: i16 = 17;
pub const STREAMS_GROUP_MEMBER_METADATA: i16 = 19;
pub const STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA: i16 = 20;
pub const STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER: i16 = 21;
pub const STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT: i16 = 22;
pub const STREAMS_GROUP_TOPOLOGY: i16 = 23;

/// The value version Kafka writes for offset commits without an expire timestamp.
pub const OFFSET_COMMIT_VALUE_VERSION: i16 = 4;

/// What a record type holds, for the types this reader skips.
pub fn other_group_type(t: i16) -> Option<&'static str> {
    match t {
        2 => Some("classic"),
        3..=8 | 16 => Some("consumer"),
        10..=15 => Some("share"),
        _ => None,
    }
}

/// The schema name of a record type's value, for error messages.
pub fn value_name(t: i16) -> &'static str {
    match t {
        LEGACY_OFFSET_COMMIT | OFFSET_COMMIT => "OffsetCommitValue",
        STREAMS_GROUP_METADATA => "StreamsGroupMetadataValue",
        STREAMS_GROUP_MEMBER_METADATA => "StreamsGroupMemberMetadataValue",
        STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA => "StreamsGroupTargetAssignmentMetadataValue",
        STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER => "StreamsGroupTargetAssignmentMemberValue",
        STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT => "StreamsGroupCurrentMemberAssignmentValue",
        STREAMS_GROUP_TOPOLOGY => "StreamsGroupTopologyValue",
        _ => "value",
    }
}

/// A plain int64 number, as Kafka's converters print it (exact in the text even
/// beyond 2^53); read as a number or a decimal string.
pub mod raw_int64 {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(*v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        crate::protocol::json::int64::deserialize(d)
    }
}

fn minus_one() -> i32 {
    -1
}

fn is_minus_one(v: &i32) -> bool {
    *v == -1
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupKey {
    pub group_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberKey {
    pub group_id: String,
    pub member_id: String,
}

/// OffsetCommitKey (and LegacyOffsetCommitKey): its fields are lower-case already.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetKey {
    pub group: String,
    pub topic: String,
    pub partition: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

/// StreamsGroupMetadataValue (type 17, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupMetadataValue {
    pub epoch: i32,
    #[serde(with = "raw_int64")]
    pub metadata_hash: i64,
    /// Tag 0, default -1.
    #[serde(default = "minus_one", skip_serializing_if = "is_minus_one")]
    pub validated_topology_epoch: i32,
    /// Tag 1, default null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_assignment_configs: Option<Vec<KeyValue>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
}

/// StreamsGroupMemberMetadataValue (type 19, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberMetadataValue {
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: i32,
    pub topology_epoch: i32,
    pub process_id: String,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Vec<KeyValue>,
}

/// StreamsGroupTargetAssignmentMetadataValue (type 20, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetAssignmentMetadataValue {
    pub assignment_epoch: i32,
    /// Tag 0 (Kafka 4.3+), default 0.
    #[serde(default, with = "raw_int64", skip_serializing_if = "is_zero")]
    pub assignment_timestamp: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskIds {
    pub subtopology_id: String,
    pub partitions: Vec<i32>,
    /// Tag 0 of the current assignment's TaskIds, default null (active tasks only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment_epochs: Option<Vec<i32>>,
}

/// StreamsGroupTargetAssignmentMemberValue (type 21, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetAssignmentMemberValue {
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
}

/// StreamsGroupCurrentMemberAssignmentValue (type 22, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CurrentMemberAssignmentValue {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: i8,
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
    pub active_tasks_pending_revocation: Vec<TaskIds>,
    pub standby_tasks_pending_revocation: Vec<TaskIds>,
    pub warmup_tasks_pending_revocation: Vec<TaskIds>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicInfo {
    pub name: String,
    pub partitions: i32,
    pub replication_factor: i16,
    pub topic_configs: Vec<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopartitionGroup {
    pub source_topics: Vec<i16>,
    pub source_topic_regex: Vec<i16>,
    pub repartition_source_topics: Vec<i16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subtopology {
    pub subtopology_id: String,
    pub source_topics: Vec<String>,
    pub source_topic_regex: Vec<String>,
    pub state_changelog_topics: Vec<TopicInfo>,
    pub repartition_sink_topics: Vec<String>,
    pub repartition_source_topics: Vec<TopicInfo>,
    pub copartition_groups: Vec<CopartitionGroup>,
}

/// StreamsGroupTopologyValue (type 23, version 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyValue {
    pub epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

/// OffsetCommitValue: written at version 4 (offset, leaderEpoch, metadata,
/// commitTimestamp); read at versions 0 to 4.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitValue {
    #[serde(with = "raw_int64")]
    pub offset: i64,
    /// Version 3+, default -1.
    #[serde(default = "minus_one")]
    pub leader_epoch: i32,
    pub metadata: String,
    #[serde(with = "raw_int64")]
    pub commit_timestamp: i64,
}

// ---------------------------------------------------------------------------------
// Conversions: each of Kafka's types and ours, both directions side by side (reading
// converts Kafka's to ours, writing ours to Kafka's).

use crate::coordinator::records as ours;
use crate::protocol as p;

/// A list converted element by element.
pub fn list<'a, A: 'a, B: From<&'a A>>(v: &'a [A]) -> Vec<B> {
    v.iter().map(B::from).collect()
}

impl From<&KeyValue> for p::KeyValue {
    fn from(kv: &KeyValue) -> Self {
        let KeyValue { key, value } = kv.clone();
        p::KeyValue { key, value }
    }
}

impl From<&p::KeyValue> for KeyValue {
    fn from(kv: &p::KeyValue) -> Self {
        let p::KeyValue { key, value } = kv.clone();
        KeyValue { key, value }
    }
}

impl From<&Endpoint> for p::Endpoint {
    fn from(e: &Endpoint) -> Self {
        let Endpoint { host, port } = e.clone();
        p::Endpoint { host, port }
    }
}

impl From<&p::Endpoint> for Endpoint {
    fn from(e: &p::Endpoint) -> Self {
        let p::Endpoint { host, port } = e.clone();
        Endpoint { host, port }
    }
}

/// Kafka's per-partition assignment epochs are read apart (they belong to the
/// current assignment, not to the task list).
impl From<&TaskIds> for p::TaskIds {
    fn from(t: &TaskIds) -> Self {
        p::TaskIds {
            subtopology_id: t.subtopology_id.clone(),
            partitions: t.partitions.clone(),
        }
    }
}

/// Without assignment epochs (the current assignment's active lists add them).
impl From<&p::TaskIds> for TaskIds {
    fn from(t: &p::TaskIds) -> Self {
        TaskIds {
            subtopology_id: t.subtopology_id.clone(),
            partitions: t.partitions.clone(),
            assignment_epochs: None,
        }
    }
}

/// A replication factor of -1 (Kafka's "the broker default") reads as our 0.
impl From<&TopicInfo> for p::TopicInfo {
    fn from(t: &TopicInfo) -> Self {
        p::TopicInfo {
            name: t.name.clone(),
            partitions: t.partitions,
            replication_factor: t.replication_factor.max(0),
            topic_configs: list(&t.topic_configs),
        }
    }
}

impl From<&p::TopicInfo> for TopicInfo {
    fn from(t: &p::TopicInfo) -> Self {
        TopicInfo {
            name: t.name.clone(),
            partitions: t.partitions,
            replication_factor: t.replication_factor,
            topic_configs: list(&t.topic_configs),
        }
    }
}

impl From<&CopartitionGroup> for p::CopartitionGroup {
    fn from(g: &CopartitionGroup) -> Self {
        let CopartitionGroup {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
        } = g.clone();
        p::CopartitionGroup {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
        }
    }
}

impl From<&p::CopartitionGroup> for CopartitionGroup {
    fn from(g: &p::CopartitionGroup) -> Self {
        let p::CopartitionGroup {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
        } = g.clone();
        CopartitionGroup {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
        }
    }
}

impl From<&Subtopology> for p::Subtopology {
    fn from(s: &Subtopology) -> Self {
        p::Subtopology {
            subtopology_id: s.subtopology_id.clone(),
            source_topics: s.source_topics.clone(),
            source_topic_regex: s.source_topic_regex.clone(),
            state_changelog_topics: list(&s.state_changelog_topics),
            repartition_sink_topics: s.repartition_sink_topics.clone(),
            repartition_source_topics: list(&s.repartition_source_topics),
            copartition_groups: list(&s.copartition_groups),
        }
    }
}

impl From<&p::Subtopology> for Subtopology {
    fn from(s: &p::Subtopology) -> Self {
        Subtopology {
            subtopology_id: s.subtopology_id.clone(),
            source_topics: s.source_topics.clone(),
            source_topic_regex: s.source_topic_regex.clone(),
            state_changelog_topics: list(&s.state_changelog_topics),
            repartition_sink_topics: s.repartition_sink_topics.clone(),
            repartition_source_topics: list(&s.repartition_source_topics),
            copartition_groups: list(&s.copartition_groups),
        }
    }
}

impl From<&TopologyValue> for ours::TopologyValue {
    fn from(t: &TopologyValue) -> Self {
        ours::TopologyValue {
            topology_epoch: t.epoch,
            subtopologies: list(&t.subtopologies),
        }
    }
}

impl From<&ours::TopologyValue> for TopologyValue {
    fn from(t: &ours::TopologyValue) -> Self {
        TopologyValue {
            epoch: t.topology_epoch,
            subtopologies: list(&t.subtopologies),
        }
    }
}

impl From<&MemberMetadataValue> for ours::MemberMetadataValue {
    fn from(m: &MemberMetadataValue) -> Self {
        ours::MemberMetadataValue {
            instance_id: m.instance_id.clone(),
            rack_id: m.rack_id.clone(),
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            topology_epoch: m.topology_epoch,
            process_id: m.process_id.clone(),
            user_endpoint: m.user_endpoint.as_ref().map(Into::into),
            client_tags: list(&m.client_tags),
        }
    }
}

impl From<&ours::MemberMetadataValue> for MemberMetadataValue {
    fn from(m: &ours::MemberMetadataValue) -> Self {
        MemberMetadataValue {
            instance_id: m.instance_id.clone(),
            rack_id: m.rack_id.clone(),
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            topology_epoch: m.topology_epoch,
            process_id: m.process_id.clone(),
            user_endpoint: m.user_endpoint.as_ref().map(Into::into),
            client_tags: list(&m.client_tags),
        }
    }
}

impl From<&TargetAssignmentMemberValue> for ours::TargetAssignmentMemberValue {
    fn from(t: &TargetAssignmentMemberValue) -> Self {
        ours::TargetAssignmentMemberValue {
            active_tasks: list(&t.active_tasks),
            standby_tasks: list(&t.standby_tasks),
            warmup_tasks: list(&t.warmup_tasks),
        }
    }
}

impl From<&ours::TargetAssignmentMemberValue> for TargetAssignmentMemberValue {
    fn from(t: &ours::TargetAssignmentMemberValue) -> Self {
        TargetAssignmentMemberValue {
            active_tasks: list(&t.active_tasks),
            standby_tasks: list(&t.standby_tasks),
            warmup_tasks: list(&t.warmup_tasks),
        }
    }
}
