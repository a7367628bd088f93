//! `configure`: resolves a validated topology against the cluster's topics, in SPEC.md
//! section 5's order, and reports every status of 1-4 that holds (SPEC.md section 1: a
//! response carries every status that holds, in code order):
//! 1. source topics and regexes -> MISSING_SOURCE_TOPICS;
//! 2. repartition partition counts (`repartition`), a loop -> STREAMS_INVALID_TOPOLOGY;
//! 3. copartition groups (`copartition`) -> INCONSISTENT_SOURCE_TOPICS / _INTERNAL_;
//! 4. changelogs and task counts: the subtopology's maximum input partition count;
//! 5. existing internal topics with another count -> INCONSISTENT_INTERNAL_TOPICS,
//!    missing ones -> MISSING_INTERNAL_TOPICS (the coordinator creates them).
//!
//! A status never invents a count. A partition count that depends on a missing
//! source topic (or a regex matching nothing) or on a copartition group that is
//! inconsistent or incomplete is *undecided*, and so is everything computed from it:
//! a repartition topic written (directly or through other repartition topics) by a
//! subtopology with such an input or in such a group, and the task count and
//! changelogs of a subtopology that reads one or has a missing source.
//! Undecided topics are not checked against the cluster's counts (no status 3 for
//! them) and, when missing, are reported under MISSING_INTERNAL_TOPICS but not created
//! (`internal_topics_undecided`); internal topics whose count is decided are created
//! whatever other statuses hold.

use crate::cluster::Cluster;
use crate::protocol::{
    ErrorCode, KeyValue, ProtocolError, StatusCode, Subtopology, TopicInfo, Topology,
};
use crate::topology::copartition::{self, RepartitionCount};
use crate::topology::repartition::ExternalInputs;
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
    let mut statuses = Vec::new();

    // 1. Sources.
    let mut missing = BTreeSet::new();
    let mut unmatched = BTreeSet::new();
    // Per subtopology, per regex: the topics it matches.
    let mut regex_matches: Vec<Vec<Vec<String>>> = Vec::with_capacity(subs.len());
    // Per subtopology: whether all its external inputs are known.
    let mut complete: Vec<bool> = Vec::with_capacity(subs.len());
    for s in &subs {
        let mut all_known = true;
        for t in &s.source_topics {
            if cluster.topic(t).is_none() {
                missing.insert(t.as_str());
                all_known = false;
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
                all_known = false;
            }
            per_regex.push(matched);
        }
        regex_matches.push(per_regex);
        complete.push(all_known);
    }
    if !missing.is_empty() || !unmatched.is_empty() {
        let m: Vec<&str> = missing.into_iter().collect();
        let u: Vec<&str> = unmatched.into_iter().collect();
        statuses.push(TopicStatus {
            code: StatusCode::MISSING_SOURCE_TOPICS,
            detail: missing_sources_detail(&m, &u),
        });
    }
    // External sources per subtopology that exist (sorted, regexes resolved) and their
    // counts.
    let externals: Vec<Vec<String>> = subs
        .iter()
        .zip(&regex_matches)
        .map(|(s, rm)| {
            let set: BTreeSet<&String> = s
                .source_topics
                .iter()
                .filter(|t| cluster.topic(t).is_some())
                .chain(rm.iter().flatten())
                .collect();
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
    let inputs: Vec<(&Subtopology, ExternalInputs)> = subs
        .iter()
        .zip(&externals)
        .zip(&complete)
        .map(|((s, e), known)| {
            let inputs = match (known, max_external(e)) {
                (false, _) => ExternalInputs::Unknown,
                (true, Some(n)) => ExternalInputs::Known(n),
                (true, None) => ExternalInputs::None,
            };
            (*s, inputs)
        })
        .collect();
    let counts = repartition::infer_partial(&inputs)?;
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
    // joined in two subtopologies) must all agree, so they are merged first. A group
    // is complete when none of its source topics is missing and each of its regexes
    // matches a topic.
    let mut groups: Vec<(BTreeSet<String>, bool)> = Vec::new();
    for (i, s) in subs.iter().enumerate() {
        for g in &s.copartition_groups {
            let mut group = BTreeSet::new();
            let mut group_complete = true;
            for ix in &g.source_topics {
                if let Some(t) = usize::try_from(*ix)
                    .ok()
                    .and_then(|i| s.source_topics.get(i))
                {
                    group_complete &= external_counts.contains_key(t);
                    group.insert(t.clone());
                }
            }
            for ix in &g.source_topic_regex {
                if let Some(ts) = usize::try_from(*ix)
                    .ok()
                    .and_then(|r| regex_matches.get(i).and_then(|m| m.get(r)))
                {
                    group_complete &= !ts.is_empty();
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
                groups.push((group, group_complete));
            }
        }
    }
    let mut inconsistent_sources = Vec::new();
    let mut inconsistent_internal = Vec::new();
    // Topics of groups that are incomplete or inconsistent: the task count of a
    // subtopology reading one is not decided (fixing the group may change it).
    let mut unsettled: BTreeSet<String> = BTreeSet::new();
    for (group, group_complete) in &merged(groups) {
        let result = copartition::enforce(group, *group_complete, &external_counts, &mut rep);
        if result.is_err() || !group_complete {
            unsettled.extend(group.iter().cloned());
        }
        if let Err(st) = result {
            if st.code == StatusCode::INCONSISTENT_SOURCE_TOPICS {
                inconsistent_sources.push(st.detail);
            } else {
                inconsistent_internal.push(st.detail);
            }
        }
    }
    if !inconsistent_sources.is_empty() {
        statuses.push(TopicStatus {
            code: StatusCode::INCONSISTENT_SOURCE_TOPICS,
            detail: inconsistent_sources.join(" "),
        });
    }

    // 4. Subtopologies, changelogs, task counts (None: undecided).
    let internal_topic = |t: &TopicInfo, partitions: i32| ConfiguredInternalTopic {
        name: t.name.clone(),
        partitions,
        replication_factor: t.replication_factor,
        topic_configs: t.topic_configs.clone(),
    };
    let mut configured = Vec::with_capacity(subs.len());
    let mut wanted: BTreeMap<String, ConfiguredInternalTopic> = BTreeMap::new();
    let mut undecided: BTreeSet<String> = BTreeSet::new();
    for ((s, ext), known) in subs.iter().zip(externals).zip(&complete) {
        let repartition_counts: Vec<(&TopicInfo, Option<i32>)> = s
            .repartition_source_topics
            .iter()
            .map(|t| (t, rep.get(&t.name).and_then(|c| c.count)))
            .collect();
        let settled = *known
            && !ext.iter().any(|t| unsettled.contains(t))
            && repartition_counts.iter().all(|(_, n)| n.is_some());
        let num_tasks = if settled {
            let n = max_external(&ext)
                .into_iter()
                .chain(repartition_counts.iter().filter_map(|(_, n)| *n))
                .max()
                .unwrap_or(0);
            if n <= 0 {
                return Err(ProtocolError::new(
                    ErrorCode::STREAMS_INVALID_TOPOLOGY,
                    format!(
                        "No source topics found for subtopology {}.",
                        s.subtopology_id
                    ),
                ));
            }
            Some(n)
        } else {
            None
        };
        let decided = repartition_counts
            .iter()
            .map(|(t, n)| (*t, *n))
            .chain(s.state_changelog_topics.iter().map(|t| (t, num_tasks)));
        for (t, n) in decided {
            // A changelog that is the subtopology's own source topic (Kafka Streams'
            // source-topic changelog) is an external topic: never created.
            if ext.contains(&t.name) || s.source_topics.contains(&t.name) {
                continue;
            }
            match n {
                Some(n) => {
                    wanted
                        .entry(t.name.clone())
                        .or_insert_with(|| internal_topic(t, n));
                }
                None => {
                    undecided.insert(t.name.clone());
                }
            }
        }
        let Some(num_tasks) = num_tasks else {
            continue;
        };
        let mut sinks = s.repartition_sink_topics.clone();
        sinks.sort();
        sinks.dedup();
        configured.push(ConfiguredSubtopology {
            id: s.subtopology_id.clone(),
            num_tasks: u32::try_from(num_tasks).unwrap_or(0),
            source_topics: ext,
            repartition_source_topics: sorted(
                repartition_counts
                    .iter()
                    .map(|(t, n)| internal_topic(t, n.unwrap_or(0)))
                    .collect(),
            ),
            stateful: !s.state_changelog_topics.is_empty(),
            state_changelog_topics: sorted(
                s.state_changelog_topics
                    .iter()
                    .map(|t| internal_topic(t, num_tasks))
                    .collect(),
            ),
            repartition_sink_topics: sinks,
        });
    }
    wanted.retain(|name, _| !undecided.contains(name));

    // 5. Internal topics against the cluster: decided ones are checked and created,
    // undecided ones only reported when missing.
    let mut to_create = Vec::new();
    let mut config_mismatches = Vec::new();
    for t in wanted.into_values() {
        match cluster.topic(&t.name) {
            None => to_create.push(t),
            Some(m) if m.num_partitions != t.partitions => inconsistent_internal.push(format!(
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
    let missing_undecided: Vec<String> = undecided
        .into_iter()
        .filter(|t| cluster.topic(t).is_none())
        .collect();
    if !inconsistent_internal.is_empty() {
        statuses.push(TopicStatus {
            code: StatusCode::INCONSISTENT_INTERNAL_TOPICS,
            detail: inconsistent_internal.join(" "),
        });
    }
    if !to_create.is_empty() || !missing_undecided.is_empty() {
        statuses.push(TopicStatus {
            code: StatusCode::MISSING_INTERNAL_TOPICS,
            detail: missing_internal_status_detail(&to_create, &missing_undecided),
        });
    }
    let ready = statuses.is_empty();
    Ok(ConfiguredTopology {
        epoch: topology.epoch,
        subtopologies: if ready { configured } else { Vec::new() },
        internal_topics_to_create: to_create,
        internal_topics_undecided: missing_undecided,
        statuses,
        config_mismatches,
    })
}

/// The sentence MISSING_INTERNAL_TOPICS' detail ends with when some missing internal
/// topics cannot be created yet.
pub fn undecided_detail(undecided: &[String]) -> String {
    format!(
        "Partition counts of {} are not known while the source topics they depend on are missing or inconsistent, so they are not created yet.",
        undecided.join(", ")
    )
}

/// MISSING_INTERNAL_TOPICS' detail as `configure` knows it: every missing internal
/// topic, and which of them cannot be created yet.
fn missing_internal_status_detail(
    to_create: &[ConfiguredInternalTopic],
    undecided: &[String],
) -> String {
    let mut names: Vec<&str> = to_create
        .iter()
        .map(|t| t.name.as_str())
        .chain(undecided.iter().map(String::as_str))
        .collect();
    names.sort_unstable();
    let mut s = format!("Internal topics are missing: {}.", names.join(", "));
    if !undecided.is_empty() {
        s.push(' ');
        s.push_str(&undecided_detail(undecided));
    }
    s
}

/// The groups with every two that share a topic merged (connected components over
/// shared topics; complete when all merged groups are), sorted.
fn merged(groups: Vec<(BTreeSet<String>, bool)>) -> Vec<(BTreeSet<String>, bool)> {
    let mut by_topic: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (g, _)) in groups.iter().enumerate() {
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
        let mut complete = true;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            if let Some((g, c)) = groups.get(i) {
                complete &= *c;
                for t in g {
                    component.insert(t.clone());
                    stack.extend(by_topic.get(t.as_str()).into_iter().flatten().copied());
                }
            }
        }
        out.push((component, complete));
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
