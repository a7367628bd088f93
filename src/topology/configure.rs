//! `configure`: resolves a validated topology against the cluster's topics, in SPEC.md
//! section 5's order. Each step needs the previous ones, so the first status found is
//! the one reported:
//! 1. source topics and regexes -> MISSING_SOURCE_TOPICS;
//! 2. repartition partition counts (`repartition`), a loop -> STREAMS_INVALID_TOPOLOGY;
//! 3. copartition groups (`copartition`) -> INCONSISTENT_SOURCE_TOPICS / _INTERNAL_;
//! 4. changelogs and task counts: the subtopology's maximum input partition count;
//! 5. existing internal topics with another count -> INCONSISTENT_INTERNAL_TOPICS,
//!    missing ones -> MISSING_INTERNAL_TOPICS (the coordinator creates them).

use crate::cluster::Cluster;
use crate::protocol::{
    ErrorCode, KeyValue, ProtocolError, StatusCode, Subtopology, TopicInfo, Topology,
};
use crate::topology::copartition::{self, RepartitionCount};
use crate::topology::{
    regex, repartition, ConfigMismatch, ConfiguredInternalTopic, ConfiguredSubtopology,
    ConfiguredTopology, TopicStatus,
};
use std::collections::{BTreeMap, BTreeSet};

/// The detail of MISSING_SOURCE_TOPICS: every missing topic and unmatched regex, sorted.
pub fn missing_sources_detail(topics: &[&str], regexes: &[&str]) -> String {
    let mut parts = Vec::new();
    if !topics.is_empty() {
        parts.push(format!("Source topics {} are missing.", topics.join(", ")));
    }
    if !regexes.is_empty() {
        let quoted: Vec<String> = regexes.iter().map(|r| format!("{r:?}")).collect();
        parts.push(format!(
            "Source topic regexes {} match no topic.",
            quoted.join(", ")
        ));
    }
    parts.join(" ")
}

/// The detail of MISSING_INTERNAL_TOPICS as `configure` knows it; the coordinator's
/// `InternalTopicCreation::detail` adds what creation has done.
pub fn missing_internal_detail(topics: &[ConfiguredInternalTopic]) -> String {
    let names: Vec<&str> = topics.iter().map(|t| t.name.as_str()).collect();
    format!("Internal topics are missing: {}.", names.join(", "))
}

fn not_ready(topology: &Topology, code: StatusCode, detail: String) -> ConfiguredTopology {
    ConfiguredTopology {
        epoch: topology.epoch,
        subtopologies: Vec::new(),
        internal_topics_to_create: Vec::new(),
        status: Some(TopicStatus { code, detail }),
        config_mismatches: Vec::new(),
    }
}

/// The names of every internal topic of the topology (never matched by a regex).
fn internal_names(topology: &Topology) -> BTreeSet<&str> {
    topology
        .subtopologies
        .iter()
        .flat_map(|s| {
            s.repartition_source_topics
                .iter()
                .map(|t| t.name.as_str())
                .chain(s.repartition_sink_topics.iter().map(String::as_str))
                .chain(s.state_changelog_topics.iter().map(|t| t.name.as_str()))
        })
        .collect()
}

/// Configures `topology` against the cluster. `Err` is a STREAMS_INVALID_TOPOLOGY that
/// `validate` did not catch (it checks the same structure, so this should not happen).
pub fn configure(
    topology: &Topology,
    cluster: &Cluster,
) -> Result<ConfiguredTopology, ProtocolError> {
    let mut subs: Vec<&Subtopology> = topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
    let internal = internal_names(topology);

    // 1. Sources.
    let mut missing = BTreeSet::new();
    let mut unmatched = BTreeSet::new();
    // Per subtopology, per regex: the topics it matches.
    let mut regex_matches: Vec<Vec<Vec<String>>> = Vec::with_capacity(subs.len());
    for s in &subs {
        for t in &s.source_topics {
            if cluster.topic(t).is_none() {
                missing.insert(t.as_str());
            }
        }
        let mut per_regex = Vec::with_capacity(s.source_topic_regex.len());
        for r in &s.source_topic_regex {
            let matched = regex::matching_topics(r, cluster, &internal).map_err(|e| {
                ProtocolError::new(
                    ErrorCode::STREAMS_INVALID_TOPOLOGY,
                    format!("Source topic regex {r:?} does not compile: {e}"),
                )
            })?;
            if matched.is_empty() {
                unmatched.insert(r.as_str());
            }
            per_regex.push(matched);
        }
        regex_matches.push(per_regex);
    }
    if !missing.is_empty() || !unmatched.is_empty() {
        let m: Vec<&str> = missing.into_iter().collect();
        let u: Vec<&str> = unmatched.into_iter().collect();
        return Ok(not_ready(
            topology,
            StatusCode::MISSING_SOURCE_TOPICS,
            missing_sources_detail(&m, &u),
        ));
    }
    // External sources per subtopology (sorted, regexes resolved) and their counts.
    let externals: Vec<Vec<String>> = subs
        .iter()
        .zip(&regex_matches)
        .map(|(s, rm)| {
            let set: BTreeSet<&String> =
                s.source_topics.iter().chain(rm.iter().flatten()).collect();
            set.into_iter().cloned().collect()
        })
        .collect();
    let external_counts: BTreeMap<String, i32> = externals
        .iter()
        .flatten()
        .filter_map(|t| cluster.partitions(t).map(|n| (t.clone(), n)))
        .collect();
    let max_external = |names: &[String]| {
        names
            .iter()
            .filter_map(|t| external_counts.get(t).copied())
            .max()
    };

    // 2. Repartition topics.
    let inputs: Vec<(&Subtopology, Option<i32>)> = subs
        .iter()
        .zip(&externals)
        .map(|(s, e)| (*s, max_external(e)))
        .collect();
    let counts = repartition::infer(&inputs)?;
    let fixed = repartition::fixed_counts(subs.iter().copied());
    let mut rep: BTreeMap<String, RepartitionCount> = counts
        .into_iter()
        .map(|(name, count)| {
            let is_fixed = fixed.contains_key(&name);
            (
                name,
                RepartitionCount {
                    count,
                    fixed: is_fixed,
                },
            )
        })
        .collect();

    // 3. Copartition groups. Groups that share a topic (e.g. one repartition topic
    // joined in two subtopologies) must all agree, so they are merged first.
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for (i, s) in subs.iter().enumerate() {
        for g in &s.copartition_groups {
            let mut group = BTreeSet::new();
            for ix in &g.source_topics {
                if let Some(t) = usize::try_from(*ix)
                    .ok()
                    .and_then(|i| s.source_topics.get(i))
                {
                    group.insert(t.clone());
                }
            }
            for ix in &g.source_topic_regex {
                if let Some(ts) = usize::try_from(*ix)
                    .ok()
                    .and_then(|r| regex_matches.get(i).and_then(|m| m.get(r)))
                {
                    group.extend(ts.iter().cloned());
                }
            }
            for ix in &g.repartition_source_topics {
                if let Some(t) = usize::try_from(*ix)
                    .ok()
                    .and_then(|i| s.repartition_source_topics.get(i))
                {
                    group.insert(t.name.clone());
                }
            }
            if !group.is_empty() {
                groups.push(group);
            }
        }
    }
    for group in &merged(groups) {
        if let Err(st) = copartition::enforce(group, &external_counts, &mut rep) {
            return Ok(not_ready(topology, st.code, st.detail));
        }
    }

    // 4. Subtopologies, changelogs, task counts.
    let internal_topic = |t: &TopicInfo, partitions: i32| ConfiguredInternalTopic {
        name: t.name.clone(),
        partitions,
        replication_factor: t.replication_factor,
        topic_configs: t.topic_configs.clone(),
    };
    let mut configured = Vec::with_capacity(subs.len());
    let mut wanted: BTreeMap<String, ConfiguredInternalTopic> = BTreeMap::new();
    for (s, ext) in subs.iter().zip(externals) {
        let repartition_sources: Vec<ConfiguredInternalTopic> = s
            .repartition_source_topics
            .iter()
            .map(|t| internal_topic(t, rep.get(&t.name).map_or(0, |c| c.count)))
            .collect();
        let num_tasks = max_external(&ext)
            .into_iter()
            .chain(repartition_sources.iter().map(|t| t.partitions))
            .max()
            .unwrap_or(0);
        if num_tasks <= 0 {
            return Err(ProtocolError::new(
                ErrorCode::STREAMS_INVALID_TOPOLOGY,
                format!(
                    "No source topics found for subtopology {}.",
                    s.subtopology_id
                ),
            ));
        }
        let changelogs: Vec<ConfiguredInternalTopic> = s
            .state_changelog_topics
            .iter()
            .map(|t| internal_topic(t, num_tasks))
            .collect();
        for t in repartition_sources.iter().chain(&changelogs) {
            // A changelog that is the subtopology's own source topic (Kafka Streams'
            // source-topic changelog) is an external topic: never created.
            if !ext.contains(&t.name) {
                wanted.entry(t.name.clone()).or_insert_with(|| t.clone());
            }
        }
        let mut sinks = s.repartition_sink_topics.clone();
        sinks.sort();
        sinks.dedup();
        configured.push(ConfiguredSubtopology {
            id: s.subtopology_id.clone(),
            num_tasks: u32::try_from(num_tasks).unwrap_or(0),
            source_topics: ext,
            repartition_source_topics: sorted(repartition_sources),
            stateful: !changelogs.is_empty(),
            state_changelog_topics: sorted(changelogs),
            repartition_sink_topics: sinks,
        });
    }

    // 5. Internal topics against the cluster.
    let mut wrong = Vec::new();
    let mut to_create = Vec::new();
    let mut config_mismatches = Vec::new();
    for t in wanted.into_values() {
        match cluster.topic(&t.name) {
            None => to_create.push(t),
            Some(m) if m.num_partitions != t.partitions => wrong.push(format!(
                "Existing topic {} has different number of partitions: expected {}, found {}.",
                t.name, t.partitions, m.num_partitions
            )),
            Some(m) => {
                if let Some(detail) = config_difference(&t, m) {
                    config_mismatches.push(ConfigMismatch {
                        topic: t.name.clone(),
                        detail,
                    });
                }
            }
        }
    }
    let status = if !wrong.is_empty() {
        Some(TopicStatus {
            code: StatusCode::INCONSISTENT_INTERNAL_TOPICS,
            detail: wrong.join(" "),
        })
    } else if !to_create.is_empty() {
        Some(TopicStatus {
            code: StatusCode::MISSING_INTERNAL_TOPICS,
            detail: missing_internal_detail(&to_create),
        })
    } else {
        None
    };
    Ok(ConfiguredTopology {
        epoch: topology.epoch,
        subtopologies: if status.is_none() {
            configured
        } else {
            Vec::new()
        },
        internal_topics_to_create: if status.is_none() || !wrong.is_empty() {
            Vec::new()
        } else {
            to_create
        },
        status,
        config_mismatches,
    })
}

/// The groups with every two that share a topic merged (connected components over
/// shared topics), sorted.
fn merged(groups: Vec<BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let mut by_topic: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, g) in groups.iter().enumerate() {
        for t in g {
            by_topic.entry(t.as_str()).or_default().push(i);
        }
    }
    let mut seen = vec![false; groups.len()];
    let mut out = Vec::new();
    for start in 0..groups.len() {
        if seen.get(start).copied().unwrap_or(true) {
            continue;
        }
        let mut component = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            for t in groups.get(i).into_iter().flatten() {
                component.insert(t.clone());
                stack.extend(by_topic.get(t.as_str()).into_iter().flatten().copied());
            }
        }
        out.push(component);
    }
    out.sort();
    out
}

fn sorted(mut v: Vec<ConfiguredInternalTopic>) -> Vec<ConfiguredInternalTopic> {
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v.dedup_by(|a, b| a.name == b.name);
    v
}

/// What differs, besides the partition count, between an existing internal topic and
/// what the topology asks for (only the settings the topology states).
fn config_difference(
    want: &ConfiguredInternalTopic,
    have: &crate::cluster::TopicMetadata,
) -> Option<String> {
    let mut diffs = Vec::new();
    if want.replication_factor > 0 && want.replication_factor != have.replication_factor {
        diffs.push(format!(
            "replication factor {} (the topology asks for {})",
            have.replication_factor, want.replication_factor
        ));
    }
    let wanted: BTreeMap<&str, &str> = want
        .topic_configs
        .iter()
        .map(|KeyValue { key, value }| (key.as_str(), value.as_str()))
        .collect();
    for (k, v) in wanted {
        match have.configs.get(k) {
            Some(h) if h == v => {}
            Some(h) => diffs.push(format!("{k}={h} (the topology asks for {k}={v})")),
            None => diffs.push(format!("no {k} (the topology asks for {k}={v})")),
        }
    }
    (!diffs.is_empty()).then(|| {
        format!(
            "Internal topic {} exists with {}.",
            want.name,
            diffs.join(", ")
        )
    })
}
