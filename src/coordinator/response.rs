//! What a heartbeat response carries besides epochs: the statuses that hold (PROTOCOL.md §1.3,
//! in code order) and the IQ `partitionsByUserEndpoint`.

use super::group::StreamsGroup;
use super::member::StreamsMember;
use super::replay::fnv64;
use crate::cluster::Cluster;
use crate::protocol::{EndpointToPartitions, Status, StatusCode, TopicPartitions};
use std::collections::BTreeMap;
use std::sync::Arc;

fn status(code: StatusCode, detail: String) -> Status {
    Status {
        status_code: code.code(),
        status_detail: detail,
    }
}

/// Every status that holds for this member, in code order. `may_create` says whether
/// the requester may create the missing internal topics (for the detail); `delayed`,
/// why the assignment is delayed, if it is.
pub fn statuses(
    g: &StreamsGroup,
    m: &StreamsMember,
    may_create: bool,
    delayed: Option<String>,
) -> Vec<Status> {
    let mut out = Vec::new();
    if let Some(eg) = g.topology_epoch() {
        if m.meta.topology_epoch < eg {
            out.push(status(
                StatusCode::STALE_TOPOLOGY,
                format!(
                    "The member's topology epoch {} is behind the group's topology epoch {eg}.",
                    m.meta.topology_epoch
                ),
            ));
        }
    }
    if let Some(Ok(cfg)) = &g.configured {
        for st in &cfg.statuses {
            let detail = if st.code == StatusCode::MISSING_INTERNAL_TOPICS {
                g.creation.status_detail(cfg, may_create)
            } else {
                st.detail.clone()
            };
            out.push(status(st.code, detail));
        }
    }
    if let Some(r) = &g.shutdown_requester {
        out.push(status(
            StatusCode::SHUTDOWN_APPLICATION,
            format!(
                "Streams group member {r} encountered a fatal error and requested a shutdown for the entire application."
            ),
        ));
    }
    if let Some(detail) = delayed {
        out.push(status(StatusCode::ASSIGNMENT_DELAYED, detail));
    }
    out
}

/// One entry per member with an endpoint (sorted by member id): the source and
/// repartition-source topic partitions of its active tasks (partition p of a task
/// only for topics that have more than p partitions).
pub fn endpoints(g: &StreamsGroup, cluster: &Cluster) -> Vec<EndpointToPartitions> {
    let mut out = Vec::new();
    for m in g.members.values() {
        let Some(ep) = &m.meta.user_endpoint else {
            continue;
        };
        let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
        if let Some(Ok(cfg)) = &g.configured {
            for (s, p) in m.current.assigned.active.iter() {
                let Some(sub) = cfg.subtopology(s) else {
                    continue;
                };
                let sources = sub.source_topics.iter().map(|t| t.as_str());
                let repartition = sub
                    .repartition_source_topics
                    .iter()
                    .map(|t| t.name.as_str());
                for topic in sources.chain(repartition) {
                    let parts = partitions_of(cluster, topic, sub);
                    if p < parts {
                        by_topic.entry(topic).or_default().push(p);
                    }
                }
            }
        }
        out.push(EndpointToPartitions {
            user_endpoint: ep.clone(),
            partitions: by_topic
                .into_iter()
                .map(|(t, mut ps)| {
                    ps.sort_unstable();
                    ps.dedup();
                    TopicPartitions {
                        topic: t.to_owned(),
                        partitions: ps,
                    }
                })
                .collect(),
        });
    }
    out
}

/// The partition count of a topic a subtopology reads: the cluster's, else the
/// configured one (repartition topics), else the subtopology's task count.
fn partitions_of(
    cluster: &Cluster,
    topic: &str,
    sub: &crate::topology::ConfiguredSubtopology,
) -> i32 {
    if let Some(t) = cluster.topic(topic) {
        return t.num_partitions;
    }
    sub.repartition_source_topics
        .iter()
        .find(|t| t.name == topic)
        .map(|t| t.partitions)
        .unwrap_or(sub.num_tasks as i32)
}

/// The group's current endpoint information and its hash, cached per version.
pub fn cached_endpoints(
    g: &mut StreamsGroup,
    cluster: &Cluster,
) -> (Arc<Vec<EndpointToPartitions>>, u64) {
    if let Some((v, e, h)) = &g.endpoints_cache {
        if *v == g.endpoints_version {
            return (e.clone(), *h);
        }
    }
    let e = Arc::new(endpoints(g, cluster));
    let h = fnv64(serde_json::to_string(&*e).unwrap_or_default().as_bytes());
    g.endpoints_cache = Some((g.endpoints_version, e.clone(), h));
    (e, h)
}
