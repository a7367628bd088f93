//! Topology configuration (SPEC.md section 5): a pure function of (topology, cluster
//! metadata) to a configured topology or a status that keeps the group NotReady.
//!
//! Seam with the coordinator: `validate` runs on every topology a member sends (its
//! failures are STREAMS_INVALID_TOPOLOGY answers); `configure` runs whenever the group's
//! topology or the cluster's topics change; `InternalTopicCreation` (in `creation`)
//! tracks the coordinator's own creation of missing internal topics.

pub mod creation;
pub mod names;

use crate::cluster::Cluster;
use crate::protocol::{KeyValue, ProtocolError, StatusCode, Topology};

/// An internal topic (changelog or repartition) with its decided partition count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredInternalTopic {
    pub name: String,
    pub partitions: i32,
    /// 0 = the coordinator's configured / cluster default.
    pub replication_factor: i16,
    pub topic_configs: Vec<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredSubtopology {
    pub id: String,
    /// The maximum partition count over its source and repartition source topics.
    pub num_tasks: u32,
    /// External source topics, regexes resolved, sorted.
    pub source_topics: Vec<String>,
    pub repartition_source_topics: Vec<ConfiguredInternalTopic>,
    pub state_changelog_topics: Vec<ConfiguredInternalTopic>,
    pub repartition_sink_topics: Vec<String>,
    /// Has changelogs.
    pub stateful: bool,
}

/// A status of statuses 1-4 with its detail text (topics listed sorted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicStatus {
    pub code: StatusCode,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredTopology {
    pub epoch: i32,
    /// Sorted by id; empty unless ready.
    pub subtopologies: Vec<ConfiguredSubtopology>,
    /// Internal topics that do not exist yet (with MISSING_INTERNAL_TOPICS).
    pub internal_topics_to_create: Vec<ConfiguredInternalTopic>,
    /// The first status that keeps the group NotReady, if any.
    pub status: Option<TopicStatus>,
}

impl ConfiguredTopology {
    pub fn is_ready(&self) -> bool {
        self.status.is_none()
    }

    pub fn subtopology(&self, id: &str) -> Option<&ConfiguredSubtopology> {
        self.subtopologies
            .binary_search_by(|s| s.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.subtopologies[i])
    }

    /// Whether (subtopology, partition) is a task of this configured topology.
    pub fn has_task(&self, subtopology: &str, partition: i32) -> bool {
        self.subtopology(subtopology)
            .is_some_and(|s| partition >= 0 && (partition as u32) < s.num_tasks)
    }
}

/// The invariants a topology must hold when a member sends it (SPEC.md section 2).
pub fn validate(topology: &Topology) -> Result<(), ProtocolError> {
    use crate::protocol::ErrorCode::STREAMS_INVALID_TOPOLOGY;
    if topology.subtopologies.is_empty() {
        return Err(ProtocolError::new(
            STREAMS_INVALID_TOPOLOGY,
            "The topology has no subtopologies.",
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for s in &topology.subtopologies {
        if s.subtopology_id.is_empty() {
            return Err(ProtocolError::new(
                STREAMS_INVALID_TOPOLOGY,
                "A subtopology id is empty.",
            ));
        }
        if !seen.insert(s.subtopology_id.as_str()) {
            return Err(ProtocolError::new(
                STREAMS_INVALID_TOPOLOGY,
                format!("Subtopology id {} appears twice.", s.subtopology_id),
            ));
        }
    }
    Ok(())
}

/// Configures `topology` against the cluster. `Err` is a STREAMS_INVALID_TOPOLOGY that
/// only shows against metadata (e.g. partition counts that cannot be inferred).
pub fn configure(
    topology: &Topology,
    cluster: &Cluster,
) -> Result<ConfiguredTopology, ProtocolError> {
    let mut missing: Vec<String> = Vec::new();
    let mut subtopologies = Vec::new();
    let mut to_create = Vec::new();
    for s in &topology.subtopologies {
        let mut num_tasks = 0;
        for t in &s.source_topics {
            match cluster.topic(t) {
                Some(m) => num_tasks = num_tasks.max(m.num_partitions.max(0) as u32),
                None => missing.push(t.clone()),
            }
        }
        let changelogs: Vec<ConfiguredInternalTopic> = s
            .state_changelog_topics
            .iter()
            .map(|c| ConfiguredInternalTopic {
                name: c.name.clone(),
                partitions: num_tasks as i32,
                replication_factor: c.replication_factor,
                topic_configs: c.topic_configs.clone(),
            })
            .collect();
        for c in &changelogs {
            if cluster.topic(&c.name).is_none() {
                to_create.push(c.clone());
            }
        }
        let mut sources = s.source_topics.clone();
        sources.sort();
        subtopologies.push(ConfiguredSubtopology {
            id: s.subtopology_id.clone(),
            num_tasks,
            source_topics: sources,
            repartition_source_topics: Vec::new(),
            stateful: !changelogs.is_empty(),
            state_changelog_topics: changelogs,
            repartition_sink_topics: s.repartition_sink_topics.clone(),
        });
    }
    subtopologies.sort_by(|a, b| a.id.cmp(&b.id));
    missing.sort();
    missing.dedup();
    let status = if !missing.is_empty() {
        Some(TopicStatus {
            code: StatusCode::MISSING_SOURCE_TOPICS,
            detail: format!("Source topics {} are missing.", missing.join(", ")),
        })
    } else if !to_create.is_empty() {
        let names: Vec<&str> = to_create.iter().map(|t| t.name.as_str()).collect();
        Some(TopicStatus {
            code: StatusCode::MISSING_INTERNAL_TOPICS,
            detail: format!("Internal topics are missing: {}", names.join(", ")),
        })
    } else {
        None
    };
    Ok(ConfiguredTopology {
        epoch: topology.epoch,
        subtopologies: if status.is_none() {
            subtopologies
        } else {
            Vec::new()
        },
        internal_topics_to_create: to_create,
        status,
    })
}
