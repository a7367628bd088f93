//! StreamsGroupDescribe's topology: configured (partition counts filled in, regexes
//! resolved) when the group is ready, the raw one otherwise; sorted either way.

use crate::topology_support;

use serde_json::json;
use streams_rebalance::topology::{configure, described_topology};
use topology_support::{cluster, topology};

fn subs() -> serde_json::Value {
    json!([
        {"subtopologyId": "1", "repartitionSourceTopics": [{"name": "app-r"}],
         "stateChangelogTopics": [{"name": "app-store-changelog"}]},
        {"subtopologyId": "0", "sourceTopics": ["orders"], "sourceTopicRegex": ["in-.*"],
         "repartitionSinkTopics": ["app-r"]}
    ])
}

#[test]
fn raw_while_not_ready() {
    let t = topology(subs());
    let c = configure(&t, &cluster(&[("orders", 2)])).unwrap();
    assert!(!c.is_ready());
    let d = serde_json::to_value(described_topology(&t, Some(&c))).unwrap();
    assert_eq!(
        d,
        json!({"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["orders"], "sourceTopicRegex": ["in-.*"],
             "repartitionSinkTopics": ["app-r"], "stateChangelogTopics": [], "repartitionSourceTopics": []},
            {"subtopologyId": "1", "sourceTopics": [], "sourceTopicRegex": [], "repartitionSinkTopics": [],
             "stateChangelogTopics": [{"name": "app-store-changelog", "partitions": 0, "replicationFactor": 0, "topicConfigs": []}],
             "repartitionSourceTopics": [{"name": "app-r", "partitions": 0, "replicationFactor": 0, "topicConfigs": []}]}
        ]})
    );
    assert_eq!(
        described_topology(&t, None),
        described_topology(&t, Some(&c))
    );
}

#[test]
fn resolved_when_ready() {
    let t = topology(subs());
    let cl = cluster(&[
        ("orders", 2),
        ("in-b", 6),
        ("in-a", 1),
        ("app-r", 6),
        ("app-store-changelog", 6),
    ]);
    let c = configure(&t, &cl).unwrap();
    assert!(c.is_ready(), "{:?}", c.statuses);
    let d = serde_json::to_value(described_topology(&t, Some(&c))).unwrap();
    assert_eq!(
        d,
        json!({"epoch": 0, "subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["in-a", "in-b", "orders"], "sourceTopicRegex": [],
             "repartitionSinkTopics": ["app-r"], "stateChangelogTopics": [], "repartitionSourceTopics": []},
            {"subtopologyId": "1", "sourceTopics": [], "sourceTopicRegex": [], "repartitionSinkTopics": [],
             "stateChangelogTopics": [{"name": "app-store-changelog", "partitions": 6, "replicationFactor": 0, "topicConfigs": []}],
             "repartitionSourceTopics": [{"name": "app-r", "partitions": 6, "replicationFactor": 0, "topicConfigs": []}]}
        ]})
    );
}
