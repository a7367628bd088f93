//! `configure`: resolves a validated topology against the cluster's topics, in PROTOCOL.md
//! §5's order, and reports every status of 1-4 that holds (PROTOCOL.md §1.3: a
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
//! (`internal_topics_undecided`). While a source topic is missing (or a regex matches
//! nothing) internal topics are not looked at at all, as in Kafka's
//! InternalTopicManager: none is created, compared or reported, so the statuses are
//! MISSING_SOURCE_TOPICS and INCONSISTENT_SOURCE_TOPICS only. Otherwise internal topics
//! whose count is decided are created whatever other statuses hold.

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

/// The first sentence of MISSING_INTERNAL_TOPICS' detail: every missing internal
/// topic, those whose count is undecided sorted in among those to create. The
/// coordinator's `InternalTopicCreation` adds what creation has done.
pub fn missing_internal_detail(
    to_create: &[ConfiguredInternalTopic],
    undecided: &[String],
) -> String {
    let mut names: Vec<&str> = to_create.iter().map(|t| t.name.as_str()).collect();
    if !undecided.is_empty() {
        names.extend(undecided.iter().map(String::as_str));
        names.sort_unstable();
    }
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
    let mut statuses = Vec::new();

    let sources = resolve_sources(&subs, cluster, &internal_names(topology))?;
    statuses.extend(sources.missing_status());
    let mut rep = infer_repartition_counts(&subs, &sources)?;
    let copartitioned = enforce_copartitioning(&subs, &sources, &mut rep);
    statuses.extend(status(
        StatusCode::INCONSISTENT_SOURCE_TOPICS,
        &copartitioned.inconsistent_sources,
    ));
    // Internal topics wait for the sources (as Kafka's InternalTopicManager): while one
    // is missing, none is checked, created or reported.
    let sources_missing = !sources.missing.is_empty() || !sources.unmatched.is_empty();
    let sized = size_subtopologies(&subs, sources, &rep, &copartitioned.unsettled)?;
    let (internal, mut inconsistent_internal) = if sources_missing {
        (InternalTopics::default(), Vec::new())
    } else {
        (
            compare_internal_topics(sized.wanted, sized.undecided, cluster),
            copartitioned.inconsistent_internal,
        )
    };
    inconsistent_internal.extend(internal.inconsistent);
    statuses.extend(status(
        StatusCode::INCONSISTENT_INTERNAL_TOPICS,
        &inconsistent_internal,
    ));
    if !internal.to_create.is_empty() || !internal.missing_undecided.is_empty() {
        statuses.push(TopicStatus {
            code: StatusCode::MISSING_INTERNAL_TOPICS,
            detail: missing_internal_status_detail(
                &internal.to_create,
                &internal.missing_undecided,
            ),
        });
    }
    let ready = statuses.is_empty();
    Ok(ConfiguredTopology {
        epoch: topology.epoch,
        subtopologies: if ready { sized.configured } else { Vec::new() },
        internal_topics_to_create: internal.to_create,
        internal_topics_undecided: internal.missing_undecided,
        statuses,
        config_mismatches: internal.config_mismatches,
    })
}

/// A status whose detail is the given sentences, when there are any.
fn status(code: StatusCode, details: &[String]) -> Option<TopicStatus> {
    (!details.is_empty()).then(|| TopicStatus {
        code,
        detail: details.join(" "),
    })
}

/// Step 1: every subtopology's external sources, regexes resolved (per subtopology,
/// in `subs`' order).
struct Sources<'a> {
    /// Missing source topics and regexes matching nothing, sorted.
    missing: BTreeSet<&'a str>,
    unmatched: BTreeSet<&'a str>,
    /// Per subtopology, per regex: the topics it matches.
    regex_matches: Vec<Vec<Vec<String>>>,
    /// Per subtopology: whether all its external inputs are known.
    complete: Vec<bool>,
    /// Per subtopology: its external sources that exist, sorted, regexes resolved.
    externals: Vec<Vec<String>>,
    /// The partition count of every external source that exists.
    counts: BTreeMap<String, i32>,
}

impl Sources<'_> {
    /// MISSING_SOURCE_TOPICS, if a source topic is missing or a regex matches nothing.
    fn missing_status(&self) -> Option<TopicStatus> {
        if self.missing.is_empty() && self.unmatched.is_empty() {
            return None;
        }
        let m: Vec<&str> = self.missing.iter().copied().collect();
        let u: Vec<&str> = self.unmatched.iter().copied().collect();
        Some(TopicStatus {
            code: StatusCode::MISSING_SOURCE_TOPICS,
            detail: missing_sources_detail(&m, &u),
        })
    }

    /// The largest partition count of these external topics.
    fn max_count(&self, names: &[String]) -> Option<i32> {
        max_count(&self.counts, names)
    }
}

/// The largest partition count of these external topics.
fn max_count(counts: &BTreeMap<String, i32>, names: &[String]) -> Option<i32> {
    names.iter().filter_map(|t| counts.get(t).copied()).max()
}

/// Step 1: source topics and regexes against the cluster (a regex never matches an
/// internal topic of the topology).
fn resolve_sources<'a>(
    subs: &[&'a Subtopology],
    cluster: &Cluster,
    internal: &BTreeSet<&str>,
) -> Result<Sources<'a>, ProtocolError> {
    let mut missing = BTreeSet::new();
    let mut unmatched = BTreeSet::new();
    let mut regex_matches: Vec<Vec<Vec<String>>> = Vec::with_capacity(subs.len());
    let mut complete: Vec<bool> = Vec::with_capacity(subs.len());
    for s in subs {
        let mut all_known = true;
        for t in &s.source_topics {
            if cluster.topic(t).is_none() {
                missing.insert(t.as_str());
                all_known = false;
            }
        }
        let mut per_regex = Vec::with_capacity(s.source_topic_regex.len());
        for r in &s.source_topic_regex {
            let matched = regex::matching_topics(r, cluster, internal).map_err(|e| {
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
    let counts: BTreeMap<String, i32> = externals
        .iter()
        .flatten()
        .filter_map(|t| cluster.partitions(t).map(|n| (t.clone(), n)))
        .collect();
    Ok(Sources {
        missing,
        unmatched,
        regex_matches,
        complete,
        externals,
        counts,
    })
}

/// Step 2: repartition topics' partition counts (`repartition`), None while undecided.
fn infer_repartition_counts(
    subs: &[&Subtopology],
    sources: &Sources,
) -> Result<BTreeMap<String, RepartitionCount>, ProtocolError> {
    let inputs: Vec<(&Subtopology, ExternalInputs)> = subs
        .iter()
        .zip(&sources.externals)
        .zip(&sources.complete)
        .map(|((s, e), known)| {
            let inputs = match (known, sources.max_count(e)) {
                (false, _) => ExternalInputs::Unknown,
                (true, Some(n)) => ExternalInputs::Known(n),
                (true, None) => ExternalInputs::None,
            };
            (*s, inputs)
        })
        .collect();
    let counts = repartition::infer_partial(&inputs)?;
    let fixed = repartition::fixed_counts(subs.iter().copied());
    Ok(counts
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
        .collect())
}

/// Step 3's result.
struct Copartitioned {
    /// Topics of groups that are incomplete or inconsistent: the task count of a
    /// subtopology reading one is not decided (fixing the group may change it).
    unsettled: BTreeSet<String>,
    /// INCONSISTENT_SOURCE_TOPICS' and INCONSISTENT_INTERNAL_TOPICS' sentences.
    inconsistent_sources: Vec<String>,
    inconsistent_internal: Vec<String>,
}

/// Step 3: copartition groups (`copartition`). Groups that share a topic (e.g. one
/// repartition topic joined in two subtopologies) must all agree, so they are merged
/// first. A group is complete when none of its source topics is missing and each of
/// its regexes matches a topic.
fn enforce_copartitioning(
    subs: &[&Subtopology],
    sources: &Sources,
    rep: &mut BTreeMap<String, RepartitionCount>,
) -> Copartitioned {
    let mut out = Copartitioned {
        unsettled: BTreeSet::new(),
        inconsistent_sources: Vec::new(),
        inconsistent_internal: Vec::new(),
    };
    for (group, group_complete) in &merged(copartition_groups(subs, sources)) {
        let result = copartition::enforce(group, *group_complete, &sources.counts, rep);
        if result.is_err() || !group_complete {
            out.unsettled.extend(group.iter().cloned());
        }
        if let Err(st) = result {
            if st.code == StatusCode::INCONSISTENT_SOURCE_TOPICS {
                out.inconsistent_sources.push(st.detail);
            } else {
                out.inconsistent_internal.push(st.detail);
            }
        }
    }
    out
}

/// Every subtopology's copartition groups as topic names (regexes resolved), each with
/// whether it is complete.
fn copartition_groups(subs: &[&Subtopology], sources: &Sources) -> Vec<(BTreeSet<String>, bool)> {
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
                    group_complete &= sources.counts.contains_key(t);
                    group.insert(t.clone());
                }
            }
            for ix in &g.source_topic_regex {
                if let Some(ts) = usize::try_from(*ix)
                    .ok()
                    .and_then(|r| sources.regex_matches.get(i).and_then(|m| m.get(r)))
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
    groups
}

/// Step 4's result.
struct Sized {
    /// The subtopologies whose task count is decided.
    configured: Vec<ConfiguredSubtopology>,
    /// Internal topics with a decided partition count, by name.
    wanted: BTreeMap<String, ConfiguredInternalTopic>,
    /// Internal topics whose partition count is not decided.
    undecided: BTreeSet<String>,
}

fn internal_topic(t: &TopicInfo, partitions: i32) -> ConfiguredInternalTopic {
    ConfiguredInternalTopic {
        name: t.name.clone(),
        partitions,
        replication_factor: t.replication_factor,
        topic_configs: t.topic_configs.clone(),
    }
}

/// Step 4: task counts (the largest input partition count, None while undecided) and
/// changelogs sized to them.
fn size_subtopologies(
    subs: &[&Subtopology],
    sources: Sources,
    rep: &BTreeMap<String, RepartitionCount>,
    unsettled: &BTreeSet<String>,
) -> Result<Sized, ProtocolError> {
    let mut out = Sized {
        configured: Vec::with_capacity(subs.len()),
        wanted: BTreeMap::new(),
        undecided: BTreeSet::new(),
    };
    let Sources {
        externals,
        complete,
        counts,
        ..
    } = sources;
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
            let n = max_count(&counts, &ext)
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
                    out.wanted
                        .entry(t.name.clone())
                        .or_insert_with(|| internal_topic(t, n));
                }
                None => {
                    out.undecided.insert(t.name.clone());
                }
            }
        }
        if let Some(num_tasks) = num_tasks {
            out.configured.push(configured_subtopology(
                s,
                ext,
                &repartition_counts,
                num_tasks,
            ));
        }
    }
    out.wanted.retain(|name, _| !out.undecided.contains(name));
    Ok(out)
}

fn configured_subtopology(
    s: &Subtopology,
    ext: Vec<String>,
    repartition_counts: &[(&TopicInfo, Option<i32>)],
    num_tasks: i32,
) -> ConfiguredSubtopology {
    let mut sinks = s.repartition_sink_topics.clone();
    sinks.sort();
    sinks.dedup();
    ConfiguredSubtopology {
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
    }
}

/// Step 5's result.
#[derive(Default)]
struct InternalTopics {
    /// Missing, with a decided count: the coordinator creates these.
    to_create: Vec<ConfiguredInternalTopic>,
    /// Missing, count undecided: reported, not created.
    missing_undecided: Vec<String>,
    /// INCONSISTENT_INTERNAL_TOPICS' sentences for existing topics with another count.
    inconsistent: Vec<String>,
    config_mismatches: Vec<ConfigMismatch>,
}

/// Step 5: internal topics against the cluster: decided ones are checked and created,
/// undecided ones only reported when missing.
fn compare_internal_topics(
    wanted: BTreeMap<String, ConfiguredInternalTopic>,
    undecided: BTreeSet<String>,
    cluster: &Cluster,
) -> InternalTopics {
    let mut to_create = Vec::new();
    let mut inconsistent = Vec::new();
    let mut config_mismatches = Vec::new();
    for t in wanted.into_values() {
        match cluster.topic(&t.name) {
            None => to_create.push(t),
            Some(m) if m.num_partitions != t.partitions => inconsistent.push(format!(
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
    InternalTopics {
        to_create,
        missing_undecided,
        inconsistent,
        config_mismatches,
    }
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
    let mut s = missing_internal_detail(to_create, undecided);
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
