//! The topology StreamsGroupDescribe shows: the configured one (partition counts
//! filled in, regexes resolved) when the group is ready, the raw one otherwise;
//! subtopologies sorted by id and topic lists sorted, as Kafka does.

use crate::protocol::{DescribedSubtopology, DescribedTopology, KeyValue, TopicInfo, Topology};
use crate::topology::{ConfiguredInternalTopic, ConfiguredTopology};

fn sorted_infos(v: &[TopicInfo]) -> Vec<TopicInfo> {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

fn sorted_strings(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn info(t: &ConfiguredInternalTopic) -> TopicInfo {
    let mut topic_configs: Vec<KeyValue> = t.topic_configs.clone();
    topic_configs.sort();
    TopicInfo {
        name: t.name.clone(),
        partitions: t.partitions,
        replication_factor: t.replication_factor,
        topic_configs,
    }
}

/// `configured` is the group's last configuration of `topology`, if any.
pub fn described_topology(
    topology: &Topology,
    configured: Option<&ConfiguredTopology>,
) -> DescribedTopology {
    if let Some(c) = configured.filter(|c| c.is_ready() && c.epoch == topology.epoch) {
        return DescribedTopology {
            epoch: c.epoch,
            subtopologies: c
                .subtopologies
                .iter()
                .map(|s| DescribedSubtopology {
                    subtopology_id: s.id.clone(),
                    source_topics: s.source_topics.clone(),
                    source_topic_regex: Vec::new(),
                    repartition_sink_topics: s.repartition_sink_topics.clone(),
                    state_changelog_topics: s.state_changelog_topics.iter().map(info).collect(),
                    repartition_source_topics: s
                        .repartition_source_topics
                        .iter()
                        .map(info)
                        .collect(),
                })
                .collect(),
        };
    }
    let mut subtopologies: Vec<DescribedSubtopology> = topology
        .subtopologies
        .iter()
        .map(|s| DescribedSubtopology {
            subtopology_id: s.subtopology_id.clone(),
            source_topics: sorted_strings(&s.source_topics),
            source_topic_regex: sorted_strings(&s.source_topic_regex),
            repartition_sink_topics: sorted_strings(&s.repartition_sink_topics),
            state_changelog_topics: sorted_infos(&s.state_changelog_topics),
            repartition_source_topics: sorted_infos(&s.repartition_source_topics),
        })
        .collect();
    subtopologies.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
    DescribedTopology {
        epoch: topology.epoch,
        subtopologies,
    }
}
