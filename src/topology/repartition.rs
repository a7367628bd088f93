//! Partition counts of repartition topics (SPEC.md section 5): a fixed count (> 0 in
//! the topology) wins; every other repartition topic gets the maximum partition count
//! over the inputs of the subtopology that writes it, repeated to a fix point. Counts
//! only grow and are bounded by the largest input, so the work list empties, and the
//! result does not depend on the order of subtopologies. A repartition topic that still has
//! no count is fed only by a loop of repartition topics: an invalid topology.

use crate::protocol::{ErrorCode, ProtocolError, Subtopology};
use std::collections::{BTreeMap, BTreeSet};

/// Kafka's texts for the two ways inference fails.
pub const NEVER_A_SINK: &str = "Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic.";
pub const LOOP: &str = "Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved.";

/// The fixed counts of repartition source topics; a topic fixed twice takes the larger.
pub fn fixed_counts<'a>(subs: impl IntoIterator<Item = &'a Subtopology>) -> BTreeMap<String, i32> {
    let mut fixed = BTreeMap::new();
    for s in subs {
        for t in &s.repartition_source_topics {
            if t.partitions > 0 {
                let e = fixed.entry(t.name.clone()).or_insert(t.partitions);
                *e = (*e).max(t.partitions);
            }
        }
    }
    fixed
}

/// `subs` pairs each subtopology with the largest partition count of its external
/// source topics (regexes resolved), None when it has none.
pub fn infer(subs: &[(&Subtopology, Option<i32>)]) -> Result<BTreeMap<String, i32>, ProtocolError> {
    let fixed = fixed_counts(subs.iter().map(|(s, _)| *s));
    let sinks: BTreeSet<&str> = subs
        .iter()
        .flat_map(|(s, _)| s.repartition_sink_topics.iter().map(String::as_str))
        .collect();
    let never_written: Vec<&str> = subs
        .iter()
        .flat_map(|(s, _)| s.repartition_source_topics.iter())
        .filter(|t| t.partitions == 0 && !sinks.contains(t.name.as_str()))
        .map(|t| t.name.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !never_written.is_empty() {
        return Err(ProtocolError::new(
            ErrorCode::STREAMS_INVALID_TOPOLOGY,
            format!("{NEVER_A_SINK} Topics: {}.", never_written.join(", ")),
        ));
    }
    // A work list: a subtopology is revisited only when one of its inputs grew.
    let mut readers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (s, _)) in subs.iter().enumerate() {
        for t in &s.repartition_source_topics {
            readers.entry(t.name.as_str()).or_default().push(i);
        }
    }
    let mut counts = fixed.clone();
    let mut queued = vec![true; subs.len()];
    let mut work: std::collections::VecDeque<usize> = (0..subs.len()).collect();
    while let Some(i) = work.pop_front() {
        if let Some(q) = queued.get_mut(i) {
            *q = false;
        }
        let Some((s, external)) = subs.get(i) else {
            continue;
        };
        let from_repartition = s
            .repartition_source_topics
            .iter()
            .filter_map(|t| counts.get(&t.name).copied())
            .max();
        let Some(n) = external.iter().copied().chain(from_repartition).max() else {
            continue;
        };
        for sink in &s.repartition_sink_topics {
            if fixed.contains_key(sink) {
                continue;
            }
            let c = counts.entry(sink.clone()).or_insert(0);
            if *c < n {
                *c = n;
                for r in readers.get(sink.as_str()).into_iter().flatten() {
                    if let Some(q) = queued.get_mut(*r).filter(|q| !**q) {
                        *q = true;
                        work.push_back(*r);
                    }
                }
            }
        }
    }
    let unresolved: BTreeSet<&str> = subs
        .iter()
        .flat_map(|(s, _)| {
            s.repartition_source_topics
                .iter()
                .map(|t| t.name.as_str())
                .chain(s.repartition_sink_topics.iter().map(String::as_str))
        })
        .filter(|t| counts.get(*t).is_none_or(|c| *c <= 0))
        .collect();
    if !unresolved.is_empty() {
        let names: Vec<&str> = unresolved.into_iter().collect();
        return Err(ProtocolError::new(
            ErrorCode::STREAMS_INVALID_TOPOLOGY,
            format!(
                "{LOOP} Topics without a partition count: {}.",
                names.join(", ")
            ),
        ));
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    //! Behaviours ported from Kafka's RepartitionTopicsTest (source1, source2: 3 partitions).
    use super::*;
    use crate::protocol::TopicInfo;

    fn info(name: &str, partitions: i32) -> TopicInfo {
        TopicInfo {
            name: name.into(),
            partitions,
            replication_factor: 0,
            topic_configs: vec![],
        }
    }

    fn sub(id: &str, sources: &[&str], rsources: &[TopicInfo], sinks: &[&str]) -> Subtopology {
        Subtopology {
            subtopology_id: id.into(),
            source_topics: sources.iter().map(|s| s.to_string()).collect(),
            repartition_source_topics: rsources.to_vec(),
            repartition_sink_topics: sinks.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn run(subs: &[Subtopology]) -> Result<BTreeMap<String, i32>, ProtocolError> {
        let with: Vec<(&Subtopology, Option<i32>)> = subs
            .iter()
            .map(|s| (s, (!s.source_topics.is_empty()).then_some(3)))
            .collect();
        infer(&with)
    }

    fn map(pairs: &[(&str, i32)]) -> BTreeMap<String, i32> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn sets_up_fixed_repartition_topics() {
        let subs = [
            sub("s1", &["source1", "source2"], &[], &["repartition1"]),
            sub("s2", &[], &[info("repartition1", 4)], &[]),
        ];
        assert_eq!(run(&subs).unwrap(), map(&[("repartition1", 4)]));
    }

    #[test]
    fn loop_is_invalid() {
        let subs = [sub("s1", &[], &[info("r", 0)], &["r"])];
        let e = run(&subs).unwrap_err();
        assert_eq!(e.code, ErrorCode::STREAMS_INVALID_TOPOLOGY);
        assert_eq!(
            e.message,
            format!("{LOOP} Topics without a partition count: r.")
        );
    }

    #[test]
    fn never_written_is_invalid() {
        let subs = [sub("s1", &[], &[info("b", 0), info("a", 0)], &[])];
        let e = run(&subs).unwrap_err();
        assert_eq!(e.message, format!("{NEVER_A_SINK} Topics: a, b."));
    }

    #[test]
    fn count_from_upstream_external_source() {
        let subs = [
            sub(
                "s0",
                &["source1"],
                &[info("repartition2", 2)],
                &["repartition1", "without"],
            ),
            sub(
                "s1",
                &[],
                &[info("repartition1", 4), info("without", 0)],
                &[],
            ),
        ];
        // Kafka: the sink without a count takes the max over source1 (3) and repartition2 (2).
        assert_eq!(
            run(&subs).unwrap(),
            map(&[("repartition1", 4), ("repartition2", 2), ("without", 3)])
        );
    }

    #[test]
    fn count_from_upstream_repartition_source() {
        let subs = [
            sub("s0", &["source1"], &[info("repartition1", 4)], &["without"]),
            sub("s1", &[], &[info("without", 0)], &["repartition1"]),
        ];
        assert_eq!(
            run(&subs).unwrap(),
            map(&[("repartition1", 4), ("without", 4)])
        );
    }

    #[test]
    fn no_repartition_topics() {
        assert!(run(&[sub("s0", &["source1"], &[], &[])])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn chains_reach_a_fix_point_whatever_the_order() {
        // c <- b <- a <- source (3), declared downstream first.
        let subs = [
            sub("0", &[], &[info("b", 0)], &["c"]),
            sub("1", &[], &[info("a", 0)], &["b"]),
            sub("2", &["source1"], &[], &["a"]),
            sub("3", &[], &[info("c", 0)], &[]),
        ];
        assert_eq!(run(&subs).unwrap(), map(&[("a", 3), ("b", 3), ("c", 3)]));
    }

    #[test]
    fn a_loop_fed_from_outside_resolves() {
        // s0 reads source (3) and r2, writes r1; s1 reads r1, writes r2.
        let subs = [
            sub("s0", &["source1"], &[info("r2", 0)], &["r1"]),
            sub("s1", &[], &[info("r1", 0)], &["r2"]),
        ];
        assert_eq!(run(&subs).unwrap(), map(&[("r1", 3), ("r2", 3)]));
    }
}
