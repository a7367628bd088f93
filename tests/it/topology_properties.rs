//! Properties of topology configuration over random topologies and clusters: nothing
//! panics, a topology `validate` accepts never fails `configure` with an error, and a
//! ready configuration is consistent (task counts, copartitioning, changelog sizes).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeMap;
use streams_rebalance::cluster::Cluster;
use streams_rebalance::protocol::{CopartitionGroup, StatusCode, Subtopology, TopicInfo, Topology};
use streams_rebalance::topology::{configure, validate};

const EXTERNAL: [&str; 4] = ["a", "b", "c", "d"];
const REPARTITION: [&str; 3] = ["r0", "r1", "r2"];

fn info(name: &str, partitions: i32) -> TopicInfo {
    TopicInfo {
        name: name.into(),
        partitions,
        replication_factor: 0,
        topic_configs: vec![],
    }
}

prop_compose! {
    fn subtopology(id: usize)(
        sources in proptest::sample::subsequence(EXTERNAL.to_vec(), 1..3),
        regex in proptest::option::of(prop_oneof![Just("[ab]"), Just("c|d"), Just("z.*")]),
        rsources in proptest::sample::subsequence(REPARTITION.to_vec(), 0..2),
        fixed in proptest::collection::vec(prop_oneof![6 => Just(0), 1 => 1..4i32], 3),
        sinks in proptest::sample::subsequence(REPARTITION.to_vec(), 0..4),
        changelog in any::<bool>(),
        copartition in any::<bool>(),
    ) -> Subtopology {
        let rs: Vec<TopicInfo> = rsources.iter().zip(&fixed).map(|(n, f)| info(n, *f)).collect();
        let groups = if copartition {
            vec![CopartitionGroup {
                source_topics: (0..sources.len() as i16).collect(),
                source_topic_regex: if regex.is_some() { vec![0] } else { vec![] },
                repartition_source_topics: (0..rs.len() as i16).collect(),
            }]
        } else {
            vec![]
        };
        Subtopology {
            subtopology_id: id.to_string(),
            source_topics: sources.iter().map(|s| s.to_string()).collect(),
            source_topic_regex: regex.into_iter().map(str::to_owned).collect(),
            state_changelog_topics: if changelog { vec![info(&format!("store{id}-changelog"), 0)] } else { vec![] },
            repartition_sink_topics: sinks.iter().map(|s| s.to_string()).collect(),
            repartition_source_topics: rs,
            copartition_groups: groups,
        }
    }
}

fn topology() -> impl Strategy<Value = Topology> {
    (subtopology(0), subtopology(1), subtopology(2)).prop_map(|(a, b, c)| Topology {
        epoch: 0,
        subtopologies: vec![a, b, c],
    })
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (
        proptest::collection::vec(proptest::option::weighted(0.95, 1..5i32), EXTERNAL.len()),
        proptest::collection::vec(proptest::option::weighted(0.2, 1..5i32), REPARTITION.len()),
    )
        .prop_map(|(external, internal)| {
            let mut c = Cluster::new(3);
            let names = EXTERNAL.iter().chain(REPARTITION.iter());
            for (name, n) in names.zip(external.into_iter().chain(internal)) {
                if let Some(n) = n {
                    c.create_topic(name, n, -1, BTreeMap::new());
                }
            }
            c
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        // Saved failures sit next to this file; the default place (beside a main.rs,
        // which the one test binary has) is a directory nobody reads.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn valid_topologies_configure(t in topology(), mut c in cluster()) {
        if validate(&t).is_err() {
            return Ok(());
        }
        let conf = configure(&t, &c);
        prop_assert!(conf.is_ok(), "validate accepted but configure failed: {:?}", conf);
        let mut conf = conf.unwrap();
        // Every status at most once, in code order; an undecided topic is never created.
        let codes: Vec<i8> = conf.statuses.iter().map(|s| s.code.code()).collect();
        prop_assert!(codes.windows(2).all(|w| w[0] < w[1]), "{:?}", codes);
        for u in &conf.internal_topics_undecided {
            prop_assert!(c.topic(u).is_none());
            prop_assert!(!conf.internal_topics_to_create.iter().any(|t| &t.name == u));
        }
        let only_missing_internal = conf.statuses.len() == 1
            && conf.statuses[0].code == StatusCode::MISSING_INTERNAL_TOPICS;
        if only_missing_internal {
            // Creating exactly what is missing makes the topology ready.
            prop_assert!(conf.internal_topics_undecided.is_empty());
            prop_assert!(!conf.internal_topics_to_create.is_empty());
            for m in &conf.internal_topics_to_create {
                prop_assert!(c.create_topic(&m.name, m.partitions, -1, BTreeMap::new()).is_ok());
            }
            conf = configure(&t, &c).unwrap();
            prop_assert!(conf.is_ready(), "still not ready: {:?}", conf.statuses);
        }
        if conf.is_ready() {
            for (s, raw) in conf.subtopologies.iter().zip({
                let mut v: Vec<&Subtopology> = t.subtopologies.iter().collect();
                v.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
                v
            }) {
                let inputs: Vec<i32> = s.source_topics.iter().filter_map(|n| c.partitions(n))
                    .chain(s.repartition_source_topics.iter().map(|r| r.partitions)).collect();
                prop_assert_eq!(Some(s.num_tasks as i32), inputs.iter().copied().max());
                for cl in &s.state_changelog_topics {
                    prop_assert_eq!(cl.partitions, s.num_tasks as i32);
                }
                // Every internal topic exists with the configured count.
                for r in s.repartition_source_topics.iter().chain(&s.state_changelog_topics) {
                    if !s.source_topics.contains(&r.name) {
                        prop_assert_eq!(c.partitions(&r.name), Some(r.partitions));
                    }
                }
                // Copartitioned topics agree.
                if !raw.copartition_groups.is_empty() {
                    let counts: std::collections::BTreeSet<i32> = s.source_topics.iter().filter_map(|n| c.partitions(n))
                        .chain(s.repartition_source_topics.iter().map(|r| r.partitions)).collect();
                    prop_assert!(counts.len() <= 1, "copartition group disagrees: {:?}", counts);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        // Saved failures sit next to this file; the default place (beside a main.rs,
        // which the one test binary has) is a directory nobody reads.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Arbitrary names and patterns never make validation or configuration panic, and a
    /// pattern validation accepts always configures.
    #[test]
    fn arbitrary_names_and_patterns_never_panic(
        names in proptest::collection::vec(".{0,12}", 1..4),
        patterns in proptest::collection::vec(prop_oneof![
            ".{0,16}",
            Just("(?i)A.*".to_owned()),
            Just("\\w+-\\d".to_owned()),
        ], 0..3),
        topics in proptest::collection::vec("[a-z0-9._-]{1,6}", 0..6),
    ) {
        let t = Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                subtopology_id: "0".into(),
                source_topics: names,
                source_topic_regex: patterns,
                ..Default::default()
            }],
        };
        let mut c = Cluster::new(3);
        for name in &topics {
            c.create_topic(name, 2, -1, BTreeMap::new());
        }
        if validate(&t).is_ok() {
            prop_assert!(configure(&t, &c).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        // Saved failures sit next to this file; the default place (beside a main.rs,
        // which the one test binary has) is a directory nobody reads.
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Internal topics created while other statuses hold (their count decided) keep
    /// the right count whatever the missing source topics turn out to be: once every
    /// source topic exists, none of them is INCONSISTENT_INTERNAL_TOPICS. (Without
    /// regexes: a new topic a regex matches changes a configuration anyway.)
    #[test]
    fn decided_internal_topics_stay_right_when_sources_appear(
        t in topology(),
        mut c in cluster(),
        later in proptest::collection::vec(1..5i32, EXTERNAL.len()),
    ) {
        let mut t = t;
        for s in &mut t.subtopologies {
            s.source_topic_regex.clear();
            for g in &mut s.copartition_groups {
                g.source_topic_regex.clear();
            }
        }
        if validate(&t).is_err() {
            return Ok(());
        }
        let conf = configure(&t, &c).unwrap();
        for m in &conf.internal_topics_to_create {
            prop_assert!(c.create_topic(&m.name, m.partitions, -1, BTreeMap::new()).is_ok());
        }
        for (name, n) in EXTERNAL.iter().zip(later) {
            if c.topic(name).is_none() {
                c.create_topic(name, n, -1, BTreeMap::new());
            }
        }
        let after = configure(&t, &c).unwrap();
        if let Some(st) = after.status(StatusCode::INCONSISTENT_INTERNAL_TOPICS) {
            for m in &conf.internal_topics_to_create {
                let named = format!("Existing topic {} has", m.name);
                prop_assert!(!st.detail.contains(&named), "{} was created with a count that changed: {}", m.name, st.detail);
            }
        }
    }
}
