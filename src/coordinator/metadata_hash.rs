//! The hash of a group's configured topology kept in its GroupMetadata record: when the
//! configured topology's hash differs from the recorded one, the next heartbeat bumps
//! the group epoch (PROTOCOL.md §4.1: topic metadata changed).
//!
//! It hashes an explicit canonical tuple: what decides the tasks (subtopology ids, task
//! counts, topic names, partition counts) and the status codes, never message text,
//! so rewording a status or renaming a field leaves every recorded hash valid.
//!
//! Logs written before this hash existed carry the hash of the configured topology's
//! `Debug` text. `legacy` rebuilds that text by hand, frozen as it was, so that
//! `from_records` can tell whether such a hash still matched (no bump due: it is
//! re-expressed canonically) or not (a bump is due: it is kept, and the bump happens).

use super::replay::fnv64;
use crate::protocol::ProtocolError;
use crate::topology::{ConfiguredInternalTopic, ConfiguredTopology};

/// What `configure` gave: a configured topology, or why the topology is invalid.
pub type Configured = Result<ConfiguredTopology, ProtocolError>;

/// Appends length-prefixed fields, so that no two tuples write the same bytes.
#[derive(Default)]
struct Tuple(Vec<u8>);

impl Tuple {
    fn int(&mut self, v: i64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    fn str(&mut self, s: &str) -> &mut Self {
        self.int(s.len() as i64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }

    fn names(&mut self, list: &[String]) -> &mut Self {
        self.int(list.len() as i64);
        for s in list {
            self.str(s);
        }
        self
    }

    fn topics(&mut self, list: &[ConfiguredInternalTopic]) -> &mut Self {
        self.int(list.len() as i64);
        for t in list {
            self.str(&t.name).int(t.partitions.into());
        }
        self
    }
}

/// The canonical hash of a configured topology.
pub fn canonical(c: &Configured) -> u64 {
    let mut t = Tuple::default();
    match c {
        Err(e) => {
            t.str("invalid").int(e.code.code().into());
        }
        Ok(c) => {
            t.str("configured").int(c.epoch.into());
            t.int(c.subtopologies.len() as i64);
            for s in &c.subtopologies {
                t.str(&s.id)
                    .int(s.num_tasks.into())
                    .int(s.stateful.into())
                    .names(&s.source_topics)
                    .topics(&s.repartition_source_topics)
                    .topics(&s.state_changelog_topics)
                    .names(&s.repartition_sink_topics);
            }
            t.topics(&c.internal_topics_to_create)
                .names(&c.internal_topics_undecided);
            t.int(c.statuses.len() as i64);
            for s in &c.statuses {
                t.int(s.code.code().into());
            }
        }
    }
    fnv64(&t.0)
}

/// The hash logs written before the canonical one carry: of the `Debug` text of
/// `configure`'s result, as the derived `Debug` wrote it then.
pub fn legacy(c: &Configured) -> u64 {
    fnv64(legacy_text(c).as_bytes())
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    let parts: Vec<String> = items.iter().map(f).collect();
    format!("[{}]", parts.join(", "))
}

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn legacy_topic(t: &ConfiguredInternalTopic) -> String {
    format!(
        "ConfiguredInternalTopic {{ name: {}, partitions: {}, replication_factor: {}, topic_configs: {} }}",
        quoted(&t.name),
        t.partitions,
        t.replication_factor,
        list(&t.topic_configs, |kv| format!(
            "KeyValue {{ key: {}, value: {} }}",
            quoted(&kv.key),
            quoted(&kv.value)
        ))
    )
}

fn legacy_text(c: &Configured) -> String {
    let c = match c {
        Err(e) => {
            return format!(
                "Err(ProtocolError {{ code: {}, message: {} }})",
                e.code.name(),
                quoted(&e.message)
            )
        }
        Ok(c) => c,
    };
    let subtopologies = list(&c.subtopologies, |s| {
        format!(
            "ConfiguredSubtopology {{ id: {}, num_tasks: {}, source_topics: {}, repartition_source_topics: {}, state_changelog_topics: {}, repartition_sink_topics: {}, stateful: {} }}",
            quoted(&s.id),
            s.num_tasks,
            list(&s.source_topics, |x| quoted(x)),
            list(&s.repartition_source_topics, legacy_topic),
            list(&s.state_changelog_topics, legacy_topic),
            list(&s.repartition_sink_topics, |x| quoted(x)),
            s.stateful
        )
    });
    format!(
        "Ok(ConfiguredTopology {{ epoch: {}, subtopologies: {}, internal_topics_to_create: {}, internal_topics_undecided: {}, statuses: {}, config_mismatches: {} }})",
        c.epoch,
        subtopologies,
        list(&c.internal_topics_to_create, legacy_topic),
        list(&c.internal_topics_undecided, |x| quoted(x)),
        list(&c.statuses, |s| format!(
            "TopicStatus {{ code: {}, detail: {} }}",
            s.code.name(),
            quoted(&s.detail)
        )),
        list(&c.config_mismatches, |m| format!(
            "ConfigMismatch {{ topic: {}, detail: {} }}",
            quoted(&m.topic),
            quoted(&m.detail)
        ))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::protocol::{Subtopology, TopicInfo, Topology};

    /// The hand-written legacy text is exactly what `Debug` writes today; when a field
    /// of the configured topology changes, this test fails and `legacy_text` stays as
    /// it is (the hashes in old logs do not change).
    #[test]
    fn legacy_text_is_the_debug_text_of_the_types_it_froze() {
        let mut cluster = Cluster::new(1);
        cluster.create_topic("in", 4, 1, Default::default());
        let topology = Topology {
            epoch: 2,
            subtopologies: vec![
                Subtopology {
                    subtopology_id: "0".into(),
                    source_topics: vec!["in".into(), "missing".into()],
                    repartition_sink_topics: vec!["r".into()],
                    ..Default::default()
                },
                Subtopology {
                    subtopology_id: "1".into(),
                    repartition_source_topics: vec![TopicInfo {
                        name: "r".into(),
                        partitions: 0,
                        replication_factor: 0,
                        topic_configs: vec![crate::protocol::KeyValue {
                            key: "k".into(),
                            value: "v\"".into(),
                        }],
                    }],
                    ..Default::default()
                },
            ],
        };
        let c = crate::topology::configure(&topology, &cluster);
        assert_eq!(legacy_text(&c), format!("{c:?}"));
        cluster.create_topic("missing", 4, 1, Default::default());
        let c = crate::topology::configure(&topology, &cluster);
        assert!(c
            .as_ref()
            .is_ok_and(|c| !c.internal_topics_to_create.is_empty()));
        assert_eq!(legacy_text(&c), format!("{c:?}"));
    }

    #[test]
    fn the_canonical_hash_ignores_wording() {
        let mut cluster = Cluster::new(1);
        let topology = Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["in".into()],
                ..Default::default()
            }],
        };
        let missing = crate::topology::configure(&topology, &cluster);
        let mut reworded = missing.clone();
        if let Ok(c) = &mut reworded {
            c.statuses[0].detail = "Reworded: the source topic in does not exist.".into();
        }
        assert_eq!(canonical(&missing), canonical(&reworded));
        assert_ne!(legacy(&missing), legacy(&reworded));
        cluster.create_topic("in", 3, 1, Default::default());
        let three = crate::topology::configure(&topology, &cluster);
        assert!(three.as_ref().is_ok_and(|c| c.is_ready()), "{three:?}");
        assert_ne!(canonical(&missing), canonical(&three));
    }
}
