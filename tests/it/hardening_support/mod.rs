//! Random histories for the hardening property tests: simulated clients (one slot per
//! stream thread, two slots per process) that join, heartbeat, lose responses, send
//! stale owned lists, leave, crash, restart static or dynamic and get redeployed; the
//! cluster's topics come and go; time moves. A `World` runs the operations against a
//! coordinator and checks the invariants after every step.

use proptest::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::group_settings::GroupConfigChange;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants::{self, Violation};
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;

pub const GROUP: &str = "app";
pub const SLOTS: usize = 6;
pub const SOURCE_A: &str = "in-a";
pub const SOURCE_B: &str = "in-b";
pub const CHANGELOG: &str = "app-store-changelog";
pub const REPARTITION: &str = "app-by-key-repartition";

/// The application's topology at `epoch`: odd epochs add a second, stateless
/// subtopology reading `in-b` through a repartition topic (a redeploy that changes
/// the task set).
pub fn topology(epoch: i32) -> Topology {
    let mut subs = vec![Subtopology {
        subtopology_id: "0".into(),
        source_topics: vec![SOURCE_A.into()],
        state_changelog_topics: vec![TopicInfo {
            name: CHANGELOG.into(),
            partitions: 0,
            replication_factor: 0,
            topic_configs: vec![],
        }],
        ..Default::default()
    }];
    if epoch % 2 == 1 {
        subs.push(Subtopology {
            subtopology_id: "1".into(),
            source_topics: vec![SOURCE_B.into()],
            repartition_sink_topics: vec![REPARTITION.into()],
            ..Default::default()
        });
        subs.push(Subtopology {
            subtopology_id: "2".into(),
            repartition_source_topics: vec![TopicInfo {
                name: REPARTITION.into(),
                partitions: 0,
                replication_factor: 0,
                topic_configs: vec![],
            }],
            ..Default::default()
        });
    }
    Topology {
        epoch,
        subtopologies: subs,
    }
}

/// How a bad topology request is wrong.
#[derive(Debug, Clone, Copy)]
pub enum BadTopology {
    /// Epoch two ahead of the group's.
    Skip,
    /// The group's epoch with other content.
    SameEpochOtherContent,
    /// Behind the group's epoch.
    Behind,
    /// No subtopology at all (STREAMS_INVALID_TOPOLOGY).
    Empty,
}

#[derive(Debug, Clone)]
pub enum Op {
    /// Start the client of a slot (static with an instance id, or dynamic).
    Start {
        slot: usize,
        static_member: bool,
    },
    Heartbeat {
        slot: usize,
    },
    /// The request reaches the coordinator, the response is lost.
    LoseResponse {
        slot: usize,
    },
    /// A heartbeat listing an owned set from some responses ago.
    StaleOwned {
        slot: usize,
        back: usize,
    },
    /// Leave cleanly (-1, or -2 for a static member).
    Leave {
        slot: usize,
    },
    /// Vanish without a word (the session timeout removes it).
    Crash {
        slot: usize,
    },
    /// Redeploy one client with the next topology epoch (leave, rejoin at epoch+1).
    Redeploy {
        slot: usize,
    },
    /// A join with a topology the group must refuse.
    BadJoin {
        kind: BadTopology,
    },
    /// Report changelog offsets with this lag (drives warm-ups).
    Offsets {
        slot: usize,
        lag: i64,
    },
    CreateTopic {
        which: usize,
        partitions: i32,
    },
    DeleteTopic {
        which: usize,
    },
    AddPartitions {
        which: usize,
        extra: i32,
    },
    Advance {
        ms: i64,
    },
    /// Set or reset one of the group's own configs (`group_change`).
    GroupConfig {
        which: usize,
    },
    /// DeleteGroups on the group: NON_EMPTY_GROUP unless it has no members.
    DeleteGroup,
}

/// The per-group config changes a history draws from.
pub fn group_change(which: usize) -> GroupConfigChange {
    let mut c = GroupConfigChange::default();
    match which {
        0 => c.num_standby_replicas = Some(Some(1)),
        1 => c.num_standby_replicas = Some(None),
        2 => c.session_timeout_ms = Some(Some(50_000)),
        3 => c.assignor = Some(Some("sticky".into())),
        4 => c.acceptable_recovery_lag = Some(Some(0)),
        5 => c.initial_rebalance_delay_ms = Some(Some(3_000)),
        _ => {
            c.num_standby_replicas = Some(None);
            c.session_timeout_ms = Some(None);
            c.assignor = Some(None);
            c.acceptable_recovery_lag = Some(None);
            c.initial_rebalance_delay_ms = Some(None);
        }
    }
    c
}

pub const TOPICS: [&str; 4] = [SOURCE_A, SOURCE_B, CHANGELOG, REPARTITION];

pub fn op() -> impl Strategy<Value = Op> {
    let slot = 0..SLOTS;
    prop_oneof![
        3 => (slot.clone(), any::<bool>()).prop_map(|(slot, s)| Op::Start { slot, static_member: s }),
        8 => slot.clone().prop_map(|slot| Op::Heartbeat { slot }),
        2 => slot.clone().prop_map(|slot| Op::LoseResponse { slot }),
        1 => (slot.clone(), 1..4usize).prop_map(|(slot, back)| Op::StaleOwned { slot, back }),
        1 => slot.clone().prop_map(|slot| Op::Leave { slot }),
        1 => slot.clone().prop_map(|slot| Op::Crash { slot }),
        1 => slot.clone().prop_map(|slot| Op::Redeploy { slot }),
        1 => prop_oneof![
            Just(BadTopology::Skip),
            Just(BadTopology::SameEpochOtherContent),
            Just(BadTopology::Behind),
            Just(BadTopology::Empty)
        ]
        .prop_map(|kind| Op::BadJoin { kind }),
        1 => (slot.clone(), prop_oneof![Just(0i64), Just(50), Just(5000)])
            .prop_map(|(slot, lag)| Op::Offsets { slot, lag }),
        1 => (0..4usize, 1..5i32).prop_map(|(which, partitions)| Op::CreateTopic { which, partitions }),
        1 => (0..4usize).prop_map(|which| Op::DeleteTopic { which }),
        1 => (0..4usize, 1..3i32).prop_map(|(which, extra)| Op::AddPartitions { which, extra }),
        2 => prop_oneof![Just(100i64), Just(5_000), Just(31_000), Just(46_000)]
            .prop_map(|ms| Op::Advance { ms }),
        1 => (0..7usize).prop_map(|which| Op::GroupConfig { which }),
        1 => Just(Op::DeleteGroup),
    ]
}

pub fn config(assignor: &str, standbys: u32) -> CoordinatorConfig {
    CoordinatorConfig {
        assignor: assignor.into(),
        num_standby_replicas: standbys,
        acceptable_recovery_lag: 100,
        seed: 7,
        ..Default::default()
    }
}

pub type Lists = (Vec<TaskIds>, Vec<TaskIds>, Vec<TaskIds>);

/// One simulated stream thread.
#[derive(Debug, Clone)]
pub struct Client {
    pub member_id: String,
    pub epoch: i32,
    pub instance_id: Option<String>,
    pub process_id: String,
    pub topology_epoch: i32,
    pub owned: Lists,
    /// Owned sets it reported before (newest last), for stale-list heartbeats.
    pub history: Vec<Lists>,
    pub lag: Option<i64>,
}

impl Client {
    pub fn request(&self, owned: &Lists) -> StreamsGroupHeartbeatRequest {
        let joining = self.epoch == 0;
        let mut r = StreamsGroupHeartbeatRequest {
            group_id: GROUP.into(),
            member_id: self.member_id.clone(),
            member_epoch: self.epoch,
            instance_id: self.instance_id.clone(),
            rebalance_timeout_ms: if joining { 30_000 } else { -1 },
            topology: joining.then(|| topology(self.topology_epoch)),
            process_id: Some(self.process_id.clone()),
            ..Default::default()
        };
        if joining {
            r.active_tasks = Some(vec![].into());
            r.standby_tasks = Some(vec![].into());
            r.warmup_tasks = Some(vec![].into());
        } else {
            r.active_tasks = Some(owned.0.clone().into());
            r.standby_tasks = Some(owned.1.clone().into());
            r.warmup_tasks = Some(owned.2.clone().into());
        }
        if let Some(lag) = self.lag.filter(|_| !joining) {
            let all = owned.0.iter().chain(&owned.1).chain(&owned.2);
            let offsets: Vec<TaskOffset> = all
                .flat_map(|t| {
                    t.partitions.iter().map(|p| TaskOffset {
                        subtopology_id: t.subtopology_id.clone(),
                        partition: *p,
                        offset: (1000 - lag).max(0),
                    })
                })
                .collect();
            let ends: Vec<TaskOffset> = owned
                .0
                .iter()
                .flat_map(|t| {
                    t.partitions.iter().map(|p| TaskOffset {
                        subtopology_id: t.subtopology_id.clone(),
                        partition: *p,
                        offset: 1000,
                    })
                })
                .collect();
            r.task_offsets = Some(dedup(offsets));
            r.task_end_offsets = Some(dedup(ends));
        }
        r
    }

    fn absorb(&mut self, r: &StreamsGroupHeartbeatResponse) -> bool {
        match r.error_code {
            0 => {
                if let Some(id) = &r.member_id {
                    self.member_id = id.clone();
                }
                self.epoch = r.member_epoch;
                if let (Some(a), Some(s), Some(w)) =
                    (&r.active_tasks, &r.standby_tasks, &r.warmup_tasks)
                {
                    let next = (a.clone(), s.clone(), w.clone());
                    if next != self.owned {
                        self.history.push(std::mem::replace(&mut self.owned, next));
                        if self.history.len() > 4 {
                            self.history.remove(0);
                        }
                    }
                }
                true
            }
            // Fenced or forgotten: rejoin (same member id, epoch 0, nothing owned).
            110 | 25 => {
                self.epoch = 0;
                self.owned = Default::default();
                true
            }
            // A static instance still held by a member not yet gone, or no room in the
            // memory budget (a budgeted history): retry later.
            111 | 81 => true,
            // The group was deleted (it had no members): join it afresh.
            69 => {
                self.epoch = 0;
                self.owned = Default::default();
                true
            }
            // The group refuses this client (e.g. its topology is fenced): it stops.
            _ => false,
        }
    }
}

fn dedup(list: Vec<TaskOffset>) -> Vec<TaskOffset> {
    let mut seen = BTreeMap::new();
    for o in list {
        seen.insert((o.subtopology_id.clone(), o.partition), o);
    }
    seen.into_values().collect()
}

pub fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("serializable")
}

/// A coordinator, optionally its fail-over twin, the clients, and the checker's memory.
pub struct World {
    pub config: CoordinatorConfig,
    pub a: Coordinator,
    /// Rebuilt from `a.records()` at `failover_at`; from then on gets every request too.
    pub b: Option<Coordinator>,
    pub failover_at: Option<usize>,
    pub clients: Vec<Option<Client>>,
    /// Topology epoch of the application's latest deployment.
    pub deployed: i32,
    pub now: i64,
    pub step: usize,
    pub prev: streams_rebalance::coordinator::snapshot::Snapshot,
    pub log: Vec<String>,
    pub mode: Mode,
}

/// Variations of a history (issue 16).
#[derive(Debug, Clone, Default)]
pub struct Mode {
    /// Time moves only through the requests' `nowMs` (API.md allows it): `Advance`
    /// moves no clock itself, and `advanceTime` is called only once, at the end.
    pub time_by_now_ms: bool,
    /// Instance and process ids near the string limit (30 000 bytes).
    pub huge_ids: bool,
    /// Before the fail-over, every client heartbeats this many rounds (with time
    /// passing), so that the log has been compacted when the twin is rebuilt.
    pub churn_before_failover: usize,
    /// A memory budget (`maxStateBytes`) near what the history's records take, so
    /// that joins are refused and targets held on the way; the group then need not
    /// settle, but every step keeps the invariants and the twin answers alike.
    pub budget: Option<i64>,
    /// Counts of what the budget did: targets held (ASSIGNMENT_DELAYED for the
    /// budget), requests refused (GROUP_MAX_SIZE_REACHED).
    pub held: std::rc::Rc<std::cell::Cell<(usize, usize)>>,
}

/// An id of about 30 000 bytes ending in `tail`, when `huge`.
fn id(huge: bool, tail: String) -> String {
    if huge {
        format!("{}{tail}", "x".repeat(30_000))
    } else {
        tail
    }
}

impl World {
    pub fn with_mode(config: CoordinatorConfig, failover_at: Option<usize>, mode: Mode) -> World {
        let config = CoordinatorConfig {
            max_state_bytes: mode.budget.unwrap_or(config.max_state_bytes),
            ..config
        };
        let mut a = Coordinator::new(config.clone());
        a.create_topics(&[(SOURCE_A.to_owned(), 4), (SOURCE_B.to_owned(), 3)]);
        let prev = a.snapshot();
        World {
            config,
            a,
            b: None,
            failover_at,
            clients: vec![None; SLOTS],
            deployed: 0,
            now: 0,
            step: 0,
            prev,
            log: Vec::new(),
            mode,
        }
    }

    fn ctx(&self) -> RequestContext {
        RequestContext {
            now_ms: Some(self.now),
            ..Default::default()
        }
    }

    /// Runs `f` on the coordinator and on its twin; their answers must be identical.
    fn both<T: Serialize>(&mut self, f: impl Fn(&mut Coordinator) -> T) -> T {
        let out = f(&mut self.a);
        if let Some(b) = &mut self.b {
            let other = f(b);
            assert_eq!(
                json(&other),
                json(&out),
                "fail-over twin answered differently at step {}\n{}",
                self.step,
                self.log.join("\n")
            );
        }
        out
    }

    fn heartbeat(&mut self, req: &StreamsGroupHeartbeatRequest) -> StreamsGroupHeartbeatResponse {
        let ctx = self.ctx();
        let r = self.both(|c| c.heartbeat(req, &ctx));
        let held = r
            .status
            .iter()
            .flatten()
            .any(|s| s.status_code == 6 && s.status_detail.contains("maxStateBytes"));
        let (h, g) = self.mode.held.get();
        self.mode
            .held
            .set((h + usize::from(held), g + usize::from(r.error_code == 81)));
        self.log.push(format!(
            "  -> {} epoch {} error {} {:?}",
            req.member_id, r.member_epoch, r.error_code, r.error_message
        ));
        r
    }

    fn send(&mut self, slot: usize, owned: Option<Lists>, deliver: bool) {
        let Some(c) = self.clients[slot].clone() else {
            return;
        };
        let owned = owned.unwrap_or_else(|| c.owned.clone());
        let req = c.request(&owned);
        let r = self.heartbeat(&req);
        if deliver {
            let keep = match &mut self.clients[slot] {
                Some(c) => c.absorb(&r),
                None => true,
            };
            if !keep {
                self.clients[slot] = None;
            }
        }
    }

    pub fn apply(&mut self, op: &Op) {
        if self.failover_at == Some(self.step) {
            self.churn(self.mode.churn_before_failover);
            self.fail_over();
        }
        self.log.push(format!("step {}: {op:?}", self.step));
        match op {
            Op::Start {
                slot,
                static_member,
            } => {
                if self.clients[*slot].is_none() {
                    self.clients[*slot] = Some(Client {
                        member_id: String::new(),
                        epoch: 0,
                        instance_id: static_member
                            .then(|| id(self.mode.huge_ids, format!("instance-{slot}"))),
                        process_id: id(self.mode.huge_ids, format!("process-{}", slot / 2)),
                        topology_epoch: self.deployed,
                        owned: Default::default(),
                        history: Vec::new(),
                        lag: None,
                    });
                }
                self.send(*slot, None, true);
            }
            Op::Heartbeat { slot } => self.send(*slot, None, true),
            Op::LoseResponse { slot } => self.send(*slot, None, false),
            Op::StaleOwned { slot, back } => {
                let old = self.clients[*slot].as_ref().and_then(|c| {
                    c.history
                        .len()
                        .checked_sub(*back)
                        .and_then(|i| c.history.get(i).cloned())
                });
                self.send(*slot, Some(old.unwrap_or_default()), true);
            }
            Op::Leave { slot } => {
                if let Some(c) = self.clients[*slot].take() {
                    if c.epoch != 0 {
                        let mut req = c.request(&c.owned);
                        req.member_epoch = if c.instance_id.is_some() { -2 } else { -1 };
                        self.heartbeat(&req);
                    }
                }
            }
            Op::Crash { slot } => {
                self.clients[*slot] = None;
            }
            Op::Redeploy { slot } => {
                if let Some(c) = self.clients[*slot].take() {
                    if c.epoch != 0 {
                        let mut req = c.request(&c.owned);
                        req.member_epoch = -1;
                        req.instance_id = None;
                        if c.instance_id.is_some() {
                            req.member_epoch = -2;
                            req.instance_id = c.instance_id.clone();
                        }
                        self.heartbeat(&req);
                    }
                    let group_epoch = self
                        .a
                        .streams_group(GROUP)
                        .and_then(|g| g.topology_epoch())
                        .unwrap_or(self.deployed);
                    self.deployed = self.deployed.max(group_epoch) + 1;
                    self.clients[*slot] = Some(Client {
                        member_id: String::new(),
                        epoch: 0,
                        topology_epoch: self.deployed,
                        owned: Default::default(),
                        history: Vec::new(),
                        ..c
                    });
                    self.send(*slot, None, true);
                }
            }
            Op::BadJoin { kind } => {
                let group_epoch = self
                    .a
                    .streams_group(GROUP)
                    .and_then(|g| g.topology_epoch())
                    .unwrap_or(0);
                let t = match kind {
                    BadTopology::Skip => topology(group_epoch + 2),
                    BadTopology::SameEpochOtherContent => {
                        let mut t = self
                            .a
                            .streams_group(GROUP)
                            .and_then(|g| g.topology.clone())
                            .unwrap_or_else(|| topology(0));
                        if let Some(s) = t.subtopologies.first_mut() {
                            if s.source_topics.iter().any(|x| x == SOURCE_B) {
                                s.source_topics.retain(|x| x != SOURCE_B);
                            } else {
                                s.source_topics.push(SOURCE_B.into());
                            }
                        }
                        t
                    }
                    BadTopology::Behind => topology(group_epoch - 1),
                    BadTopology::Empty => Topology {
                        epoch: group_epoch + 1,
                        subtopologies: vec![],
                    },
                };
                // The process of the slot a started group would track it in: a client
                // sends its processId from its first request on (one that joined without
                // it and sent one later would change process under its standbys).
                let free = (0..SLOTS).find(|s| self.clients[*s].is_none());
                let process = free.map(|s| id(self.mode.huge_ids, format!("process-{}", s / 2)));
                let req = StreamsGroupHeartbeatRequest {
                    group_id: GROUP.into(),
                    member_id: String::new(),
                    member_epoch: 0,
                    rebalance_timeout_ms: 30_000,
                    topology: Some(t),
                    process_id: process.clone(),
                    active_tasks: Some(vec![].into()),
                    standby_tasks: Some(vec![].into()),
                    warmup_tasks: Some(vec![].into()),
                    ..Default::default()
                };
                let exists = self.a.streams_group(GROUP).is_some();
                let r = self.heartbeat(&req);
                // Against an existing group, every one of these is refused.
                if exists || matches!(kind, BadTopology::Empty) {
                    assert_ne!(r.error_code, 0, "bad join accepted: {kind:?}");
                }
                // A group created by the refused join is not possible: refused is refused.
                if r.error_code == 0 {
                    // Against no group, a well-formed topology starts one: track that member.
                    self.log.push("  (bad join started the group)".into());
                    if let (Some(slot), Some(t), Some(process_id)) =
                        (free, req.topology.as_ref(), process)
                    {
                        self.deployed = self.deployed.max(t.epoch);
                        let mut c = Client {
                            member_id: String::new(),
                            epoch: 0,
                            instance_id: None,
                            process_id,
                            topology_epoch: t.epoch,
                            owned: Default::default(),
                            history: Vec::new(),
                            lag: None,
                        };
                        c.absorb(&r);
                        self.clients[slot] = Some(c);
                    } else {
                        // No free slot: leave at once.
                        let leave = StreamsGroupHeartbeatRequest {
                            group_id: GROUP.into(),
                            member_id: r.member_id.clone().unwrap_or_default(),
                            member_epoch: -1,
                            ..Default::default()
                        };
                        self.heartbeat(&leave);
                    }
                }
            }
            Op::Offsets { slot, lag } => {
                if let Some(c) = &mut self.clients[*slot] {
                    c.lag = Some(*lag);
                }
                self.send(*slot, None, true);
            }
            Op::CreateTopic { which, partitions } => {
                let name = TOPICS[*which];
                let p = *partitions;
                self.both(|c| {
                    let r = c.create_topic(name, p, -1, Default::default());
                    (r.name, r.error_code.code())
                });
            }
            Op::DeleteTopic { which } => {
                let name = TOPICS[*which];
                self.both(|c| c.delete_topic(name));
            }
            Op::AddPartitions { which, extra } => {
                let name = TOPICS[*which];
                let count = self
                    .a
                    .cluster
                    .topic(name)
                    .map(|t| t.num_partitions + extra)
                    .unwrap_or(1);
                self.both(|c| json(&c.create_partitions(name, count)));
            }
            Op::Advance { ms } => {
                let ms = *ms;
                self.now += ms;
                if !self.mode.time_by_now_ms {
                    let events = self.both(|c| json(&c.advance_time(ms).expect("forward")));
                    self.log.push(format!("  events {events}"));
                }
            }
            Op::GroupConfig { which } => {
                let change = group_change(*which);
                let r = self.both(|c| json(&c.set_group_config_for(GROUP, &change)));
                self.log.push(format!("  {r}"));
            }
            Op::DeleteGroup => {
                let ctx = self.ctx();
                let r = self.both(|c| json(&c.delete_groups(&[GROUP.to_owned()], &ctx)));
                self.log.push(format!("  {r}"));
            }
        }
        self.after_step();
        self.step += 1;
    }

    /// Every client heartbeats `rounds` times, 1 s apart (a log long enough to have
    /// been compacted), the invariants checked after each round: they compare two
    /// snapshots, and over many rounds a member may gain tasks and only then go stale
    /// (a delayed join with a new topology epoch), which one check at the end would
    /// read as a stale member gaining.
    fn churn(&mut self, rounds: usize) {
        for _ in 0..rounds {
            for slot in 0..SLOTS {
                if self.clients[slot].is_some() {
                    self.send(slot, None, true);
                }
            }
            self.now += 1_000;
            self.after_step();
        }
    }

    /// The twin, rebuilt from the records (through their JSON form).
    pub fn fail_over(&mut self) {
        let text = json(&self.a.records());
        let records: Vec<Record> = decode_str(&text, "records").expect("records decode");
        let b = Coordinator::from_records(self.config.clone(), records).expect("rebuild");
        assert_eq!(
            json(&b.snapshot()),
            json(&self.a.snapshot()),
            "rebuilt state"
        );
        self.log.push(format!("step {}: fail-over", self.step));
        self.b = Some(b);
    }

    /// The invariants between the last snapshot and this one; the twin's state.
    pub fn after_step(&mut self) {
        let snap = self.a.snapshot();
        let cur = snap.clone();
        let v = invariants::check(Some(&self.prev), &cur);
        self.fail_on(&v);
        if let Some(b) = &mut self.b {
            assert_eq!(
                json(&b.snapshot()),
                json(&snap),
                "twin state at step {}",
                self.step
            );
            let ctx = RequestContext::default();
            let ids = [GROUP.to_owned()];
            let (da, db) = (self.a.describe(&ids, &ctx), b.describe(&ids, &ctx));
            assert_eq!(json(&db), json(&da), "twin describe at step {}", self.step);
        }
        self.prev = cur;
    }

    fn fail_on(&self, v: &[Violation]) {
        if !v.is_empty() {
            let list: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            panic!(
                "invariants broken at step {}:\n{}\n--- history ---\n{}",
                self.step,
                list.join("\n"),
                self.log.join("\n")
            );
        }
    }

    /// Every running client heartbeats with no change, past every session timeout,
    /// reporting no lag; then the group must have settled.
    pub fn settle(&mut self) {
        // Source topics back, so that most histories end with a group that can settle.
        for (name, partitions) in [(SOURCE_A, 4), (SOURCE_B, 3)] {
            if self.a.cluster.topic(name).is_none() {
                self.both(|c| json(&c.create_topic(name, partitions, -1, Default::default())));
                self.after_step();
            }
        }
        for c in self.clients.iter_mut().flatten() {
            c.lag = c.lag.map(|_| 0);
        }
        for _ in 0..40 {
            for slot in 0..SLOTS {
                if self.clients[slot].is_some() {
                    self.send(slot, None, true);
                    self.after_step();
                }
            }
            self.now += 2_500;
            let ms = 2_500;
            if !self.mode.time_by_now_ms {
                self.both(|c| json(&c.advance_time(ms).expect("forward")));
            }
            self.after_step();
        }
        if self.mode.time_by_now_ms {
            // The one advanceTime: every event the requests' clocks caused, in order.
            let now = self.now;
            let events = self.both(|c| json(&c.advance_to_time(now).expect("forward")));
            assert!(events.len() < 2 << 20, "{} bytes of events", events.len());
            self.after_step();
        }
        if self.mode.budget.is_some() {
            // Under a tight budget the group may wait for room; what must hold is
            // checked after every step.
            return;
        }
        let cur = self.a.snapshot();
        let v = invariants::check_settled(&cur);
        self.fail_on(&v);
    }
}
