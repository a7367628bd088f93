//! Topology configuration (PROTOCOL.md §5): a pure function of (topology, cluster
//! metadata) to a configured topology or a status that keeps the group NotReady.
//!
//! Seam with the coordinator:
//! - `validate` runs on every topology a member sends (failures are
//!   STREAMS_INVALID_TOPOLOGY answers; the group is not touched);
//! - `configure` runs whenever the group's topology or the cluster's topics change;
//!   any of the `statuses` in its result keeps the group NotReady (every member's target empty,
//!   the status sent on every heartbeat);
//! - `creation::InternalTopicCreation` tracks the coordinator's own creation of the
//!   internal topics `configure` found missing, and writes MISSING_INTERNAL_TOPICS'
//!   detail;
//! - `describe::described_topology` is what StreamsGroupDescribe shows.

pub mod configure;
pub mod copartition;
pub mod creation;
pub mod describe;
pub mod names;
pub mod regex;
pub mod repartition;
pub mod validate;

pub use configure::configure;
pub use describe::described_topology;
pub use validate::validate;

use crate::protocol::{KeyValue, StatusCode};

/// An internal topic (changelog or repartition) with its decided partition count.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfiguredInternalTopic {
    pub name: String,
    pub partitions: i32,
    /// 0 = the coordinator's `internalTopicReplicationFactor`, else the cluster default.
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

/// An existing internal topic whose settings other than the partition count differ
/// from what the topology asks: reported once as an event, otherwise ignored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConfigMismatch {
    pub topic: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredTopology {
    pub epoch: i32,
    /// Sorted by id; empty unless ready.
    pub subtopologies: Vec<ConfiguredSubtopology>,
    /// Internal topics that do not exist yet and whose partition count is decided
    /// (with MISSING_INTERNAL_TOPICS), sorted: the coordinator creates these, even
    /// while other statuses hold: their count does not depend on what those are about.
    pub internal_topics_to_create: Vec<ConfiguredInternalTopic>,
    /// Internal topics that do not exist yet and whose partition count cannot be
    /// decided while another status holds (also MISSING_INTERNAL_TOPICS), sorted:
    /// never created with a guessed count.
    pub internal_topics_undecided: Vec<String>,
    /// Every status of 1-4 that holds, in code order, each once; empty when ready.
    /// `configure` documents which status can keep another from being decided.
    pub statuses: Vec<TopicStatus>,
    /// Existing internal topics whose other settings differ, sorted by topic.
    pub config_mismatches: Vec<ConfigMismatch>,
}

impl ConfiguredTopology {
    pub fn is_ready(&self) -> bool {
        self.statuses.is_empty()
    }

    /// The status with this code, if it holds.
    pub fn status(&self, code: StatusCode) -> Option<&TopicStatus> {
        self.statuses.iter().find(|s| s.code == code)
    }

    pub fn subtopology(&self, id: &str) -> Option<&ConfiguredSubtopology> {
        self.subtopologies
            .binary_search_by(|s| crate::task::cmp_items(s.id.as_bytes(), id.as_bytes()))
            .ok()
            .and_then(|i| self.subtopologies.get(i))
    }

    /// Whether (subtopology, partition) is a task of this configured topology.
    pub fn has_task(&self, subtopology: &str, partition: i32) -> bool {
        self.subtopology(subtopology)
            .is_some_and(|s| u32::try_from(partition).is_ok_and(|p| p < s.num_tasks))
    }
}
