//! PROTOCOL.md §2: every topology invariant whose breach is STREAMS_INVALID_TOPOLOGY,
//! with its message; and topologies that hold them all pass.

use crate::topology_support;

use serde_json::json;
use streams_rebalance::protocol::ErrorCode;
use streams_rebalance::topology::validate;
use topology_support::topology;

#[test]
fn invalid_topologies() {
    let long = "x".repeat(250);
    let cases = vec![
        (json!([]), "The topology has no subtopologies.".to_owned()),
        (
            json!([{"subtopologyId": "", "sourceTopics": ["a"]}]),
            "A subtopology id is empty.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"]}, {"subtopologyId": "1", "sourceTopics": ["b"]}]),
            "Subtopology id 1 appears twice.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "repartitionSinkTopics": ["r"]}]),
            "Subtopology 1 reads nothing: it has no source topics, source topic regexes or repartition source topics.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"], "stateChangelogTopics": [{"name": "c", "partitions": 4}]}]),
            "Changelog topic c of subtopology 1 must have partitions 0 (its count is derived), but has 4.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a", "b"], "copartitionGroups": [{"sourceTopics": [0, 2]}]}]),
            "Copartition group 0 of subtopology 1 refers to sourceTopics index 2, but the subtopology has 2 sourceTopics.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"], "copartitionGroups": [{}, {"repartitionSourceTopics": [-1]}]}]),
            "Copartition group 1 of subtopology 1 refers to repartitionSourceTopics index -1, but the subtopology has 0 repartitionSourceTopics.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopicRegex": ["a.*"], "copartitionGroups": [{"sourceTopicRegex": [1]}]}]),
            "Copartition group 0 of subtopology 1 refers to sourceTopicRegex index 1, but the subtopology has 1 sourceTopicRegex.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}]}]),
            "Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic. Topics: r.".to_owned(),
        ),
        (
            json!([
                {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r1"}], "repartitionSinkTopics": ["r2"]},
                {"subtopologyId": "2", "repartitionSourceTopics": [{"name": "r2"}], "repartitionSinkTopics": ["r1"]}
            ]),
            "Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved. Topics without a partition count: r1, r2.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a b"]}]),
            "Topic names a b are not valid topic names.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"], "repartitionSinkTopics": [".."]}]),
            "Topic names .. are not valid topic names.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"], "stateChangelogTopics": [{"name": ""}]}]),
            "Topic names  are not valid topic names.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": [long]}]),
            format!("Topic names {long} are not valid topic names."),
        ),
        // Kafka's KafkaApisTest: every invalid name of the topology, in its order, at once.
        (
            json!([{"subtopologyId": "subtopology", "sourceTopics": ["a "], "repartitionSinkTopics": ["b?"],
                    "repartitionSourceTopics": [{"name": "c!"}], "stateChangelogTopics": [{"name": "d/"}]}]),
            "Topic names a ,b?,c!,d/ are not valid topic names.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["ok", "a:b"], "repartitionSinkTopics": ["r"]},
                   {"subtopologyId": "2", "repartitionSourceTopics": [{"name": "r"}], "sourceTopics": ["a:b", "x y"]}]),
            "Topic names a:b,x y are not valid topic names.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": [format!("{long}{long}")]}]),
            format!("Topic names {}... are not valid topic names.", "x".repeat(255)),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["__transaction_state", "__consumer_offsets"]}]),
            "Use of Kafka internal topics __consumer_offsets, __transaction_state in a Kafka Streams topology is prohibited.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopics": ["a"], "repartitionSinkTopics": ["__share_group_state"]}]),
            "Use of Kafka internal topics __share_group_state in a Kafka Streams topology is prohibited.".to_owned(),
        ),
        (
            json!([{"subtopologyId": "1", "sourceTopicRegex": ["(?<=x)y"]}]),
            "Source topic regex \"(?<=x)y\" of subtopology 1 does not compile: look-around is not supported".to_owned(),
        ),
        (
            json!([
                {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r", "partitions": 2}]},
                {"subtopologyId": "2", "repartitionSourceTopics": [{"name": "r", "partitions": 4}]}
            ]),
            "Repartition topic r has conflicting fixed partition counts 2 and 4.".to_owned(),
        ),
    ];
    for (subs, expected) in cases {
        let t = topology(subs.clone());
        let e = validate(&t).expect_err(&subs.to_string());
        assert_eq!(e.code, ErrorCode::STREAMS_INVALID_TOPOLOGY, "{subs}");
        assert_eq!(e.message, expected, "{subs}");
    }
}

#[test]
fn valid_topologies() {
    let cases = vec![
        json!([{"subtopologyId": "0", "sourceTopics": ["in"]}]),
        json!([{"subtopologyId": "0", "sourceTopicRegex": ["in-.*"]}]),
        json!([
            {"subtopologyId": "0", "sourceTopics": ["in"], "repartitionSinkTopics": ["r"]},
            {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r"}],
             "stateChangelogTopics": [{"name": "c", "partitions": 0}]}
        ]),
        // A fixed count needs no writer.
        json!([{"subtopologyId": "0", "repartitionSourceTopics": [{"name": "r", "partitions": 3}]}]),
        // A loop fed from an external topic resolves.
        json!([
            {"subtopologyId": "0", "sourceTopics": ["in"], "repartitionSourceTopics": [{"name": "r2"}], "repartitionSinkTopics": ["r1"]},
            {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "r1"}], "repartitionSinkTopics": ["r2"]}
        ]),
        json!([{"subtopologyId": "0", "sourceTopics": ["a", "b"], "sourceTopicRegex": ["c.*"],
                "copartitionGroups": [{"sourceTopics": [0, 1], "sourceTopicRegex": [0]}]}]),
    ];
    for subs in cases {
        assert_eq!(validate(&topology(subs.clone())), Ok(()), "{subs}");
    }
}
