//! OffsetCommit (API key 8) and OffsetFetch (API key 9), as far as streams and
//! consumer groups use them: commits and fetches checked against the member epoch.

use crate::from_json_struct;
use crate::protocol::common::Partition;
use crate::protocol::json::int64;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitRequest {
    pub group_id: String,
    /// The member epoch (Kafka's `generationIdOrMemberEpoch`); -1 for an admin commit.
    pub generation_id_or_member_epoch: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub topics: Vec<OffsetCommitTopic>,
}

from_json_struct!(
    OffsetCommitRequest,
    "an OffsetCommitRequest object",
    "OffsetCommitRequest objects",
    |f| {
        f.ignore(&["retentionTimeMs"]);
        Ok(OffsetCommitRequest {
            group_id: f.required("groupId")?,
            generation_id_or_member_epoch: f.or("generationIdOrMemberEpoch", -1)?,
            member_id: f.or("memberId", String::new())?,
            group_instance_id: f.or("groupInstanceId", None)?,
            topics: f.required("topics")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitPartition>,
}

from_json_struct!(
    OffsetCommitTopic,
    "an OffsetCommit topic object",
    "OffsetCommit topic objects",
    |f| {
        Ok(OffsetCommitTopic {
            name: f.required("name")?,
            partitions: f.required("partitions")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitPartition {
    pub partition_index: i32,
    #[serde(with = "int64")]
    pub committed_offset: i64,
    pub committed_metadata: Option<String>,
}

from_json_struct!(
    OffsetCommitPartition,
    "an OffsetCommit partition object",
    "OffsetCommit partition objects",
    |f| {
        f.ignore(&["committedLeaderEpoch", "commitTimestamp"]);
        let p: Partition = f.required("partitionIndex")?;
        Ok(OffsetCommitPartition {
            partition_index: p.0,
            committed_offset: f.required("committedOffset")?,
            committed_metadata: f.or("committedMetadata", None)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponse {
    pub throttle_time_ms: i32,
    pub topics: Vec<OffsetCommitResponseTopic>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitResponsePartition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitResponsePartition {
    pub partition_index: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchRequest {
    pub group_id: String,
    pub member_id: Option<String>,
    /// -1: no member check (an admin fetch).
    pub member_epoch: i32,
    /// Null: every committed partition.
    pub topics: Option<Vec<OffsetFetchTopic>>,
}

from_json_struct!(
    OffsetFetchRequest,
    "an OffsetFetchRequest object",
    "OffsetFetchRequest objects",
    |f| {
        f.ignore(&["requireStable"]);
        Ok(OffsetFetchRequest {
            group_id: f.required("groupId")?,
            member_id: f.or("memberId", None)?,
            member_epoch: f.or("memberEpoch", -1)?,
            topics: f.or("topics", None)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchTopic {
    pub name: String,
    pub partition_indexes: Vec<i32>,
}

from_json_struct!(
    OffsetFetchTopic,
    "an OffsetFetch topic object",
    "OffsetFetch topic objects",
    |f| {
        let ps: Vec<Partition> = f.required("partitionIndexes")?;
        Ok(OffsetFetchTopic {
            name: f.required("name")?,
            partition_indexes: ps.into_iter().map(|p| p.0).collect(),
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub topics: Vec<OffsetFetchResponseTopic>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetFetchResponsePartition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct OffsetFetchResponsePartition {
    pub partition_index: i32,
    /// -1 when nothing is committed.
    #[serde(with = "int64")]
    pub committed_offset: i64,
    pub metadata: Option<String>,
    pub error_code: i16,
}
