//! Copartition groups (PROTOCOL.md §5.3): the topics a subtopology joins must have the
//! same number of partitions. External topics that disagree are
//! INCONSISTENT_SOURCE_TOPICS (nothing in the group can fix them); repartition topics
//! are forced to the group's count, and one whose count the topology fixed otherwise is
//! INCONSISTENT_INTERNAL_TOPICS.

use crate::protocol::StatusCode;
use crate::topology::TopicStatus;
use std::collections::{BTreeMap, BTreeSet};

/// A repartition topic's count while configuring: `fixed` when the topology set it;
/// `count` None while it cannot be decided (see `enforce` and `repartition::infer_partial`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepartitionCount {
    pub count: Option<i32>,
    pub fixed: bool,
}

fn same_count_text(counts: &BTreeMap<&str, i32>) -> String {
    let inner: Vec<String> = counts.iter().map(|(t, n)| format!("{t}={n}")).collect();
    format!(
        "Following topics do not have the same number of partitions: [{{{}}}]",
        inner.join(", ")
    )
}

/// The one count all of `counts` have (None for none), or `code` naming them when
/// they disagree.
fn agreed_count(
    counts: &BTreeMap<&str, i32>,
    code: StatusCode,
) -> Result<Option<i32>, TopicStatus> {
    let distinct: BTreeSet<i32> = counts.values().copied().collect();
    if distinct.len() > 1 {
        return Err(TopicStatus {
            code,
            detail: same_count_text(counts),
        });
    }
    Ok(distinct.first().copied())
}

/// Enforces one group. `group` holds external and repartition topic names; external
/// counts come from `external`, repartition ones from (and go back to) `repartition`.
/// `complete` is false when one of the group's source topics is missing or one of its
/// regexes matches nothing.
///
/// What can be decided is reported, nothing is invented:
/// - external topics that already disagree are INCONSISTENT_SOURCE_TOPICS whatever
///   the missing ones turn out to be;
/// - otherwise an incomplete group, or one whose count would come from a repartition
///   topic whose count is unknown, decides nothing;
/// - the repartition topics of a group that is not decided, or that fails, get no
///   count (None), so none of them is created with a count that may have to change.
pub fn enforce(
    group: &BTreeSet<String>,
    complete: bool,
    external: &BTreeMap<String, i32>,
    repartition: &mut BTreeMap<String, RepartitionCount>,
) -> Result<(), TopicStatus> {
    let internal: Vec<&str> = group
        .iter()
        .filter(|t| repartition.contains_key(*t))
        .map(String::as_str)
        .collect();
    let undecide = |repartition: &mut BTreeMap<String, RepartitionCount>| {
        for t in &internal {
            if let Some(c) = repartition.get_mut(*t) {
                c.count = None;
            }
        }
    };
    let outside: BTreeMap<&str, i32> = group
        .iter()
        .filter(|t| !repartition.contains_key(*t))
        .filter_map(|t| external.get(t).map(|n| (t.as_str(), *n)))
        .collect();
    let outside_count = agreed_count(&outside, StatusCode::INCONSISTENT_SOURCE_TOPICS)
        .inspect_err(|_| undecide(repartition))?;
    if !complete {
        undecide(repartition);
        return Ok(());
    }
    let n = match outside_count {
        Some(n) => n,
        None => {
            let fixed: BTreeMap<&str, i32> = internal
                .iter()
                .filter_map(|t| {
                    repartition
                        .get(*t)
                        .filter(|c| c.fixed)
                        .and_then(|c| c.count.map(|n| (*t, n)))
                })
                .collect();
            match agreed_count(&fixed, StatusCode::INCONSISTENT_INTERNAL_TOPICS)
                .inspect_err(|_| undecide(repartition))?
            {
                Some(n) => n,
                None => {
                    let counts: Option<Vec<i32>> = internal
                        .iter()
                        .map(|t| repartition.get(*t).and_then(|c| c.count))
                        .collect();
                    match counts {
                        Some(c) => c.into_iter().max().unwrap_or(0),
                        None => {
                            undecide(repartition);
                            return Ok(());
                        }
                    }
                }
            }
        }
    };
    let mut wrong = Vec::new();
    for t in &internal {
        if let Some(c) = repartition.get_mut(*t) {
            match c.count {
                Some(count) if c.fixed && count != n => wrong.push(format!(
                    "Number of partitions [{count}] of repartition topic [{t}] doesn't match number of partitions [{n}] of the source topic."
                )),
                _ if n > 0 => c.count = Some(n),
                _ => {}
            }
        }
    }
    if !wrong.is_empty() {
        undecide(repartition);
        return Err(TopicStatus {
            code: StatusCode::INCONSISTENT_INTERNAL_TOPICS,
            detail: wrong.join(" "),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Behaviours ported from Kafka's CopartitionedTopicsEnforcerTest; where Kafka
    //! reports external topics that disagree as an internal-topic problem, PROTOCOL.md's
    //! INCONSISTENT_SOURCE_TOPICS is used.
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn ext(pairs: &[(&str, i32)]) -> BTreeMap<String, i32> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    fn rep(pairs: &[(&str, i32, bool)]) -> BTreeMap<String, RepartitionCount> {
        pairs
            .iter()
            .map(|(k, count, fixed)| {
                (
                    k.to_string(),
                    RepartitionCount {
                        count: Some(*count),
                        fixed: *fixed,
                    },
                )
            })
            .collect()
    }

    const CONSISTENT: &[(&str, i32)] = &[("first", 2), ("second", 2)];

    /// A complete group of `names` against the CONSISTENT external topics.
    fn enforce_consistent(
        names: &[&str],
        r: &mut BTreeMap<String, RepartitionCount>,
    ) -> Result<(), TopicStatus> {
        enforce(&set(names), true, &ext(CONSISTENT), r)
    }

    #[test]
    fn external_topics_that_disagree() {
        let e = enforce(
            &set(&["first", "second"]),
            true,
            &ext(&[("first", 2), ("second", 1)]),
            &mut rep(&[]),
        )
        .unwrap_err();
        assert_eq!(e.code, StatusCode::INCONSISTENT_SOURCE_TOPICS);
        assert_eq!(
            e.detail,
            "Following topics do not have the same number of partitions: [{first=2, second=1}]"
        );
    }

    #[test]
    fn repartition_topics_follow_the_sources() {
        let mut r = rep(&[("repartitioned", 10, false)]);
        enforce_consistent(&["first", "second", "repartitioned"], &mut r).unwrap();
        assert_eq!(r["repartitioned"].count, Some(2));
    }

    #[test]
    fn all_repartition_topics_take_the_maximum() {
        let mut r = rep(&[("one", 1, false), ("two", 15, false), ("three", 5, false)]);
        enforce(&set(&["one", "two", "three"]), true, &ext(&[]), &mut r).unwrap();
        assert!(r.values().all(|c| c.count == Some(15)), "{r:?}");
    }

    #[test]
    fn fixed_repartition_topics_that_disagree() {
        let mut r = rep(&[("repartitioned-1", 10, true), ("repartitioned-2", 5, true)]);
        let e = enforce_consistent(&["repartitioned-1", "repartitioned-2"], &mut r).unwrap_err();
        assert_eq!(e.code, StatusCode::INCONSISTENT_INTERNAL_TOPICS);
        assert_eq!(
            e.detail,
            "Following topics do not have the same number of partitions: [{repartitioned-1=10, repartitioned-2=5}]"
        );
    }

    #[test]
    fn fixed_repartition_topics_that_agree() {
        let mut r = rep(&[("repartitioned-1", 10, true), ("repartitioned-2", 10, true)]);
        enforce_consistent(&["repartitioned-1", "repartitioned-2"], &mut r).unwrap();
        assert_eq!(
            (r["repartitioned-1"].count, r["repartitioned-2"].count),
            (Some(10), Some(10))
        );
    }

    #[test]
    fn fixed_repartition_topic_against_a_source() {
        let mut r = rep(&[("repartitioned-1", 10, true)]);
        let e = enforce_consistent(&["repartitioned-1", "second"], &mut r).unwrap_err();
        assert_eq!(e.code, StatusCode::INCONSISTENT_INTERNAL_TOPICS);
        assert_eq!(
            e.detail,
            "Number of partitions [10] of repartition topic [repartitioned-1] doesn't match number of partitions [2] of the source topic."
        );
        let mut r = rep(&[("repartitioned-1", 2, true)]);
        enforce_consistent(&["repartitioned-1", "second"], &mut r).unwrap();
        assert_eq!(r["repartitioned-1"].count, Some(2));
    }

    #[test]
    fn fixed_count_decides_the_others() {
        let mut r = rep(&[("repartitioned-1", 2, true), ("repartitioned-2", 5, false)]);
        enforce_consistent(&["repartitioned-1", "repartitioned-2"], &mut r).unwrap();
        assert_eq!(r["repartitioned-2"].count, Some(2));
    }

    #[test]
    fn disagreeing_external_topics_are_reported_even_when_others_are_missing() {
        let mut r = rep(&[("rep", 4, false)]);
        let e = enforce(
            &set(&["a", "b", "missing", "rep"]),
            false,
            &ext(&[("a", 2), ("b", 3)]),
            &mut r,
        )
        .unwrap_err();
        assert_eq!(e.code, StatusCode::INCONSISTENT_SOURCE_TOPICS);
        assert_eq!(
            e.detail,
            "Following topics do not have the same number of partitions: [{a=2, b=3}]"
        );
        assert_eq!(r["rep"].count, None, "a failing group decides no count");
    }

    #[test]
    fn an_incomplete_group_decides_nothing() {
        let mut r = rep(&[("rep", 4, false), ("fixed", 9, true)]);
        enforce(
            &set(&["a", "missing", "rep", "fixed"]),
            false,
            &ext(&[("a", 2)]),
            &mut r,
        )
        .unwrap();
        assert_eq!((r["rep"].count, r["fixed"].count), (None, None));
    }

    #[test]
    fn a_group_of_repartition_topics_with_an_unknown_count_decides_nothing() {
        let mut r = rep(&[("known", 4, false)]);
        r.insert(
            "unknown".into(),
            RepartitionCount {
                count: None,
                fixed: false,
            },
        );
        enforce(&set(&["known", "unknown"]), true, &ext(&[]), &mut r).unwrap();
        assert_eq!((r["known"].count, r["unknown"].count), (None, None));
        // A fixed count decides the group even so.
        let mut r = rep(&[("fixed", 3, true)]);
        r.insert(
            "unknown".into(),
            RepartitionCount {
                count: None,
                fixed: false,
            },
        );
        enforce(&set(&["fixed", "unknown"]), true, &ext(&[]), &mut r).unwrap();
        assert_eq!(r["unknown"].count, Some(3));
    }
}
