//! Test helpers: topologies, requests, and a simulated client that adopts what it is
//! given at once and reports it back (an ideal Kafka Streams member).

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;

pub fn subtopology(id: &str, source: &str) -> Subtopology {
    Subtopology {
        subtopology_id: id.into(),
        source_topics: vec![source.into()],
        ..Default::default()
    }
}

/// One subtopology "0" reading `source`.
pub fn topology(epoch: i32, source: &str) -> Topology {
    Topology {
        epoch,
        subtopologies: vec![subtopology("0", source)],
    }
}

/// `topology(0, "input")` made stateful: its store's changelog `app-store-changelog`.
pub fn stateful_topology() -> Topology {
    let mut t = topology(0, "input");
    t.subtopologies[0].state_changelog_topics.push(TopicInfo {
        name: "app-store-changelog".into(),
        partitions: 0,
        replication_factor: 0,
        topic_configs: vec![],
    });
    t
}

pub fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// A coordinator rebuilt with `config` from `c`'s records, read back from their JSON.
pub fn rebuild(c: &Coordinator, config: CoordinatorConfig) -> Coordinator {
    let records: Vec<Record> = decode_str(&json(&c.records()), "records").unwrap();
    Coordinator::from_records(config, records).unwrap()
}

pub fn coordinator_with_topic(
    config: CoordinatorConfig,
    topic: &str,
    partitions: i32,
) -> Coordinator {
    let mut c = Coordinator::new(config);
    c.create_topics(&[(topic.to_owned(), partitions)]);
    c
}

pub fn ctx() -> RequestContext {
    RequestContext::default()
}

pub fn join_request(
    group: &str,
    member_id: &str,
    topology: Topology,
) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: group.into(),
        member_id: member_id.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        topology: Some(topology),
        active_tasks: Some(vec![].into()),
        standby_tasks: Some(vec![].into()),
        warmup_tasks: Some(vec![].into()),
        ..Default::default()
    }
}

pub fn ids(s: &str, ps: &[i32]) -> TaskIds {
    TaskIds {
        subtopology_id: s.into(),
        partitions: ps.to_vec(),
    }
}

pub fn partitions(list: &Option<Vec<TaskIds>>) -> Vec<i32> {
    list.iter()
        .flatten()
        .flat_map(|t| t.partitions.iter().copied())
        .collect()
}

/// A client that adopts what it is given at once and reports it.
#[derive(Debug, Clone)]
pub struct Client {
    pub group: String,
    pub member_id: String,
    pub epoch: i32,
    pub instance_id: Option<String>,
    pub process_id: Option<String>,
    pub topology: Topology,
    pub active: Vec<TaskIds>,
    pub standby: Vec<TaskIds>,
    pub warmup: Vec<TaskIds>,
    pub last: Option<StreamsGroupHeartbeatResponse>,
}

impl Client {
    pub fn new(group: &str, member_id: &str, topology: Topology) -> Self {
        Client {
            group: group.into(),
            member_id: member_id.into(),
            epoch: 0,
            instance_id: None,
            process_id: None,
            topology,
            active: vec![],
            standby: vec![],
            warmup: vec![],
            last: None,
        }
    }

    pub fn request(&self) -> StreamsGroupHeartbeatRequest {
        let mut r = if self.epoch == 0 {
            join_request(&self.group, &self.member_id, self.topology.clone())
        } else {
            StreamsGroupHeartbeatRequest {
                group_id: self.group.clone(),
                member_id: self.member_id.clone(),
                member_epoch: self.epoch,
                active_tasks: Some(self.active.clone().into()),
                standby_tasks: Some(self.standby.clone().into()),
                warmup_tasks: Some(self.warmup.clone().into()),
                ..Default::default()
            }
        };
        r.instance_id = self.instance_id.clone();
        r.process_id = self.process_id.clone();
        r
    }

    pub fn absorb(&mut self, r: &StreamsGroupHeartbeatResponse) {
        if r.error_code == 0 {
            if let Some(id) = &r.member_id {
                self.member_id = id.clone();
            }
            self.epoch = r.member_epoch;
            if let Some(a) = &r.active_tasks {
                self.active = a.clone();
            }
            if let Some(s) = &r.standby_tasks {
                self.standby = s.clone();
            }
            if let Some(w) = &r.warmup_tasks {
                self.warmup = w.clone();
            }
        }
        self.last = Some(r.clone());
    }

    pub fn heartbeat(&mut self, c: &mut Coordinator) -> StreamsGroupHeartbeatResponse {
        let r = c.heartbeat(&self.request(), &ctx());
        self.absorb(&r);
        r
    }

    pub fn leave(&mut self, c: &mut Coordinator) -> StreamsGroupHeartbeatResponse {
        let mut req = self.request();
        req.member_epoch = -1;
        req.topology = None;
        let r = c.heartbeat(&req, &ctx());
        self.epoch = 0;
        self.active.clear();
        self.standby.clear();
        self.warmup.clear();
        r
    }

    pub fn active_partitions(&self) -> Vec<i32> {
        let mut v: Vec<i32> = self
            .active
            .iter()
            .flat_map(|t| t.partitions.iter().copied())
            .collect();
        v.sort();
        v
    }
}

/// No task is active at two clients at once.
pub fn assert_exclusive(clients: &[&Client]) {
    let mut seen: BTreeMap<(String, i32), String> = BTreeMap::new();
    for c in clients {
        for t in &c.active {
            for p in &t.partitions {
                if let Some(other) =
                    seen.insert((t.subtopology_id.clone(), *p), c.member_id.clone())
                {
                    panic!(
                        "task {}_{} owned by {} and {}",
                        t.subtopology_id, p, other, c.member_id
                    );
                }
            }
        }
    }
}

/// Heartbeats every client round-robin until the group is Stable (or `max` rounds),
/// checking exclusivity after every heartbeat.
pub fn converge(c: &mut Coordinator, clients: &mut [&mut Client], max: usize) {
    for _ in 0..max {
        for i in 0..clients.len() {
            let r = clients[i].heartbeat(c);
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            let view: Vec<&Client> = clients.iter().map(|c| &**c).collect();
            assert_exclusive(&view);
        }
        let group = clients[0].group.clone();
        let d = c.describe(&[group], &ctx());
        if d.groups[0].group_state == "Stable" {
            return;
        }
    }
    panic!("group did not converge");
}

pub fn all_partitions(clients: &[&Client]) -> BTreeSet<i32> {
    clients.iter().flat_map(|c| c.active_partitions()).collect()
}
