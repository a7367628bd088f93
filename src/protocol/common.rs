//! Structures shared by several messages: KeyValue, Endpoint, TaskIds, TaskOffset,
//! TopicInfo, CopartitionGroup, Subtopology, Topology.

use crate::protocol::json::{int64, list, partition, partitions, Invalid, Validate};
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
}

/// Tasks of one subtopology: `partitions` are non-negative int32 partition numbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskIds {
    pub subtopology_id: String,
    #[serde(deserialize_with = "partitions::deserialize")]
    pub partitions: Vec<i32>,
}

/// A cumulative changelog offset of one task (int64).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskOffset {
    pub subtopology_id: String,
    #[serde(deserialize_with = "partition::deserialize")]
    pub partition: i32,
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    pub offset: i64,
}

/// An internal topic: `partitions` 0 means "not fixed" (always 0 for changelogs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicInfo {
    pub name: String,
    #[serde(default, deserialize_with = "partition_count")]
    #[ts(optional = nullable)]
    pub partitions: i32,
    /// int16; 0 (the default) means the cluster's default; -1 reads as 0.
    #[serde(default, deserialize_with = "replication_factor")]
    #[ts(optional = nullable)]
    pub replication_factor: i16,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub topic_configs: Vec<KeyValue>,
}

fn partition_count<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    let n = i32::deserialize(d)?;
    if n < 0 {
        return Err(serde::de::Error::custom(format_args!(
            "partition count {n} is negative"
        )));
    }
    Ok(n)
}

fn replication_factor<'de, D: Deserializer<'de>>(d: D) -> Result<i16, D::Error> {
    let r = i16::deserialize(d)?;
    if r < -1 {
        return Err(serde::de::Error::custom(format_args!(
            "replication factor {r} is negative"
        )));
    }
    Ok(r.max(0))
}

/// Indexes (int16) into the subtopology's own lists of sources, regexes and
/// repartition sources.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CopartitionGroup {
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub source_topics: Vec<i16>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub source_topic_regex: Vec<i16>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub repartition_source_topics: Vec<i16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Subtopology {
    pub subtopology_id: String,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub source_topics: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub source_topic_regex: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub state_changelog_topics: Vec<TopicInfo>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub repartition_sink_topics: Vec<String>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub repartition_source_topics: Vec<TopicInfo>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub copartition_groups: Vec<CopartitionGroup>,
}

/// A topology with its epoch (int32), sent on every join.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Topology {
    pub epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

impl Validate for Topology {}

/// A status of a heartbeat response: `statusCode` per [`crate::protocol::StatusCode`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Status {
    pub status_code: i8,
    pub status_detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicPartitions {
    pub topic: String,
    #[serde(deserialize_with = "partitions::deserialize")]
    pub partitions: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointToPartitions {
    pub user_endpoint: Endpoint,
    pub partitions: Vec<TopicPartitions>,
}

/// Ids that must be unique in a list: the path of the second one names it.
pub(crate) fn unique<'a>(
    ids: impl IntoIterator<Item = &'a str>,
    path: impl Fn(usize) -> String,
    what: &str,
) -> Result<(), Invalid> {
    // Sorted (id, position): a repeated id sits next to its first occurrence.
    let mut sorted: Vec<(&str, usize)> = ids.into_iter().zip(0..).collect();
    sorted.sort_unstable();
    let second = sorted
        .iter()
        .zip(sorted.iter().skip(1))
        .filter(|(a, b)| a.0 == b.0)
        .map(|(_, b)| *b)
        .min_by_key(|(_, i)| *i);
    match second {
        Some((id, i)) => Err(Invalid::new(
            path(i),
            format!(
                "duplicate {what} {:?}",
                crate::protocol::json::truncate(id, 60)
            ),
        )),
        None => Ok(()),
    }
}
