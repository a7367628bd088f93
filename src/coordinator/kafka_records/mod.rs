//! Kafka's own record format (PROTOCOL.md §8.5): `kafka_records()` writes the
//! coordinator's compacted log as the JSON lines Kafka's console-consumer formatters
//! print, and `from_kafka_records` reads those or `kafka-dump-log --offsets-decoder`
//! output back into a coordinator.
//!
//! Reading converts Kafka's records to ours and replays them through `from_records`,
//! so that one replay path serves both. What Kafka does not record (the cluster's
//! topics, timers) comes from the caller or is inferred, and the report says which.

pub mod history;
pub mod parse;
pub mod schema;
mod write;

use super::records::{self as ours, Record, RecordKey, RecordValue};
use super::Coordinator;
use crate::cluster::CreatableTopic;
use crate::config::CoordinatorConfig;
use crate::limits::MAX_RECORDS_BYTES;
use crate::protocol::json::{decode_str_within, InputError, Invalid, Validate};
use crate::protocol::{self as p};
use parse::{at_line, line_error, under, Entry, Format, Skipped, WHAT};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

// ---------------------------------------------------------------------------------
// Reading.

/// `fromKafkaRecords`'s options.
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable, rename = "KafkaRecordsOptions")]
pub struct LoadOptions {
    /// The coordinator's config (defaults as `new Coordinator()`).
    #[serde(default)]
    pub config: Option<CoordinatorConfig>,
    /// The topics the groups use: what Kafka's records do not carry.
    #[serde(default)]
    pub cluster: Option<ClusterInput>,
    /// The clock to start at (default: the latest record timestamp of a dump, else 0).
    #[serde(default, with = "crate::protocol::json::int64_opt")]
    #[ts(type = "Int64Input | null")]
    pub now_ms: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "KafkaRecordsCluster")]
pub struct ClusterInput {
    #[serde(default, deserialize_with = "crate::protocol::json::list")]
    pub topics: Vec<CreatableTopic>,
}

impl Validate for LoadOptions {
    fn validate(&self) -> Result<(), Invalid> {
        if self.now_ms.is_some_and(|t| t < 0) {
            return Err(Invalid::new("nowMs", "the clock starts at 0 or later"));
        }
        if let Some(c) = &self.config {
            c.validate().map_err(|e| e.under("config"))?;
        }
        if let Some(c) = &self.cluster {
            for (i, t) in c.topics.iter().enumerate() {
                if t.num_partitions <= 0 {
                    return Err(Invalid::new(
                        format!("cluster.topics[{i}].numPartitions"),
                        format!("{} is not a positive partition count", t.num_partitions),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Where a topic's partition count came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "KafkaRecordsTopic")]
pub struct InferredTopic {
    pub topic: String,
    pub num_partitions: i32,
    /// `cluster` (given), `assignments` (the highest task partition + 1 of the
    /// subtopologies that read or back it) or `topology` (a fixed repartition count).
    pub from: String,
}

/// What `from_kafka_records` read, skipped and inferred.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "KafkaRecordsReport")]
pub struct LoadReport {
    pub format: Format,
    /// The streams groups rebuilt, sorted.
    pub groups: Vec<String>,
    /// Records loaded.
    pub records: u32,
    pub skipped: Skipped,
    pub inferred: Vec<InferredTopic>,
    /// Topics a topology names that the given cluster lacks, or (no cluster given)
    /// whose partition count nothing tells, regexes included: the group stays
    /// NotReady until they exist.
    pub unresolved: Vec<String>,
    /// Groups whose recorded metadata hash (Kafka's, over topic ids and racks) was
    /// replaced by this model's (no cluster given), so that loading bumps no epoch.
    pub adopted_metadata_hash: Vec<String>,
    /// The clock after loading: the latest record timestamp of a dump, else 0.
    #[ts(type = "number")]
    pub now_ms: i64,
}

/// One of Kafka's records as ours, with where it came from.
pub struct Converted {
    pub entry: Entry,
    pub key: RecordKey,
    pub value: Option<RecordValue>,
}

fn data<T: DeserializeOwned + Validate>(
    v: &serde_json::Value,
    prefix: &str,
    line: usize,
) -> Result<T, InputError> {
    decode_str_within::<T>(&v.to_string(), WHAT, MAX_RECORDS_BYTES)
        .map_err(|e| at_line(under(e, prefix), line))
}

impl Validate for schema::GroupKey {}
impl Validate for schema::MemberKey {}
impl Validate for schema::GroupMetadataValue {}
impl Validate for schema::MemberMetadataValue {}
impl Validate for schema::TargetAssignmentMetadataValue {}

impl Validate for schema::OffsetKey {
    fn validate(&self) -> Result<(), Invalid> {
        non_negative(self.partition, "partition")
    }
}

impl Validate for schema::OffsetCommitValue {}

fn non_negative(v: i32, path: &str) -> Result<(), Invalid> {
    if v < 0 {
        return Err(Invalid::new(path, format!("{v} is negative")));
    }
    Ok(())
}

fn tasks_valid(list: &[schema::TaskIds], field: &str) -> Result<(), Invalid> {
    for (i, t) in list.iter().enumerate() {
        for (j, part) in t.partitions.iter().enumerate() {
            non_negative(*part, &format!("{field}[{i}].partitions[{j}]"))?;
        }
    }
    Ok(())
}

impl Validate for schema::TargetAssignmentMemberValue {
    fn validate(&self) -> Result<(), Invalid> {
        tasks_valid(&self.active_tasks, "activeTasks")?;
        tasks_valid(&self.standby_tasks, "standbyTasks")?;
        tasks_valid(&self.warmup_tasks, "warmupTasks")
    }
}

impl Validate for schema::CurrentMemberAssignmentValue {
    fn validate(&self) -> Result<(), Invalid> {
        if super::member::MemberState::from_code(self.state).is_none() {
            return Err(Invalid::new(
                "state",
                format!(
                    "unknown member state {} (1 Stable, 2 UnrevokedTasks, 3 UnreleasedTasks)",
                    self.state
                ),
            ));
        }
        tasks_valid(&self.active_tasks, "activeTasks")?;
        tasks_valid(&self.standby_tasks, "standbyTasks")?;
        tasks_valid(&self.warmup_tasks, "warmupTasks")?;
        tasks_valid(
            &self.active_tasks_pending_revocation,
            "activeTasksPendingRevocation",
        )?;
        tasks_valid(
            &self.standby_tasks_pending_revocation,
            "standbyTasksPendingRevocation",
        )?;
        tasks_valid(
            &self.warmup_tasks_pending_revocation,
            "warmupTasksPendingRevocation",
        )
    }
}

impl Validate for schema::TopologyValue {
    fn validate(&self) -> Result<(), Invalid> {
        for (i, s) in self.subtopologies.iter().enumerate() {
            let topics = s
                .state_changelog_topics
                .iter()
                .map(|t| ("stateChangelogTopics", t))
                .chain(
                    s.repartition_source_topics
                        .iter()
                        .map(|t| ("repartitionSourceTopics", t)),
                );
            for (field, t) in topics {
                if t.partitions < 0 {
                    return Err(Invalid::new(
                        format!("subtopologies[{i}].{field}"),
                        format!(
                            "topic {:?}: partition count {} is negative",
                            t.name, t.partitions
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Our per-task epochs from Kafka's `AssignmentEpochs` (one per partition, tagged, null
/// by default: every task then held since the member epoch), grouped by epoch.
fn o_task_epochs(lists: [&[schema::TaskIds]; 2]) -> Vec<ours::AssignmentEpochTasks> {
    let mut by_epoch: std::collections::BTreeMap<i32, std::collections::BTreeMap<&str, Vec<i32>>> =
        Default::default();
    for t in lists.into_iter().flatten() {
        let Some(epochs) = &t.assignment_epochs else {
            continue;
        };
        for (&p, &e) in t.partitions.iter().zip(epochs) {
            by_epoch
                .entry(e)
                .or_default()
                .entry(t.subtopology_id.as_str())
                .or_default()
                .push(p);
        }
    }
    by_epoch
        .into_iter()
        .map(|(epoch, subs)| ours::AssignmentEpochTasks {
            epoch,
            tasks: subs
                .into_iter()
                .map(|(s, mut ps)| {
                    ps.sort_unstable();
                    ps.dedup();
                    p::TaskIds {
                        subtopology_id: s.to_owned(),
                        partitions: ps,
                    }
                })
                .collect(),
        })
        .collect()
}

fn o_current(c: &schema::CurrentMemberAssignmentValue) -> ours::CurrentMemberAssignmentValue {
    ours::CurrentMemberAssignmentValue {
        member_epoch: c.member_epoch,
        previous_member_epoch: c.previous_member_epoch,
        state: c.state,
        active_tasks: schema::list(&c.active_tasks),
        standby_tasks: schema::list(&c.standby_tasks),
        warmup_tasks: schema::list(&c.warmup_tasks),
        active_tasks_pending_revocation: schema::list(&c.active_tasks_pending_revocation),
        standby_tasks_pending_revocation: schema::list(&c.standby_tasks_pending_revocation),
        warmup_tasks_pending_revocation: schema::list(&c.warmup_tasks_pending_revocation),
        active_task_epochs: o_task_epochs([&c.active_tasks, &c.active_tasks_pending_revocation]),
    }
}

/// Which of Kafka's records were read, converted, and why the others were not.
pub struct Read {
    pub format: Format,
    pub converted: Vec<Converted>,
    pub skipped: Skipped,
}

/// Reads either text form and converts every streams group record (and the offset
/// commits of streams groups) to ours, in the text's order.
pub fn read(text: &str) -> Result<Read, InputError> {
    let parsed = parse::parse(text)?;
    let value_prefix = match parsed.format {
        Format::JsonLines => "value.data",
        Format::DumpLog => "payload.data",
    };
    let mut skipped = parsed.skipped;
    let mut converted = Vec::with_capacity(parsed.entries.len());
    for entry in parsed.entries {
        let t = entry.record_type;
        if schema::other_group_type(t).is_some() {
            skipped.other_groups += 1;
            continue;
        }
        match convert(&entry, value_prefix)? {
            Some((key, value)) => converted.push(Converted { entry, key, value }),
            None => skipped.unknown_types += 1,
        }
    }
    // Offset commits belong to every group type: only those of streams groups stay.
    let streams: BTreeSet<String> = converted
        .iter()
        .filter_map(|c| match &c.key {
            RecordKey::OffsetCommit { .. } => None,
            k => group_of(k).map(str::to_owned),
        })
        .collect();
    let before = converted.len();
    converted.retain(|c| match &c.key {
        RecordKey::OffsetCommit { group_id, .. } => streams.contains(group_id),
        _ => true,
    });
    skipped.other_groups += (before - converted.len()) as u32;
    Ok(Read {
        format: parsed.format,
        converted,
        skipped,
    })
}

/// The group a record is about.
pub fn group_of(k: &RecordKey) -> Option<&str> {
    match k {
        RecordKey::GroupMetadata { group_id }
        | RecordKey::Topology { group_id }
        | RecordKey::TargetAssignmentMetadata { group_id }
        | RecordKey::MemberMetadata { group_id, .. }
        | RecordKey::TargetAssignmentMember { group_id, .. }
        | RecordKey::CurrentMemberAssignment { group_id, .. }
        | RecordKey::OffsetCommit { group_id, .. } => Some(group_id),
        _ => None,
    }
}

fn check_version(entry: &Entry, prefix: &str, highest: i16) -> Result<(), InputError> {
    match &entry.value {
        Some((v, _)) if *v < 0 || *v > highest => {
            let field = prefix.trim_end_matches(".data");
            Err(line_error(
                entry.line,
                &format!("{field}.version"),
                format!(
                    "version {v} of {} is not known (this reads versions 0 to {highest})",
                    schema::value_name(entry.record_type)
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// One entry as our record; None for a record type this model does not know.
fn convert(
    entry: &Entry,
    vp: &str,
) -> Result<Option<(RecordKey, Option<RecordValue>)>, InputError> {
    use schema::*;
    let t = entry.record_type;
    let Some(key) = convert_key(t, &entry.key, entry.line)? else {
        return Ok(None);
    };
    let highest = if t == OFFSET_COMMIT || t == LEGACY_OFFSET_COMMIT {
        OFFSET_COMMIT_VALUE_VERSION
    } else {
        0
    };
    check_version(entry, vp, highest)?;
    let value = match &entry.value {
        Some((_, v)) => Some(convert_value(t, v, vp, entry.line)?),
        None => None,
    };
    Ok(Some((key, value)))
}

fn convert_key(t: i16, key: &serde_json::Value, n: usize) -> Result<Option<RecordKey>, InputError> {
    use schema::*;
    let kp = "key.data";
    let group = || data::<GroupKey>(key, kp, n).map(|k| k.group_id);
    let member = || data::<MemberKey>(key, kp, n).map(|k| (k.group_id, k.member_id));
    Ok(Some(match t {
        STREAMS_GROUP_METADATA => RecordKey::GroupMetadata { group_id: group()? },
        STREAMS_GROUP_TOPOLOGY => RecordKey::Topology { group_id: group()? },
        STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA => {
            RecordKey::TargetAssignmentMetadata { group_id: group()? }
        }
        STREAMS_GROUP_MEMBER_METADATA => {
            let (group_id, member_id) = member()?;
            RecordKey::MemberMetadata {
                group_id,
                member_id,
            }
        }
        STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER => {
            let (group_id, member_id) = member()?;
            RecordKey::TargetAssignmentMember {
                group_id,
                member_id,
            }
        }
        STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT => {
            let (group_id, member_id) = member()?;
            RecordKey::CurrentMemberAssignment {
                group_id,
                member_id,
            }
        }
        LEGACY_OFFSET_COMMIT | OFFSET_COMMIT => {
            let k: OffsetKey = data(key, kp, n)?;
            RecordKey::OffsetCommit {
                group_id: k.group,
                topic: k.topic,
                partition: k.partition,
            }
        }
        _ => return Ok(None),
    }))
}

fn convert_value(
    t: i16,
    v: &serde_json::Value,
    vp: &str,
    n: usize,
) -> Result<RecordValue, InputError> {
    use schema::*;
    Ok(match t {
        STREAMS_GROUP_METADATA => {
            let g: GroupMetadataValue = data(v, vp, n)?;
            RecordValue::GroupMetadata(ours::GroupMetadataValue {
                epoch: g.epoch,
                metadata_hash: g.metadata_hash,
                shutdown_requester: None,
            })
        }
        STREAMS_GROUP_TOPOLOGY => RecordValue::Topology((&data::<TopologyValue>(v, vp, n)?).into()),
        STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA => {
            let m: TargetAssignmentMetadataValue = data(v, vp, n)?;
            RecordValue::TargetAssignmentMetadata(ours::TargetAssignmentMetadataValue {
                assignment_epoch: m.assignment_epoch,
                // Kafka keeps the initial rebalance delay as a timer, not in a record.
                initial_rebalance_deadline_ms: None,
            })
        }
        STREAMS_GROUP_MEMBER_METADATA => {
            RecordValue::MemberMetadata((&data::<MemberMetadataValue>(v, vp, n)?).into())
        }
        STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER => {
            let m: TargetAssignmentMemberValue = data(v, vp, n)?;
            RecordValue::TargetAssignmentMember((&m).into())
        }
        STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT => {
            RecordValue::CurrentMemberAssignment(o_current(&data(v, vp, n)?))
        }
        _ => {
            let o: OffsetCommitValue = data(v, vp, n)?;
            RecordValue::OffsetCommit(ours::OffsetCommitValue {
                offset: o.offset,
                // Kafka stores a null metadata as "" (and prints it so).
                metadata: (!o.metadata.is_empty()).then_some(o.metadata),
                commit_timestamp_ms: o.commit_timestamp,
            })
        }
    })
}

/// What the records say about topics: each group's latest topology and the highest
/// task partition any assignment names per (group, subtopology).
#[derive(Default)]
struct TopicEvidence {
    topologies: BTreeMap<String, ours::TopologyValue>,
    max_partition: BTreeMap<(String, String), i32>,
}

impl TopicEvidence {
    fn gather(converted: &[Converted]) -> Self {
        let mut ev = TopicEvidence::default();
        for c in converted {
            let Some(group) = group_of(&c.key) else {
                continue;
            };
            let lists: Vec<&[p::TaskIds]> = match &c.value {
                Some(RecordValue::Topology(t)) => {
                    ev.topologies.insert(group.to_owned(), t.clone());
                    continue;
                }
                Some(RecordValue::TargetAssignmentMember(t)) => vec![
                    t.active_tasks.as_slice(),
                    t.standby_tasks.as_slice(),
                    t.warmup_tasks.as_slice(),
                ],
                Some(RecordValue::CurrentMemberAssignment(a)) => vec![
                    a.active_tasks.as_slice(),
                    a.standby_tasks.as_slice(),
                    a.warmup_tasks.as_slice(),
                    a.active_tasks_pending_revocation.as_slice(),
                    a.standby_tasks_pending_revocation.as_slice(),
                    a.warmup_tasks_pending_revocation.as_slice(),
                ],
                None if matches!(c.key, RecordKey::Topology { .. }) => {
                    ev.topologies.remove(group);
                    continue;
                }
                _ => continue,
            };
            for t in lists.into_iter().flatten() {
                if let Some(max) = t.partitions.iter().max() {
                    let e = ev
                        .max_partition
                        .entry((group.to_owned(), t.subtopology_id.clone()))
                        .or_insert(*max);
                    *e = (*e).max(*max);
                }
            }
        }
        ev
    }

    /// Partition counts for every topic a topology names that `given` lacks, and the
    /// topics nothing tells the count of.
    fn infer(
        &self,
        given: &BTreeSet<String>,
        regexes: bool,
    ) -> (BTreeMap<String, (i32, &'static str)>, Vec<String>) {
        let mut counts: BTreeMap<String, (i32, &'static str)> = BTreeMap::new();
        let mut unresolved = BTreeSet::new();
        let mut put = |name: &str, n: Option<i32>, from: &'static str| {
            if given.contains(name) {
                return;
            }
            match n {
                Some(n) => {
                    let e = counts.entry(name.to_owned()).or_insert((n, from));
                    if n > e.0 {
                        *e = (n, from);
                    }
                }
                None => {
                    unresolved.insert(name.to_owned());
                }
            }
        };
        for (group, t) in &self.topologies {
            for s in &t.subtopologies {
                let tasks = self
                    .max_partition
                    .get(&(group.clone(), s.subtopology_id.clone()))
                    .map(|m| m.saturating_add(1));
                for name in &s.source_topics {
                    put(name, tasks, "assignments");
                }
                for r in s.source_topic_regex.iter().filter(|_| regexes) {
                    put(&format!("regex {r}"), None, "assignments");
                }
                for r in &s.repartition_source_topics {
                    if r.partitions > 0 {
                        put(&r.name, Some(r.partitions), "topology");
                    } else {
                        put(&r.name, tasks, "assignments");
                    }
                }
                for c in &s.state_changelog_topics {
                    put(&c.name, tasks, "assignments");
                }
            }
        }
        let unresolved = unresolved
            .into_iter()
            .filter(|u| !counts.contains_key(u))
            .collect();
        (counts, unresolved)
    }
}

fn topic_record(
    name: &str,
    partitions: i32,
    rf: i16,
    configs: &BTreeMap<String, String>,
) -> (RecordKey, Option<RecordValue>) {
    (
        RecordKey::Topic {
            name: name.to_owned(),
        },
        Some(RecordValue::Topic(ours::TopicValue {
            num_partitions: partitions,
            replication_factor: rf,
            configs: configs
                .iter()
                .map(|(k, v)| p::KeyValue {
                    key: k.clone(),
                    value: v.clone(),
                })
                .collect(),
        })),
    )
}

/// Kafka's records read and converted, with the topics they need (the first step of
/// both a load and a history).
pub struct Prepared {
    pub config: CoordinatorConfig,
    pub format: Format,
    pub skipped: Skipped,
    pub inferred: Vec<InferredTopic>,
    pub unresolved: Vec<String>,
    /// No cluster was given: every topic was inferred from the records.
    pub all_inferred: bool,
    /// Topic records (given, then inferred), and a clock record for a dump's time.
    pub cluster_records: Vec<(RecordKey, Option<RecordValue>)>,
    pub converted: Vec<Converted>,
}

/// Reads the text and plans the cluster the groups need.
pub fn prepare(text: &str, options: &LoadOptions) -> Result<Prepared, InputError> {
    let config = options.config.clone().unwrap_or_default();
    let read = read(text)?;
    let given: Vec<CreatableTopic> = options
        .cluster
        .as_ref()
        .map(|c| c.topics.clone())
        .unwrap_or_default();
    let given_names: BTreeSet<String> = given.iter().map(|t| t.name.clone()).collect();
    let evidence = TopicEvidence::gather(&read.converted);
    let (mut counts, mut unresolved) = evidence.infer(&given_names, options.cluster.is_none());
    if options.cluster.is_some() {
        // A given cluster is the whole cluster: what it lacks is missing, not guessed.
        unresolved.extend(counts.keys().cloned());
        unresolved.sort();
        counts.clear();
    }
    let rf = config.default_replication_factor;
    let mut inferred: Vec<InferredTopic> = given
        .iter()
        .map(|t| InferredTopic {
            topic: t.name.clone(),
            num_partitions: t.num_partitions,
            from: "cluster".to_owned(),
        })
        .collect();
    inferred.extend(counts.iter().map(|(name, (n, from))| InferredTopic {
        topic: name.clone(),
        num_partitions: *n,
        from: (*from).to_owned(),
    }));
    let mut cluster_records: Vec<(RecordKey, Option<RecordValue>)> = given
        .iter()
        .map(|t| {
            let rf = if t.replication_factor > 0 {
                t.replication_factor
            } else {
                rf
            };
            topic_record(&t.name, t.num_partitions, rf, &t.configs)
        })
        .collect();
    cluster_records.extend(
        counts
            .iter()
            .map(|(name, (n, _))| topic_record(name, *n, rf, &BTreeMap::new())),
    );
    let latest = read
        .converted
        .iter()
        .filter_map(|c| c.entry.timestamp)
        .max()
        .unwrap_or(0);
    let now_ms = options.now_ms.unwrap_or(latest).max(0);
    if now_ms > 0 {
        cluster_records.push((
            RecordKey::Clock {},
            Some(RecordValue::Clock(ours::ClockValue { now_ms })),
        ));
    }
    Ok(Prepared {
        config,
        format: read.format,
        skipped: read.skipped,
        inferred,
        unresolved,
        all_inferred: options.cluster.is_none(),
        cluster_records,
        converted: read.converted,
    })
}

fn numbered(plan: Vec<(RecordKey, Option<RecordValue>)>) -> Vec<Record> {
    plan.into_iter()
        .enumerate()
        .map(|(i, (key, value))| Record {
            offset: i as u64,
            key,
            value,
        })
        .collect()
}

impl Coordinator {
    /// A coordinator rebuilt from Kafka's records of its streams groups (either text
    /// form), the topics taken from `options.cluster` or inferred; nothing is loaded
    /// unless every line reads.
    pub fn from_kafka_records(
        text: &str,
        options: &LoadOptions,
    ) -> Result<(Coordinator, LoadReport), InputError> {
        let p = prepare(text, options)?;
        let loaded = p.converted.len() as u32;
        let mut plan = p.cluster_records;
        plan.extend(p.converted.into_iter().map(|c| (c.key, c.value)));
        let mut c = Coordinator::from_records(p.config, numbered(plan))?;
        let adopted = if p.all_inferred {
            c.adopt_model_hashes()
        } else {
            Vec::new()
        };
        c.arm_loaded_timers();
        let report = LoadReport {
            format: p.format,
            groups: c.groups.keys().cloned().collect(),
            records: loaded,
            skipped: p.skipped,
            inferred: p.inferred,
            unresolved: p.unresolved,
            adopted_metadata_hash: adopted,
            now_ms: c.now(),
        };
        Ok((c, report))
    }

    /// The cluster part of a history: a coordinator with the planned topics only.
    pub(crate) fn from_cluster_records(
        config: CoordinatorConfig,
        plan: Vec<(RecordKey, Option<RecordValue>)>,
    ) -> Result<Coordinator, InputError> {
        Coordinator::from_records(config, numbered(plan))
    }

    /// Applies one more record at the end of the log (a history's next step).
    pub(crate) fn replay_one(&mut self, key: RecordKey, value: Option<RecordValue>) {
        let r = Record {
            offset: self.next_offset,
            key,
            value,
        };
        self.next_offset = self.next_offset.saturating_add(1);
        self.apply(&r);
        self.append(r);
    }

    /// With topics inferred from its own records a group had no metadata change the
    /// records could show: its hash becomes this model's (a record), so the next
    /// heartbeat bumps no epoch. Kafka's own hash covers topic ids and racks.
    fn adopt_model_hashes(&mut self) -> Vec<String> {
        let config_hash = self.assignment_config_hash;
        let due: Vec<(String, i32, i64, Option<String>)> = self
            .groups
            .values()
            .filter(|g| {
                g.configured.is_some() && g.metadata_hash != g.configured_hash ^ config_hash
            })
            .map(|g| {
                (
                    g.group_id.clone(),
                    g.group_epoch,
                    (g.configured_hash ^ config_hash) as i64,
                    g.shutdown_requester.clone(),
                )
            })
            .collect();
        let mut adopted = Vec::with_capacity(due.len());
        for (group_id, epoch, hash, shutdown_requester) in due {
            self.write(
                RecordKey::GroupMetadata {
                    group_id: group_id.clone(),
                },
                Some(RecordValue::GroupMetadata(ours::GroupMetadataValue {
                    epoch,
                    metadata_hash: hash,
                    shutdown_requester,
                })),
            );
            adopted.push(group_id);
        }
        adopted
    }

    /// As Kafka when it loads a group: every member's session timeout starts now, and
    /// a member still revoking gets its rebalance timeout again.
    fn arm_loaded_timers(&mut self) {
        let now = self.now();
        let session = i64::from(self.config.session_timeout_ms);
        let mut timers = Vec::new();
        for g in self.groups.values() {
            for m in g.members.values() {
                let rebalance = (m.current.state == super::member::MemberState::UnrevokedTasks)
                    .then(|| {
                        (
                            now.saturating_add(i64::from(m.meta.rebalance_timeout_ms)),
                            m.current.member_epoch,
                        )
                    });
                timers.push((
                    g.group_id.clone(),
                    m.member_id.clone(),
                    ours::MemberTimersValue {
                        session_deadline_ms: now.saturating_add(session),
                        rebalance_deadline_ms: rebalance.map(|r| r.0),
                        rebalance_deadline_epoch: rebalance.map_or(0, |r| r.1),
                    },
                ));
            }
        }
        for (group_id, member_id, value) in timers {
            self.write(
                RecordKey::MemberTimers {
                    group_id,
                    member_id,
                },
                Some(RecordValue::MemberTimers(value)),
            );
        }
    }
}
