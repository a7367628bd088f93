//! The invariants a topology must hold when a member sends it (PROTOCOL.md §2):
//! each broken one is STREAMS_INVALID_TOPOLOGY with a message naming what is wrong.
//! Only the structure is checked here; the cluster is not consulted.

use crate::protocol::{ErrorCode, ProtocolError, Subtopology, Topology};
use crate::topology::names::{validate_topic_name, RESERVED_TOPICS};
use crate::topology::{regex, repartition};
use std::collections::{BTreeMap, BTreeSet};

fn invalid(msg: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::STREAMS_INVALID_TOPOLOGY, msg)
}

/// Every topic name a subtopology mentions, with the list it comes from.
fn topic_names(s: &Subtopology) -> impl Iterator<Item = &str> {
    s.source_topics
        .iter()
        .map(String::as_str)
        .chain(s.repartition_sink_topics.iter().map(String::as_str))
        .chain(s.repartition_source_topics.iter().map(|t| t.name.as_str()))
        .chain(s.state_changelog_topics.iter().map(|t| t.name.as_str()))
}

pub fn validate(topology: &Topology) -> Result<(), ProtocolError> {
    if topology.subtopologies.is_empty() {
        return Err(invalid("The topology has no subtopologies."));
    }
    check_ids(topology)?;
    for s in &topology.subtopologies {
        check_inputs(s)?;
    }
    check_reserved(topology)?;
    check_topic_names(topology)?;
    for s in &topology.subtopologies {
        check_changelogs(s)?;
        check_copartition_groups(s)?;
        check_regexes(s)?;
    }
    check_fixed_counts(topology)?;
    // Partition counts must be inferable whatever the external topics' counts are.
    let structural: Vec<(&Subtopology, Option<i32>)> = topology
        .subtopologies
        .iter()
        .map(|s| {
            let reads_external = !s.source_topics.is_empty() || !s.source_topic_regex.is_empty();
            (s, reads_external.then_some(1))
        })
        .collect();
    repartition::infer(&structural)?;
    Ok(())
}

/// Subtopology ids: not empty, each once.
fn check_ids(topology: &Topology) -> Result<(), ProtocolError> {
    let mut seen = BTreeSet::new();
    for s in &topology.subtopologies {
        if s.subtopology_id.is_empty() {
            return Err(invalid("A subtopology id is empty."));
        }
        if !seen.insert(s.subtopology_id.as_str()) {
            return Err(invalid(format!(
                "Subtopology id {} appears twice.",
                s.subtopology_id
            )));
        }
    }
    Ok(())
}

/// A subtopology reads something.
fn check_inputs(s: &Subtopology) -> Result<(), ProtocolError> {
    let id = &s.subtopology_id;
    if s.source_topics.is_empty()
        && s.source_topic_regex.is_empty()
        && s.repartition_source_topics.is_empty()
    {
        return Err(invalid(format!(
            "Subtopology {id} reads nothing: it has no source topics, source topic regexes or repartition source topics."
        )));
    }
    Ok(())
}

/// Every topic name is valid; all invalid ones are named at once, in Kafka's order
/// (per subtopology: sources, repartition sinks, repartition sources, changelogs; each
/// once) and with Kafka's message. A name far beyond the length limit is cut short.
fn check_topic_names(topology: &Topology) -> Result<(), ProtocolError> {
    let mut seen = BTreeSet::new();
    let invalid_names: Vec<String> = topology
        .subtopologies
        .iter()
        .flat_map(topic_names)
        .filter(|n| seen.insert(*n) && validate_topic_name(n).is_err())
        .map(|n| crate::protocol::json::truncate(n, 255))
        .collect();
    if invalid_names.is_empty() {
        return Ok(());
    }
    Err(invalid(format!(
        "Topic names {} are not valid topic names.",
        invalid_names.join(",")
    )))
}

/// No Kafka internal topic anywhere in the topology (all of them named at once).
fn check_reserved(topology: &Topology) -> Result<(), ProtocolError> {
    let reserved: BTreeSet<&str> = topology
        .subtopologies
        .iter()
        .flat_map(topic_names)
        .filter(|t| RESERVED_TOPICS.contains(t))
        .collect();
    if !reserved.is_empty() {
        let names: Vec<&str> = reserved.into_iter().collect();
        return Err(invalid(format!(
            "Use of Kafka internal topics {} in a Kafka Streams topology is prohibited.",
            names.join(", ")
        )));
    }
    Ok(())
}

/// A changelog's partition count is derived, never given.
fn check_changelogs(s: &Subtopology) -> Result<(), ProtocolError> {
    let id = &s.subtopology_id;
    for c in &s.state_changelog_topics {
        if c.partitions != 0 {
            return Err(invalid(format!(
                "Changelog topic {} of subtopology {id} must have partitions 0 (its count is derived), but has {}.",
                c.name, c.partitions
            )));
        }
    }
    Ok(())
}

/// Copartition groups refer to the subtopology's own lists by index: every index
/// must exist.
fn check_copartition_groups(s: &Subtopology) -> Result<(), ProtocolError> {
    let id = &s.subtopology_id;
    for (g, group) in s.copartition_groups.iter().enumerate() {
        for (field, indexes, len) in [
            ("sourceTopics", &group.source_topics, s.source_topics.len()),
            (
                "sourceTopicRegex",
                &group.source_topic_regex,
                s.source_topic_regex.len(),
            ),
            (
                "repartitionSourceTopics",
                &group.repartition_source_topics,
                s.repartition_source_topics.len(),
            ),
        ] {
            if let Some(bad) = indexes
                .iter()
                .find(|i| usize::try_from(**i).map_or(true, |i| i >= len))
            {
                return Err(invalid(format!(
                    "Copartition group {g} of subtopology {id} refers to {field} index {bad}, but the subtopology has {len} {field}."
                )));
            }
        }
    }
    Ok(())
}

fn check_regexes(s: &Subtopology) -> Result<(), ProtocolError> {
    let id = &s.subtopology_id;
    for pattern in &s.source_topic_regex {
        if let Err(e) = regex::compile(pattern) {
            return Err(invalid(format!(
                "Source topic regex {:?} of subtopology {id} does not compile: {e}",
                crate::protocol::json::truncate(pattern, 100)
            )));
        }
    }
    Ok(())
}

/// A repartition topic's fixed partition count is the same wherever it is given.
fn check_fixed_counts(topology: &Topology) -> Result<(), ProtocolError> {
    let mut fixed: BTreeMap<&str, BTreeSet<i32>> = BTreeMap::new();
    for s in &topology.subtopologies {
        for t in s
            .repartition_source_topics
            .iter()
            .filter(|t| t.partitions > 0)
        {
            fixed
                .entry(t.name.as_str())
                .or_default()
                .insert(t.partitions);
        }
    }
    if let Some((name, counts)) = fixed.iter().find(|(_, c)| c.len() > 1) {
        let counts: Vec<String> = counts.iter().map(i32::to_string).collect();
        return Err(invalid(format!(
            "Repartition topic {name} has conflicting fixed partition counts {}.",
            counts.join(" and ")
        )));
    }
    Ok(())
}
