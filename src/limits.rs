//! The largest inputs the module accepts (README, "Limits"). Every limit is checked
//! before anything changes: beyond one, a message gets the Kafka error that fits
//! (an answer), and input that is not a message gets a thrown error naming the field.
//! They sit well above the benchmark grid (10 000 members, 100 000 tasks) and keep
//! one call's memory and time bounded in a browser tab.

use crate::protocol::{ErrorCode, ProtocolError, StreamsGroupHeartbeatRequest};
use crate::topology::ConfiguredTopology;

/// JSON text of one input (a JS object is measured as its JSON text).
pub const MAX_INPUT_BYTES: usize = 32 << 20;
/// Any string: Kafka's STRING type carries an int16 length.
pub const MAX_STRING_BYTES: usize = i16::MAX as usize;
/// Members of one streams group, whatever `groupMaxSize` says (GROUP_MAX_SIZE_REACHED).
pub const MAX_MEMBERS_PER_GROUP: usize = 10_000;
/// Streams groups one coordinator holds (COORDINATOR_NOT_AVAILABLE for a new one).
pub const MAX_GROUPS: usize = 1_000;
/// Subtopologies of one topology (INVALID_REQUEST).
pub const MAX_SUBTOPOLOGIES: usize = 1_000;
/// Entries of each list inside one subtopology (topics, regexes, copartition groups).
pub const MAX_TOPICS_PER_SUBTOPOLOGY: usize = 10_000;
/// Tasks of one group's configured topology: a topology, or a topic change, that
/// would give a group more is refused (STREAMS_INVALID_TOPOLOGY, INVALID_PARTITIONS).
pub const MAX_TASKS_PER_GROUP: u64 = 1_000_000;
/// Task entries in each owned-task list and offset list of one heartbeat.
pub const MAX_TASK_ENTRIES: usize = 1_000_000;
/// Client tags of one member, and topic configs of one topic.
pub const MAX_TAGS: usize = 1_000;
/// Partitions of one topic (INVALID_PARTITIONS), the simulated cluster's own limit.
pub const MAX_PARTITIONS_PER_TOPIC: i32 = crate::cluster::MAX_PARTITIONS;
/// Tasks of one stand-alone `assign()` call.
pub const MAX_ASSIGN_TASKS: u64 = crate::assignor::json::MAX_TASKS;
/// Simulated processes of one Simulation, and stream threads of one process.
pub const MAX_SIM_PROCESSES: usize = crate::sim::MAX_PROCESSES;
pub const MAX_SIM_THREADS: u32 = crate::sim::scenario::MAX_THREADS;

fn too_many(field: &str, n: usize, max: usize) -> ProtocolError {
    ProtocolError::invalid_request(list_excess(field, n, max).unwrap_or_default())
}

/// Task entries of one owned-task list (partitions over all its subtopologies).
pub fn entries(list: &[crate::protocol::TaskIds]) -> usize {
    list.iter()
        .map(|t| t.partitions.len())
        .fold(0usize, usize::saturating_add)
}

/// The size limits of one heartbeat (INVALID_REQUEST naming the field).
pub fn check_heartbeat(req: &StreamsGroupHeartbeatRequest) -> Result<(), ProtocolError> {
    let entries =
        |l: &Option<crate::protocol::TaskList>| l.as_ref().map_or(0, |l| l.task_entries());
    for (field, list) in [
        ("ActiveTasks", &req.active_tasks),
        ("StandbyTasks", &req.standby_tasks),
        ("WarmupTasks", &req.warmup_tasks),
    ] {
        let n = entries(list);
        if n > MAX_TASK_ENTRIES {
            return Err(too_many(field, n, MAX_TASK_ENTRIES));
        }
    }
    for (field, list) in [
        ("TaskOffsets", &req.task_offsets),
        ("TaskEndOffsets", &req.task_end_offsets),
    ] {
        let n = list.as_ref().map_or(0, Vec::len);
        if n > MAX_TASK_ENTRIES {
            return Err(too_many(field, n, MAX_TASK_ENTRIES));
        }
    }
    if let Some(m) = req
        .client_tags
        .as_ref()
        .and_then(|tags| list_excess("ClientTags", tags.len(), MAX_TAGS))
    {
        return Err(ProtocolError::invalid_request(m));
    }
    if let Some(t) = &req.topology {
        if let Some(e) = topology_excess(&t.subtopologies) {
            return Err(too_many(&e.protocol_field(), e.n, e.max));
        }
    }
    Ok(())
}

/// A list of a topology beyond its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopologyExcess {
    /// The subtopology whose list it is; None: the list of subtopologies itself.
    pub subtopology: Option<usize>,
    /// The list's protocol name (`SourceTopics`, `TopicConfigs`, ...).
    pub field: &'static str,
    /// For `TopicConfigs`: the topic whose configs they are.
    pub topic: Option<String>,
    pub n: usize,
    pub max: usize,
}

impl TopologyExcess {
    /// As a heartbeat's error names it: `Topology.Subtopologies[2].SourceTopics`.
    pub fn protocol_field(&self) -> String {
        match (self.subtopology, &self.topic) {
            (None, _) => format!("Topology.{}", self.field),
            (Some(i), None) => format!("Topology.Subtopologies[{i}].{}", self.field),
            (Some(i), Some(t)) => format!(
                "Topology.Subtopologies[{i}] topic {} {}",
                crate::protocol::json::truncate(t, 60),
                self.field
            ),
        }
    }

    /// As a record's path names it: `subtopologies[2].sourceTopics`.
    pub fn path(&self) -> String {
        let camel = |f: &str| {
            let mut c = f.chars();
            c.next()
                .map(|h| h.to_lowercase().chain(c).collect::<String>())
                .unwrap_or_default()
        };
        match (self.subtopology, &self.topic) {
            (None, _) => camel(self.field),
            (Some(i), None) => format!("subtopologies[{i}].{}", camel(self.field)),
            (Some(i), Some(_)) => format!("subtopologies[{i}]"),
        }
    }

    pub fn message(&self) -> String {
        format!(
            "{} has {} entries; this coordinator accepts at most {}.",
            self.protocol_field(),
            self.n,
            self.max
        )
    }
}

/// The first list of a topology beyond its limit (README, "Limits"): the same check
/// for a joining member's topology and for a recorded one.
pub fn topology_excess(subtopologies: &[crate::protocol::Subtopology]) -> Option<TopologyExcess> {
    if subtopologies.len() > MAX_SUBTOPOLOGIES {
        return Some(TopologyExcess {
            subtopology: None,
            field: "Subtopologies",
            topic: None,
            n: subtopologies.len(),
            max: MAX_SUBTOPOLOGIES,
        });
    }
    for (i, s) in subtopologies.iter().enumerate() {
        for (field, n) in [
            ("SourceTopics", s.source_topics.len()),
            ("SourceTopicRegex", s.source_topic_regex.len()),
            ("StateChangelogTopics", s.state_changelog_topics.len()),
            ("RepartitionSinkTopics", s.repartition_sink_topics.len()),
            ("RepartitionSourceTopics", s.repartition_source_topics.len()),
            ("CopartitionGroups", s.copartition_groups.len()),
        ] {
            if n > MAX_TOPICS_PER_SUBTOPOLOGY {
                return Some(TopologyExcess {
                    subtopology: Some(i),
                    field,
                    topic: None,
                    n,
                    max: MAX_TOPICS_PER_SUBTOPOLOGY,
                });
            }
        }
        for t in s
            .state_changelog_topics
            .iter()
            .chain(&s.repartition_source_topics)
        {
            if t.topic_configs.len() > MAX_TAGS {
                return Some(TopologyExcess {
                    subtopology: Some(i),
                    field: "TopicConfigs",
                    topic: Some(t.name.clone()),
                    n: t.topic_configs.len(),
                    max: MAX_TAGS,
                });
            }
        }
    }
    None
}

/// Beyond a per-list limit: the sentence both the live path (INVALID_REQUEST) and a
/// record's validation (`invalid records: ...`) use.
pub fn list_excess(field: &str, n: usize, max: usize) -> Option<String> {
    (n > max).then(|| format!("{field} has {n} entries; this coordinator accepts at most {max}."))
}

/// The partition count of a topic as the cluster accepts it.
pub fn partitions_excess(n: i32) -> Option<String> {
    (n > MAX_PARTITIONS_PER_TOPIC).then(|| {
        format!(
            "Number of partitions {n} is above this simulated cluster's limit of {MAX_PARTITIONS_PER_TOPIC}."
        )
    })
}

/// How many tasks a configured topology has.
pub fn task_count(c: &ConfiguredTopology) -> u64 {
    c.subtopologies
        .iter()
        .map(|s| u64::from(s.num_tasks))
        .fold(0, u64::saturating_add)
}

/// STREAMS_INVALID_TOPOLOGY when a configured topology has too many tasks.
pub fn check_tasks(c: &ConfiguredTopology) -> Result<(), ProtocolError> {
    let n = task_count(c);
    if n > MAX_TASKS_PER_GROUP {
        return Err(ProtocolError::new(
            ErrorCode::STREAMS_INVALID_TOPOLOGY,
            format!(
                "The topology has {n} tasks on this cluster; this coordinator accepts at most {MAX_TASKS_PER_GROUP} per group."
            ),
        ));
    }
    Ok(())
}

/// Refuses a topic (new, or with more partitions) that would give some group more
/// than `MAX_TASKS_PER_GROUP` tasks (answered as INVALID_PARTITIONS by the caller).
pub(crate) fn check_topic_change(
    c: &crate::coordinator::Coordinator,
    topic: &crate::cluster::TopicMetadata,
) -> Result<(), String> {
    if !c.has_topologies() {
        return Ok(());
    }
    let mut scratch = c.cluster.clone();
    scratch.topics.insert(topic.name.clone(), topic.clone());
    check_groups_on(c, &scratch).map_err(|(group, n)| {
        format!(
            "With {} partitions in topic {}, group {} would have {n} tasks; this coordinator accepts at most {MAX_TASKS_PER_GROUP} per group.",
            topic.num_partitions, topic.name, group
        )
    })
}

/// The first group (id, task count) that would have more than `MAX_TASKS_PER_GROUP`
/// tasks on `cluster` (every group with a topology: names, regexes and inferred
/// repartition counts may all bring a topic in). One configuration per group.
pub(crate) fn check_groups_on(
    c: &crate::coordinator::Coordinator,
    cluster: &crate::cluster::Cluster,
) -> Result<(), (String, u64)> {
    for (gid, t) in c.topologies() {
        if let Ok(cfg) = crate::topology::configure(t, cluster) {
            let n = task_count(&cfg);
            if n > MAX_TASKS_PER_GROUP {
                return Err((gid.to_owned(), n));
            }
        }
    }
    Ok(())
}

/// The coordinator's default memory budget (`maxStateBytes`), also its largest: the
/// record log a state within it writes (at most this many bytes of JSON, see
/// `records_limit`) must go through `records()` and back into `fromRecords` in one
/// wasm instance (the original, the text, the decoded records and the twin: about
/// four times the log, well inside the 4 GiB wasm memory) and stay a JS string (V8
/// holds at most 2^29 - 24 UTF-16 units, about 512 MiB). At 1 GiB neither held.
pub const DEFAULT_MAX_STATE_BYTES: u64 = 256 << 20;
pub const MAX_STATE_BYTES: u64 = DEFAULT_MAX_STATE_BYTES;
/// How many times a byte of state is counted against the budget: its live record, a
/// replaced copy until compaction (the log stays within twice its live bytes plus
/// `compaction::SLACK_BYTES`), and once more as room for the records that follow
/// from a request (assignments) and the slack.
pub const STATE_COPIES: u64 = 3;

/// The largest record log `fromRecords` reads (bytes of JSON text) under a budget:
/// the budget itself, never less than one input. A coordinator keeps its own log
/// within it (`Coordinator::check_budget`, `compaction::due`), so every state it
/// accepted writes a `records()` this accepts.
pub fn records_limit(max_state_bytes: i64) -> usize {
    let budget = usize::try_from(max_state_bytes).unwrap_or(0);
    budget.max(MAX_INPUT_BYTES)
}

/// The largest record log under any accepted configuration: the line limit of a
/// broker dump (one line is one record, never longer than a whole log).
pub const MAX_RECORDS_BYTES: usize = MAX_STATE_BYTES as usize;

/// Bytes of a string inside JSON text, without its quotes (serde_json's escapes, which
/// are also `JSON.stringify`'s): what its record spends on it.
pub fn json_len(s: &str) -> usize {
    s.bytes().map(json_byte_len).sum()
}

/// Bytes of JSON text one byte of a string takes (its escape's length).
pub const fn json_byte_len(b: u8) -> usize {
    match b {
        b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
        0..=0x1f => 6,
        _ => 1,
    }
}

/// Bytes of JSON a record takes in `records()` (without the comma between records).
pub fn record_bytes(r: &crate::coordinator::records::Record) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len() as u64);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    // Writing to a counter fails only if serialization does (never for a Record).
    let _ = serde_json::to_writer(&mut n, r);
    n.0
}

/// About how many bytes a member's metadata holds: its strings as JSON text (what its
/// record spends on them), 32 per tag besides.
pub fn metadata_bytes(m: &crate::coordinator::member::MemberMetadata) -> u64 {
    let opt = |s: &Option<String>| s.as_deref().map_or(0, json_len);
    let tags: usize = m
        .client_tags
        .iter()
        .map(|t| json_len(&t.key) + json_len(&t.value) + 32)
        .sum();
    let bytes = opt(&m.instance_id)
        + opt(&m.rack_id)
        + json_len(&m.client_id)
        + json_len(&m.client_host)
        + json_len(&m.process_id)
        + m.user_endpoint.as_ref().map_or(0, |e| json_len(&e.host))
        + tags;
    bytes as u64
}

/// About how many bytes a topology holds (its names and configs as JSON text; 32 per
/// entry).
pub fn topology_bytes(t: &crate::protocol::Topology) -> u64 {
    let topics = |l: &[crate::protocol::TopicInfo]| -> usize {
        l.iter()
            .map(|t| {
                json_len(&t.name)
                    + 32
                    + t.topic_configs
                        .iter()
                        .map(|c| json_len(&c.key) + json_len(&c.value) + 32)
                        .sum::<usize>()
            })
            .sum()
    };
    let names = |l: &[String]| -> usize { l.iter().map(|n| json_len(n) + 32).sum() };
    let bytes: usize = t
        .subtopologies
        .iter()
        .map(|s| {
            json_len(&s.subtopology_id)
                + 32
                + names(&s.source_topics)
                + names(&s.source_topic_regex)
                + names(&s.repartition_sink_topics)
                + topics(&s.state_changelog_topics)
                + topics(&s.repartition_source_topics)
                + s.copartition_groups.len() * 64
        })
        .sum();
    bytes as u64
}

/// Topics one `createTopics` call creates at most (an `Error` beyond).
pub const MAX_TOPICS_PER_REQUEST: usize = 100_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{KeyValue, Subtopology, Topology};

    #[test]
    fn heartbeat_lists_beyond_the_limits_name_their_field() {
        let mut req = StreamsGroupHeartbeatRequest {
            client_tags: Some(vec![
                KeyValue {
                    key: "k".into(),
                    value: "v".into()
                };
                MAX_TAGS + 1
            ]),
            ..Default::default()
        };
        let e = check_heartbeat(&req).unwrap_err();
        assert_eq!(e.code, ErrorCode::INVALID_REQUEST);
        assert_eq!(
            e.message,
            "ClientTags has 1001 entries; this coordinator accepts at most 1000."
        );
        req.client_tags = None;
        req.topology = Some(Topology {
            epoch: 0,
            subtopologies: vec![Subtopology::default(); MAX_SUBTOPOLOGIES + 1],
        });
        let e = check_heartbeat(&req).unwrap_err();
        assert!(e
            .message
            .starts_with("Topology.Subtopologies has 1001 entries"));
        req.topology = Some(Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                source_topics: vec![String::new(); MAX_TOPICS_PER_SUBTOPOLOGY + 1],
                ..Default::default()
            }],
        });
        let e = check_heartbeat(&req).unwrap_err();
        assert!(e
            .message
            .starts_with("Topology.Subtopologies[0].SourceTopics has 10001 entries"));
        req.topology = None;
        assert_eq!(check_heartbeat(&req), Ok(()));
    }
}
