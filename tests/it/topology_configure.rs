//! PROTOCOL.md §5: `configure` against the simulated cluster. One table row per
//! rule, with the exact status code and detail; then the configured values (partition
//! counts, task counts, internal topics to create) of ready and almost-ready topologies.

use crate::topology_support;

use serde_json::json;
use streams_rebalance::cluster::Cluster;
use streams_rebalance::protocol::{ErrorCode, StatusCode};
use streams_rebalance::topology::{configure, ConfiguredTopology};
use topology_support::{cluster, topology};

fn codes(c: &ConfiguredTopology) -> Vec<StatusCode> {
    c.statuses.iter().map(|s| s.code).collect()
}

fn configured(subs: serde_json::Value, c: &Cluster) -> ConfiguredTopology {
    let t = topology(subs);
    streams_rebalance::topology::validate(&t).expect("the test topology is valid");
    configure(&t, c).expect("configures")
}

fn join_topology() -> serde_json::Value {
    // Kafka Streams' stream-table join after a key change: subtopology 0 repartitions
    // `orders`, subtopology 1 joins the repartitioned stream with `customers`.
    json!([
        {"subtopologyId": "0", "sourceTopics": ["orders"], "repartitionSinkTopics": ["app-rekey-repartition"]},
        {"subtopologyId": "1", "sourceTopics": ["customers"],
         "repartitionSourceTopics": [{"name": "app-rekey-repartition"}],
         "stateChangelogTopics": [{"name": "app-customers-store-changelog"}],
         "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
    ])
}

/// (what, subtopologies, cluster topics, every expected status with its detail)
type StatusCase = (
    &'static str,
    serde_json::Value,
    Vec<(&'static str, i32)>,
    Vec<(StatusCode, &'static str)>,
);

#[test]
fn statuses() {
    let cases: Vec<StatusCase> = vec![
        (
            "missing source topics, all listed sorted",
            json!([{"subtopologyId": "0", "sourceTopics": ["zeta", "alpha", "present"]},
                   {"subtopologyId": "1", "sourceTopics": ["beta"]}]),
            vec![("present", 1)],
            vec![(StatusCode::MISSING_SOURCE_TOPICS, "Source topics alpha, beta, zeta are missing.")],
        ),
        (
            "a regex matching nothing",
            json!([{"subtopologyId": "0", "sourceTopicRegex": ["in-.*", "other"]}]),
            vec![("in-1", 1)],
            vec![(StatusCode::MISSING_SOURCE_TOPICS, "Source topic regexes \"other\" match no topic.")],
        ),
        (
            "missing topics and regexes together",
            json!([{"subtopologyId": "0", "sourceTopics": ["b"], "sourceTopicRegex": ["x.*"]}]),
            vec![],
            vec![(StatusCode::MISSING_SOURCE_TOPICS, "Source topics b are missing. Source topic regexes \"x.*\" match no topic.")],
        ),
        (
            "a regex never matches the topology's own internal topics",
            json!([{"subtopologyId": "0", "sourceTopicRegex": ["app-.*"], "stateChangelogTopics": [{"name": "app-store-changelog"}]}]),
            vec![("app-store-changelog", 1)],
            vec![(StatusCode::MISSING_SOURCE_TOPICS, "Source topic regexes \"app-.*\" match no topic.")],
        ),
        (
            "copartitioned external topics that disagree",
            json!([{"subtopologyId": "0", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [1, 0]}]}]),
            vec![("left", 3), ("right", 2)],
            vec![(StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{left=3, right=2}]")],
        ),
        (
            "copartitioned via a regex",
            json!([{"subtopologyId": "0", "sourceTopicRegex": ["in-.*"], "copartitionGroups": [{"sourceTopicRegex": [0]}]}]),
            vec![("in-a", 3), ("in-b", 2), ("in-c", 3)],
            vec![(StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{in-a=3, in-b=2, in-c=3}]")],
        ),
        (
            "copartition groups sharing a repartition topic are merged",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["a"], "repartitionSinkTopics": ["r"],
                 "repartitionSourceTopics": [{"name": "r"}],
                 "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]},
                {"subtopologyId": "1", "sourceTopics": ["c"], "repartitionSourceTopics": [{"name": "r"}],
                 "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
            ]),
            vec![("a", 1), ("c", 2)],
            vec![
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{a=1, c=2}]"),
                (StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: r. Partition counts of r are not known while the source topics they depend on are missing or inconsistent, so they are not created yet."),
            ],
        ),
        (
            "a fixed repartition count against its copartitioned source",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["orders"], "repartitionSinkTopics": ["r"]},
                {"subtopologyId": "1", "sourceTopics": ["customers"], "repartitionSourceTopics": [{"name": "r", "partitions": 5}],
                 "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
            ]),
            vec![("orders", 4), ("customers", 2)],
            vec![
                (StatusCode::INCONSISTENT_INTERNAL_TOPICS, "Number of partitions [5] of repartition topic [r] doesn't match number of partitions [2] of the source topic."),
                (StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: r. Partition counts of r are not known while the source topics they depend on are missing or inconsistent, so they are not created yet."),
            ],
        ),
        (
            "an existing internal topic with another count",
            join_topology(),
            vec![("orders", 4), ("customers", 2), ("app-rekey-repartition", 3), ("app-customers-store-changelog", 5)],
            vec![(StatusCode::INCONSISTENT_INTERNAL_TOPICS, "Existing topic app-customers-store-changelog has different number of partitions: expected 2, found 5. Existing topic app-rekey-repartition has different number of partitions: expected 2, found 3.")],
        ),
        (
            "missing internal topics",
            join_topology(),
            vec![("orders", 4), ("customers", 2)],
            vec![(StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: app-customers-store-changelog, app-rekey-repartition.")],
        ),
        (
            "one internal topic of two missing",
            join_topology(),
            vec![("orders", 4), ("customers", 2), ("app-rekey-repartition", 2)],
            vec![(StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: app-customers-store-changelog.")],
        ),
        (
            "inconsistent source topics and an inconsistent internal topic at once",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}]},
                {"subtopologyId": "1", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "store-changelog"}]}
            ]),
            vec![("left", 3), ("right", 2), ("in", 2), ("store-changelog", 5)],
            vec![
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{left=3, right=2}]"),
                (StatusCode::INCONSISTENT_INTERNAL_TOPICS, "Existing topic store-changelog has different number of partitions: expected 2, found 5."),
            ],
        ),
        (
            "a missing source topic in one subtopology, an inconsistent copartition group in another",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["gone"]},
                {"subtopologyId": "1", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}]}
            ]),
            vec![("left", 1), ("right", 4)],
            vec![
                (StatusCode::MISSING_SOURCE_TOPICS, "Source topics gone are missing."),
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{left=1, right=4}]"),
            ],
        ),
        (
            "external topics that disagree are reported although another of their group is missing",
            json!([{"subtopologyId": "0", "sourceTopics": ["a", "b", "gone"], "copartitionGroups": [{"sourceTopics": [0, 1, 2]}]}]),
            vec![("a", 1), ("b", 2)],
            vec![
                (StatusCode::MISSING_SOURCE_TOPICS, "Source topics gone are missing."),
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{a=1, b=2}]"),
            ],
        ),
        (
            "an inconsistent internal topic and a missing one",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}]},
                {"subtopologyId": "1", "sourceTopics": ["in2"], "stateChangelogTopics": [{"name": "absent-changelog"}]}
            ]),
            vec![("in", 2), ("in2", 3), ("wrong-changelog", 4)],
            vec![
                (StatusCode::INCONSISTENT_INTERNAL_TOPICS, "Existing topic wrong-changelog has different number of partitions: expected 2, found 4."),
                (StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: absent-changelog."),
            ],
        ),
        (
            "internal topics wait while a source is missing: external statuses only",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["gone"], "repartitionSinkTopics": ["r"]},
                {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}], "stateChangelogTopics": [{"name": "r-store-changelog"}]},
                {"subtopologyId": "2", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}],
                 "stateChangelogTopics": [{"name": "join-changelog"}]},
                {"subtopologyId": "3", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}, {"name": "new-changelog"}]}
            ]),
            vec![("left", 1), ("right", 2), ("in", 3), ("wrong-changelog", 1)],
            vec![
                (StatusCode::MISSING_SOURCE_TOPICS, "Source topics gone are missing."),
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{left=1, right=2}]"),
            ],
        ),
        (
            "three at once once the source exists: a repartition topic's count waits for an inconsistent group",
            json!([
                {"subtopologyId": "0", "sourceTopics": ["up"], "repartitionSinkTopics": ["r"]},
                {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}], "stateChangelogTopics": [{"name": "r-store-changelog"}]},
                {"subtopologyId": "2", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}],
                 "stateChangelogTopics": [{"name": "join-changelog"}]},
                {"subtopologyId": "3", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}, {"name": "new-changelog"}]}
            ]),
            vec![("up", 2), ("left", 1), ("right", 2), ("in", 3), ("wrong-changelog", 1)],
            vec![
                (StatusCode::INCONSISTENT_SOURCE_TOPICS, "Following topics do not have the same number of partitions: [{left=1, right=2}]"),
                (StatusCode::INCONSISTENT_INTERNAL_TOPICS, "Existing topic wrong-changelog has different number of partitions: expected 3, found 1."),
                (StatusCode::MISSING_INTERNAL_TOPICS, "Internal topics are missing: join-changelog, new-changelog, r, r-store-changelog. Partition counts of join-changelog are not known while the source topics they depend on are missing or inconsistent, so they are not created yet."),
            ],
        ),
    ];
    for (what, subs, topics, expected) in cases {
        let c = configured(subs, &cluster(&topics));
        let got: Vec<(StatusCode, &str)> = c
            .statuses
            .iter()
            .map(|s| (s.code, s.detail.as_str()))
            .collect();
        assert_eq!(got, expected, "{what}");
        assert!(
            !c.is_ready() && c.subtopologies.is_empty(),
            "{what}: not ready, no subtopologies"
        );
    }
}

#[test]
fn only_internal_topics_with_a_decided_count_are_created_alongside_other_statuses() {
    // The "three at once" row above: r and r-store-changelog (sized by `up`) and
    // new-changelog (subtopology 3, input `in` = 3) are created now; join-changelog
    // (inconsistent copartition group) waits.
    let subs = json!([
        {"subtopologyId": "0", "sourceTopics": ["up"], "repartitionSinkTopics": ["r"]},
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}], "stateChangelogTopics": [{"name": "r-store-changelog"}]},
        {"subtopologyId": "2", "sourceTopics": ["left", "right"], "copartitionGroups": [{"sourceTopics": [0, 1]}],
         "stateChangelogTopics": [{"name": "join-changelog"}]},
        {"subtopologyId": "3", "sourceTopics": ["in"], "stateChangelogTopics": [{"name": "wrong-changelog"}, {"name": "new-changelog"}]}
    ]);
    let topics = [
        ("up", 2),
        ("left", 1),
        ("right", 2),
        ("in", 3),
        ("wrong-changelog", 1),
    ];
    let c = configured(subs.clone(), &cluster(&topics));
    let made: Vec<(&str, i32)> = c
        .internal_topics_to_create
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    assert_eq!(
        made,
        [("new-changelog", 3), ("r", 2), ("r-store-changelog", 2)]
    );
    assert_eq!(c.internal_topics_undecided, ["join-changelog"]);
    assert!(c.subtopologies.is_empty());
    // Without `up`, internal topics wait for it: none is created or reported.
    let c = configured(subs, &cluster(&topics[1..]));
    assert!(c.internal_topics_to_create.is_empty());
    assert!(c.internal_topics_undecided.is_empty());
    let codes: Vec<StatusCode> = c.statuses.iter().map(|s| s.code).collect();
    assert_eq!(
        codes,
        [
            StatusCode::MISSING_SOURCE_TOPICS,
            StatusCode::INCONSISTENT_SOURCE_TOPICS
        ]
    );
}

#[test]
fn ready_join_topology() {
    let c = configured(
        join_topology(),
        &cluster(&[
            ("orders", 4),
            ("customers", 2),
            ("app-rekey-repartition", 2),
            ("app-customers-store-changelog", 2),
        ]),
    );
    assert!(c.is_ready(), "{:?}", c.statuses);
    let s0 = c.subtopology("0").unwrap();
    let s1 = c.subtopology("1").unwrap();
    // Subtopology 0 reads orders (4); subtopology 1 copartitions the repartition topic to customers (2).
    assert_eq!((s0.num_tasks, s0.stateful), (4, false));
    assert_eq!((s1.num_tasks, s1.stateful), (2, true));
    assert_eq!(s1.repartition_source_topics[0].partitions, 2);
    assert_eq!(s1.state_changelog_topics[0].partitions, 2);
    assert!(
        c.has_task("1", 1) && !c.has_task("1", 2) && !c.has_task("1", -1) && !c.has_task("9", 0)
    );
    assert!(c.internal_topics_to_create.is_empty());
}

#[test]
fn internal_topics_to_create_carry_counts_and_configs() {
    let c = configured(
        json!([
            {"subtopologyId": "0", "sourceTopics": ["in"], "repartitionSinkTopics": ["r"]},
            {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r", "replicationFactor": 2,
                "topicConfigs": [{"key": "cleanup.policy", "value": "delete"}]}],
             "stateChangelogTopics": [{"name": "store-changelog", "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}]}]}
        ]),
        &cluster(&[("in", 6)]),
    );
    let made: Vec<(&str, i32, i16, &str)> = c
        .internal_topics_to_create
        .iter()
        .map(|t| {
            (
                t.name.as_str(),
                t.partitions,
                t.replication_factor,
                t.topic_configs[0].value.as_str(),
            )
        })
        .collect();
    assert_eq!(
        made,
        [("r", 6, 2, "delete"), ("store-changelog", 6, 0, "compact")]
    );
}

#[test]
fn changelogs_take_the_max_input_count() {
    // Kafka's ChangelogTopicsTest: a changelog is sized to the subtopology's input; a
    // changelog that is the subtopology's own source topic is not an internal topic.
    let c = configured(
        json!([
            {"subtopologyId": "0", "sourceTopics": ["a", "b"], "stateChangelogTopics": [{"name": "c"}, {"name": "b"}]}
        ]),
        &cluster(&[("a", 3), ("b", 7)]),
    );
    assert_eq!(c.internal_topics_to_create.len(), 1);
    assert_eq!(
        (
            c.internal_topics_to_create[0].name.as_str(),
            c.internal_topics_to_create[0].partitions
        ),
        ("c", 7)
    );
}

#[test]
fn regex_sources_resolve_and_follow_the_cluster() {
    let subs = json!([{"subtopologyId": "0", "sourceTopicRegex": ["in-.*"]}]);
    let mut cl = cluster(&[("in-a", 2), ("in-b", 5), ("other", 9)]);
    let c = configured(subs.clone(), &cl);
    let s = c.subtopology("0").unwrap();
    assert_eq!(s.source_topics, ["in-a", "in-b"]);
    assert_eq!(s.num_tasks, 5);
    cl.create_topic("in-c", 8, -1, Default::default());
    let c = configured(subs, &cl);
    assert_eq!(
        c.subtopology("0").unwrap().source_topics,
        ["in-a", "in-b", "in-c"]
    );
    assert_eq!(c.subtopology("0").unwrap().num_tasks, 8);
}

#[test]
fn repartition_counts_flow_downstream() {
    // in (3) -> r1 -> r2 -> r3: every repartition topic gets 3; the last one is fixed at 5.
    let c = configured(
        json!([
            {"subtopologyId": "a", "sourceTopics": ["in"], "repartitionSinkTopics": ["r1"]},
            {"subtopologyId": "b", "repartitionSourceTopics": [{"name": "r1"}], "repartitionSinkTopics": ["r2"]},
            {"subtopologyId": "c", "repartitionSourceTopics": [{"name": "r2"}, {"name": "r3", "partitions": 5}]}
        ]),
        &cluster(&[("in", 3)]),
    );
    let counts: Vec<(&str, i32)> = c
        .internal_topics_to_create
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    assert_eq!(counts, [("r1", 3), ("r2", 3), ("r3", 5)]);
}

#[test]
fn config_mismatch_is_reported_not_blocking() {
    let mut cl = cluster(&[("in", 2)]);
    let configs = [("cleanup.policy".to_owned(), "delete".to_owned())]
        .into_iter()
        .collect();
    cl.create_topic("store-changelog", 2, 1, configs);
    let c = configured(
        json!([{"subtopologyId": "0", "sourceTopics": ["in"],
                "stateChangelogTopics": [{"name": "store-changelog", "replicationFactor": 3,
                  "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}, {"key": "segment.ms", "value": "1000"}]}]}]),
        &cl,
    );
    assert!(c.is_ready());
    assert_eq!(c.config_mismatches.len(), 1);
    assert_eq!(
        c.config_mismatches[0].detail,
        "Internal topic store-changelog exists with replication factor 1 (the topology asks for 3), cleanup.policy=delete (the topology asks for cleanup.policy=compact), no segment.ms (the topology asks for segment.ms=1000)."
    );
}

#[test]
fn an_invalid_topology_is_an_error_not_a_status() {
    let t = topology(
        json!([{"subtopologyId": "0", "repartitionSourceTopics": [{"name": "r"}], "repartitionSinkTopics": ["r"]}]),
    );
    let e = configure(&t, &cluster(&[])).unwrap_err();
    assert_eq!(e.code, ErrorCode::STREAMS_INVALID_TOPOLOGY);
}

#[test]
fn recovers_when_the_cluster_changes() {
    let subs = json!([{"subtopologyId": "0", "sourceTopics": ["in"]}]);
    let mut cl = cluster(&[]);
    assert_eq!(
        configured(subs.clone(), &cl).statuses[0].code,
        StatusCode::MISSING_SOURCE_TOPICS
    );
    cl.create_topic("in", 2, -1, Default::default());
    assert!(configured(subs.clone(), &cl).is_ready());
    cl.delete_topic("in");
    assert_eq!(
        configured(subs, &cl).statuses[0].code,
        StatusCode::MISSING_SOURCE_TOPICS
    );
}

/// The topology of Kafka's InternalTopicManagerTest: source_topic1 -> repartition_topic
/// (subtopology1, stateful), and repartition_topic copartitioned with source_topic2
/// (subtopology2, stateful).
fn kafka_internal_topic_manager_topology() -> serde_json::Value {
    json!([
        {"subtopologyId": "subtopology1", "sourceTopics": ["source_topic1"],
         "repartitionSinkTopics": ["repartition_topic"],
         "stateChangelogTopics": [{"name": "state_changelog_topic1",
            "topicConfigs": [{"key": "cleanup.policy", "value": "compact"}]}]},
        {"subtopologyId": "subtopology2", "sourceTopics": ["source_topic2"],
         "repartitionSourceTopics": [{"name": "repartition_topic", "replicationFactor": 3}],
         "stateChangelogTopics": [{"name": "state_changelog_topic2"}],
         "copartitionGroups": [{"sourceTopics": [0], "repartitionSourceTopics": [0]}]}
    ])
}

#[test]
fn kafka_internal_topic_manager_missing_source_topic() {
    let c = configured(
        kafka_internal_topic_manager_topology(),
        &cluster(&[("source_topic1", 2)]),
    );
    // As Kafka's testConfigureTopicsSetsConfigurationExceptionWhenSourceTopicIsMissing:
    // MISSING_SOURCE_TOPICS only; no internal topic is created or reported, not even
    // subtopology1's changelog, whose count source_topic1 alone decides.
    let got: Vec<(StatusCode, &str)> = c
        .statuses
        .iter()
        .map(|s| (s.code, s.detail.as_str()))
        .collect();
    assert_eq!(
        got,
        [(
            StatusCode::MISSING_SOURCE_TOPICS,
            "Source topics source_topic2 are missing."
        )]
    );
    assert!(c.internal_topics_to_create.is_empty());
    assert!(c.internal_topics_undecided.is_empty());
    assert!(c.subtopologies.is_empty());
}

/// (name, partitions, replication factor, configs)
type TopicToCreate<'a> = (&'a str, i32, i16, Vec<(&'a str, &'a str)>);

#[test]
fn kafka_internal_topic_manager_missing_internal_topics() {
    let c = configured(
        kafka_internal_topic_manager_topology(),
        &cluster(&[
            ("source_topic1", 2),
            ("source_topic2", 2),
            ("state_changelog_topic2", 2),
        ]),
    );
    assert_eq!(
        codes(&c),
        [StatusCode::MISSING_INTERNAL_TOPICS],
        "{:?}",
        c.statuses
    );
    assert!(c.subtopologies.is_empty());
    let made: Vec<TopicToCreate> = c
        .internal_topics_to_create
        .iter()
        .map(|t| {
            let configs = t
                .topic_configs
                .iter()
                .map(|kv| (kv.key.as_str(), kv.value.as_str()))
                .collect();
            (t.name.as_str(), t.partitions, t.replication_factor, configs)
        })
        .collect();
    assert_eq!(
        made,
        [
            ("repartition_topic", 2, 3, vec![]),
            (
                "state_changelog_topic1",
                2,
                0,
                vec![("cleanup.policy", "compact")]
            ),
        ]
    );
}

#[test]
fn kafka_internal_topic_manager_all_topics_exist() {
    let c = configured(
        kafka_internal_topic_manager_topology(),
        &cluster(&[
            ("source_topic1", 2),
            ("source_topic2", 2),
            ("state_changelog_topic1", 2),
            ("state_changelog_topic2", 2),
            ("repartition_topic", 2),
        ]),
    );
    assert!(c.is_ready() && c.internal_topics_to_create.is_empty());
    let tasks: Vec<(&str, u32)> = c
        .subtopologies
        .iter()
        .map(|s| (s.id.as_str(), s.num_tasks))
        .collect();
    assert_eq!(tasks, [("subtopology1", 2), ("subtopology2", 2)]);
}
