//! OffsetCommit (API key 8) and OffsetFetch (API key 9), as far as streams and
//! consumer groups use them: commits and fetches checked against the member epoch.

use crate::protocol::json::{int64, partition, partitions, Ignored, Validate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct OffsetCommitRequest {
    pub group_id: String,
    /// The member epoch (Kafka's `generationIdOrMemberEpoch`); -1 for an admin commit.
    #[serde(default = "crate::protocol::heartbeat::minus_one")]
    #[ts(optional = nullable)]
    pub generation_id_or_member_epoch: i32,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub member_id: String,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub group_instance_id: Option<String>,
    pub topics: Vec<OffsetCommitTopic>,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub retention_time_ms: Ignored,
}

impl Validate for OffsetCommitRequest {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct OffsetCommitTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitPartition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct OffsetCommitPartition {
    #[serde(deserialize_with = "partition::deserialize")]
    pub partition_index: i32,
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    pub committed_offset: i64,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub committed_metadata: Option<String>,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub committed_leader_epoch: Ignored,
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub commit_timestamp: Ignored,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponse {
    pub throttle_time_ms: i32,
    pub topics: Vec<OffsetCommitResponseTopic>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitResponsePartition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponsePartition {
    pub partition_index: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct OffsetFetchRequest {
    pub group_id: String,
    pub member_id: Option<String>,
    /// -1: no member check (an admin fetch).
    #[serde(default = "crate::protocol::heartbeat::minus_one")]
    #[ts(optional = nullable)]
    pub member_epoch: i32,
    /// Null: every committed partition.
    pub topics: Option<Vec<OffsetFetchTopic>>,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub require_stable: Ignored,
}

impl Validate for OffsetFetchRequest {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct OffsetFetchTopic {
    pub name: String,
    #[serde(deserialize_with = "partitions::deserialize")]
    pub partition_indexes: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub topics: Vec<OffsetFetchResponseTopic>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetFetchResponsePartition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponsePartition {
    pub partition_index: i32,
    /// -1 when nothing is committed.
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub committed_offset: i64,
    pub metadata: Option<String>,
    pub error_code: i16,
}
