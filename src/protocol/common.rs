//! Structures shared by several messages: KeyValue, Endpoint, TaskIds, TaskOffset,
//! TopicInfo, CopartitionGroup, Subtopology, Topology.

use crate::from_json_struct;
use crate::protocol::json::{int64, DecodeError, FromJson};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

from_json_struct!(
    KeyValue,
    "a {key, value} object",
    "{key, value} objects",
    |f| {
        Ok(KeyValue {
            key: f.required("key")?,
            value: f.required("value")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
}

from_json_struct!(
    Endpoint,
    "a {host, port} object",
    "{host, port} objects",
    |f| {
        Ok(Endpoint {
            host: f.required("host")?,
            port: f.required("port")?,
        })
    }
);

/// A non-negative int32: partitions and partition indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Partition(pub i32);

impl FromJson for Partition {
    const EXPECTED: &'static str = "a partition (a non-negative int32)";
    const PLURAL: &'static str = "partitions (non-negative int32 numbers)";
    fn from_json(
        v: &serde_json::Value,
        path: &crate::protocol::json::Path<'_>,
    ) -> Result<Self, DecodeError> {
        let p = i32::from_json(v, path)?;
        if p < 0 {
            return Err(DecodeError::new(path, format!("partition {p} is negative")));
        }
        Ok(Partition(p))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskIds {
    pub subtopology_id: String,
    pub partitions: Vec<i32>,
}

from_json_struct!(TaskIds, "a TaskIds object", "TaskIds objects", |f| {
    let partitions: Vec<Partition> = f.required("partitions")?;
    Ok(TaskIds {
        subtopology_id: f.required("subtopologyId")?,
        partitions: partitions.into_iter().map(|p| p.0).collect(),
    })
});

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskOffset {
    pub subtopology_id: String,
    pub partition: i32,
    #[serde(with = "int64")]
    pub offset: i64,
}

from_json_struct!(
    TaskOffset,
    "a TaskOffset object",
    "TaskOffset objects",
    |f| {
        let partition: Partition = f.required("partition")?;
        Ok(TaskOffset {
            subtopology_id: f.required("subtopologyId")?,
            partition: partition.0,
            offset: f.required("offset")?,
        })
    }
);

/// `partitions` 0 means "not fixed" (always 0 for changelogs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicInfo {
    pub name: String,
    pub partitions: i32,
    pub replication_factor: i16,
    pub topic_configs: Vec<KeyValue>,
}

from_json_struct!(TopicInfo, "a TopicInfo object", "TopicInfo objects", |f| {
    let partitions: i32 = f.or("partitions", 0)?;
    if partitions < 0 {
        return Err(DecodeError::new(
            &f.path().key("partitions"),
            format!("partition count {partitions} is negative"),
        ));
    }
    let replication_factor: i16 = f.or("replicationFactor", 0)?;
    if replication_factor < 0 && replication_factor != -1 {
        return Err(DecodeError::new(
            &f.path().key("replicationFactor"),
            format!("replication factor {replication_factor} is negative"),
        ));
    }
    Ok(TopicInfo {
        name: f.required("name")?,
        partitions,
        replication_factor: replication_factor.max(0),
        topic_configs: f.list("topicConfigs")?,
    })
});

/// Indexes into the subtopology's own lists of sources, regexes and repartition sources.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopartitionGroup {
    pub source_topics: Vec<i16>,
    pub source_topic_regex: Vec<i16>,
    pub repartition_source_topics: Vec<i16>,
}

from_json_struct!(
    CopartitionGroup,
    "a CopartitionGroup object",
    "CopartitionGroup objects",
    |f| {
        Ok(CopartitionGroup {
            source_topics: f.list("sourceTopics")?,
            source_topic_regex: f.list("sourceTopicRegex")?,
            repartition_source_topics: f.list("repartitionSourceTopics")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize)]
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

from_json_struct!(
    Subtopology,
    "a Subtopology object",
    "Subtopology objects",
    |f| {
        Ok(Subtopology {
            subtopology_id: f.required("subtopologyId")?,
            source_topics: f.list("sourceTopics")?,
            source_topic_regex: f.list("sourceTopicRegex")?,
            state_changelog_topics: f.list("stateChangelogTopics")?,
            repartition_sink_topics: f.list("repartitionSinkTopics")?,
            repartition_source_topics: f.list("repartitionSourceTopics")?,
            copartition_groups: f.list("copartitionGroups")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Topology {
    pub epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

from_json_struct!(Topology, "a Topology object", "Topology objects", |f| {
    Ok(Topology {
        epoch: f.required("epoch")?,
        subtopologies: f.required("subtopologies")?,
    })
});

/// A status of a heartbeat response: `statusCode` per [`crate::protocol::StatusCode`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub status_code: i8,
    pub status_detail: String,
}

from_json_struct!(Status, "a Status object", "Status objects", |f| {
    Ok(Status {
        status_code: f.required("statusCode")?,
        status_detail: f.required("statusDetail")?,
    })
});

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicPartitions {
    pub topic: String,
    pub partitions: Vec<i32>,
}

from_json_struct!(
    TopicPartitions,
    "a {topic, partitions} object",
    "{topic, partitions} objects",
    |f| {
        let partitions: Vec<Partition> = f.required("partitions")?;
        Ok(TopicPartitions {
            topic: f.required("topic")?,
            partitions: partitions.into_iter().map(|p| p.0).collect(),
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointToPartitions {
    pub user_endpoint: Endpoint,
    pub partitions: Vec<TopicPartitions>,
}

from_json_struct!(
    EndpointToPartitions,
    "an EndpointToPartitions object",
    "EndpointToPartitions objects",
    |f| {
        Ok(EndpointToPartitions {
            user_endpoint: f.required("userEndpoint")?,
            partitions: f.required("partitions")?,
        })
    }
);
