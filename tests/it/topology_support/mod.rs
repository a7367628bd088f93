//! Helpers shared by the topology tests: topologies and clusters written compactly.

use serde_json::{json, Value};
use streams_rebalance::cluster::Cluster;
use streams_rebalance::protocol::json::decode;
use streams_rebalance::protocol::Topology;

/// A topology from JSON subtopologies (missing lists default to []).
pub fn topology(subtopologies: Value) -> Topology {
    decode(
        &json!({ "epoch": 0, "subtopologies": subtopologies }),
        "topology",
    )
    .unwrap()
}

/// A cluster holding `topics` as (name, partitions).
pub fn cluster(topics: &[(&str, i32)]) -> Cluster {
    let mut c = Cluster::new(3);
    for (name, p) in topics {
        let r = c.create_topic(name, *p, -1, Default::default());
        assert!(r.is_ok(), "{r:?}");
    }
    c
}
