//! Partition counts of repartition topics (PROTOCOL.md §5.2): a fixed count (> 0 in
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

/// What a subtopology's external source topics say about its partition count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExternalInputs {
    /// It reads no external topic.
    None,
    /// The largest partition count of its external source topics (regexes resolved).
    Known(i32),
    /// A source topic is missing or a source regex matches nothing (MISSING_SOURCE_TOPICS):
    /// the largest count is not known yet.
    Unknown,
}

/// `subs` pairs each subtopology with the largest partition count of its external
/// source topics (regexes resolved), None when it has none. Every input is known, so
/// every repartition topic gets a count.
pub fn infer(subs: &[(&Subtopology, Option<i32>)]) -> Result<BTreeMap<String, i32>, ProtocolError> {
    let known: Vec<(&Subtopology, ExternalInputs)> = subs
        .iter()
        .map(|(s, n)| (*s, n.map_or(ExternalInputs::None, ExternalInputs::Known)))
        .collect();
    Ok(infer_partial(&known)?
        .into_iter()
        .filter_map(|(t, n)| n.map(|n| (t, n)))
        .collect())
}

/// Like `infer`, with some inputs unknown. A repartition topic without a fixed count
/// whose writer (directly or through other repartition topics) reads an unknown input
/// gets None: its count is the maximum over its inputs, and an input that does not
/// exist yet may be the largest, so no count is invented for it. A topic that is
/// neither counted nor fed by an unknown input is fed only by a loop: invalid.
pub fn infer_partial(
    subs: &[(&Subtopology, ExternalInputs)],
) -> Result<BTreeMap<String, Option<i32>>, ProtocolError> {
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
    // A work list: a subtopology is revisited only when one of its inputs grew or
    // became unknown. Counts only grow and the unknown set only grows, so it ends.
    let mut readers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (s, _)) in subs.iter().enumerate() {
        for t in &s.repartition_source_topics {
            readers.entry(t.name.as_str()).or_default().push(i);
        }
    }
    let mut counts = fixed.clone();
    let mut unknown: BTreeSet<String> = BTreeSet::new();
    let mut queued = vec![true; subs.len()];
    let mut work: std::collections::VecDeque<usize> = (0..subs.len()).collect();
    while let Some(i) = work.pop_front() {
        if let Some(q) = queued.get_mut(i) {
            *q = false;
        }
        let Some((s, external)) = subs.get(i) else {
            continue;
        };
        let input_unknown = *external == ExternalInputs::Unknown
            || s.repartition_source_topics
                .iter()
                .any(|t| unknown.contains(&t.name));
        let from_repartition = s
            .repartition_source_topics
            .iter()
            .filter_map(|t| counts.get(&t.name).copied())
            .max();
        let from_external = match external {
            ExternalInputs::Known(n) => Some(*n),
            _ => None,
        };
        let n = from_external.into_iter().chain(from_repartition).max();
        if !input_unknown && n.is_none() {
            continue;
        }
        for sink in &s.repartition_sink_topics {
            if fixed.contains_key(sink) {
                continue;
            }
            let changed = if input_unknown {
                unknown.insert(sink.clone())
            } else {
                let c = counts.entry(sink.clone()).or_insert(0);
                let grew = n.is_some_and(|n| *c < n);
                if let Some(n) = n.filter(|_| grew) {
                    *c = n;
                }
                grew
            };
            if changed {
                for r in readers.get(sink.as_str()).into_iter().flatten() {
                    if let Some(q) = queued.get_mut(*r).filter(|q| !**q) {
                        *q = true;
                        work.push_back(*r);
                    }
                }
            }
        }
    }
    let all: BTreeSet<&str> = subs
        .iter()
        .flat_map(|(s, _)| {
            s.repartition_source_topics
                .iter()
                .map(|t| t.name.as_str())
                .chain(s.repartition_sink_topics.iter().map(String::as_str))
        })
        .collect();
    let unresolved: Vec<&str> = all
        .iter()
        .copied()
        .filter(|t| !unknown.contains(*t) && counts.get(*t).is_none_or(|c| *c <= 0))
        .collect();
    if !unresolved.is_empty() {
        return Err(ProtocolError::new(
            ErrorCode::STREAMS_INVALID_TOPOLOGY,
            format!(
                "{LOOP} Topics without a partition count: {}.",
                unresolved.join(", ")
            ),
        ));
    }
    Ok(all
        .into_iter()
        .map(|t| {
            let n = if unknown.contains(t) {
                None
            } else {
                counts.get(t).copied()
            };
            (t.to_owned(), n)
        })
        .collect())
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

    #[test]
    fn counts_downstream_of_an_unknown_input_stay_unknown() {
        // s0 reads a missing topic and writes a; s1 reads a, writes b; s2 reads a
        // present topic (5) and writes c; f is fixed at 7 even though s0 writes it too.
        let subs = [
            sub("s0", &["missing"], &[], &["a", "f"]),
            sub("s1", &[], &[info("a", 0)], &["b"]),
            sub("s2", &["present"], &[], &["c"]),
            sub("s3", &[], &[info("b", 0), info("c", 0), info("f", 7)], &[]),
        ];
        let inputs = [
            (&subs[0], ExternalInputs::Unknown),
            (&subs[1], ExternalInputs::None),
            (&subs[2], ExternalInputs::Known(5)),
            (&subs[3], ExternalInputs::None),
        ];
        let got = infer_partial(&inputs).unwrap();
        let want: BTreeMap<String, Option<i32>> =
            [("a", None), ("b", None), ("c", Some(5)), ("f", Some(7))]
                .into_iter()
                .map(|(t, n)| (t.to_owned(), n))
                .collect();
        assert_eq!(got, want);
        // Known inputs give every topic a count.
        let known = [
            (&subs[0], ExternalInputs::Known(2)),
            (&subs[1], ExternalInputs::None),
            (&subs[2], ExternalInputs::Known(5)),
            (&subs[3], ExternalInputs::None),
        ];
        assert!(infer_partial(&known).unwrap().values().all(Option::is_some));
    }

    #[test]
    fn an_unknown_input_is_not_a_loop_but_a_true_loop_still_is() {
        // A loop fed by a subtopology whose source is missing resolves later: not invalid.
        let fed = [
            sub("s0", &["missing"], &[info("r2", 0)], &["r1"]),
            sub("s1", &[], &[info("r1", 0)], &["r2"]),
        ];
        let inputs = [
            (&fed[0], ExternalInputs::Unknown),
            (&fed[1], ExternalInputs::None),
        ];
        assert!(infer_partial(&inputs)
            .unwrap()
            .values()
            .all(Option::is_none));
        let looped = [sub("s1", &[], &[info("r", 0)], &["r"])];
        let e = infer_partial(&[(&looped[0], ExternalInputs::None)]).unwrap_err();
        assert_eq!(e.code, ErrorCode::STREAMS_INVALID_TOPOLOGY);
    }
}
