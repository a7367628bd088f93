//! A simulated Kafka Streams process: one or more members (stream threads) sharing a
//! process id, a rack, client tags and one state directory. Its lifecycle (running,
//! stopped, crashed, restarting) and its local state (changelog offsets restored per
//! task, which survive task moves and restarts, as a state directory does).

use crate::protocol::{Endpoint, KeyValue, StreamsGroupHeartbeatRequest, TaskOffset, Topology};
use crate::sim::member::{Member, MemberState, Tasks};
use crate::sim::scenario::{ClientConfig, ProcessSpec, RestartChanges};
use crate::task::{TaskId, TaskSet};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProcessState {
    Running,
    Stopped,
    Crashed,
    /// Left the group; rejoins at `restart_at_ms`.
    Restarting,
}

#[derive(Debug, Clone)]
pub struct Process {
    pub id: String,
    pub threads: u32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_tags: Vec<KeyValue>,
    pub topology: Topology,
    pub user_endpoint: Option<Endpoint>,
    pub state: ProcessState,
    pub members: Vec<Member>,
    /// How many times the process has started (member ids carry it after the first).
    pub incarnation: u32,
    pub restart_at_ms: Option<i64>,
    /// Changelog offset restored per stateful task (the state directory).
    pub offsets: BTreeMap<TaskId, i64>,
    /// Up to when `offsets` have been advanced.
    pub restored_to_ms: i64,
}

/// Tasks of subtopologies that have changelogs.
pub fn stateful_subtopologies(t: &Topology) -> BTreeSet<String> {
    t.subtopologies
        .iter()
        .filter(|s| !s.state_changelog_topics.is_empty())
        .map(|s| s.subtopology_id.clone())
        .collect()
}

impl Process {
    pub fn new(id: String, spec: &ProcessSpec, default_topology: &Topology, now: i64) -> Process {
        let mut topology = spec
            .topology
            .clone()
            .unwrap_or_else(|| default_topology.clone());
        if let Some(e) = spec.topology_epoch {
            topology.epoch = e;
        }
        let mut p = Process {
            id,
            threads: spec.threads.unwrap_or(1),
            instance_id: spec.instance_id.clone(),
            rack_id: spec.rack_id.clone(),
            client_tags: spec.client_tags.clone().unwrap_or_default(),
            topology,
            user_endpoint: spec.user_endpoint.clone(),
            state: ProcessState::Running,
            members: Vec::new(),
            incarnation: 0,
            restart_at_ms: None,
            offsets: BTreeMap::new(),
            restored_to_ms: now,
        };
        p.start(now);
        p
    }

    /// Starts the stream threads: fresh members that join with epoch 0.
    fn start(&mut self, now: i64) {
        self.incarnation = self.incarnation.saturating_add(1);
        self.state = ProcessState::Running;
        self.restart_at_ms = None;
        self.restored_to_ms = now;
        let threads = self.threads;
        self.members = (1..=threads)
            .map(|t| {
                let member_id = if self.incarnation == 1 {
                    format!("{}-{t}", self.id)
                } else {
                    format!("{}-{t}.{}", self.id, self.incarnation)
                };
                // Kafka Streams gives each thread its own static instance id.
                let instance_id = self.instance_id.as_ref().map(|i| {
                    if threads == 1 {
                        i.clone()
                    } else {
                        format!("{i}-{t}")
                    }
                });
                Member::new(member_id, instance_id, t, now)
            })
            .collect();
    }

    /// The leave epoch: a static member leaves temporarily (-2) so that its restart
    /// takes its tasks over; a dynamic one leaves for good (-1).
    fn leave_epoch(&self) -> i32 {
        if self.instance_id.is_some() {
            -2
        } else {
            -1
        }
    }

    /// A clean shutdown: every live member sends its leave heartbeat now.
    pub fn stop(&mut self, now: i64) {
        let epoch = self.leave_epoch();
        for m in &mut self.members {
            if m.is_alive() && m.epoch > 0 {
                m.leaving = Some(epoch);
                m.pending = None;
                m.next_heartbeat_ms = Some(now);
            } else if m.is_alive() {
                // Never joined successfully: nothing to leave.
                m.state = MemberState::Left;
                m.next_heartbeat_ms = None;
            }
        }
        self.state = ProcessState::Stopped;
        self.restart_at_ms = None;
    }

    /// Silence: no leave, no more heartbeats. The coordinator finds out by session timeout.
    pub fn crash(&mut self) {
        for m in &mut self.members {
            if m.is_alive() {
                m.state = MemberState::Crashed;
                m.owned = Tasks::default();
                m.pending = None;
                m.leaving = None;
                m.next_heartbeat_ms = None;
            }
        }
        self.state = ProcessState::Crashed;
        self.restart_at_ms = None;
    }

    /// Applies what a restart changes; the process rejoins now if it is down, else after
    /// it has left and `restart_delay_ms` passed.
    pub fn restart(&mut self, changes: &RestartChanges, now: i64, client: &ClientConfig) {
        let c = &changes.process;
        if let Some(t) = c.threads {
            self.threads = t;
        }
        if changes.new_member {
            self.instance_id = None;
        }
        if let Some(i) = &c.instance_id {
            self.instance_id = Some(i.clone());
        }
        if let Some(r) = &c.rack_id {
            self.rack_id = Some(r.clone());
        }
        if let Some(tags) = &c.client_tags {
            self.client_tags = tags.clone();
        }
        if let Some(e) = &c.user_endpoint {
            self.user_endpoint = Some(e.clone());
        }
        let running = self.state == ProcessState::Running;
        if running {
            // Leave with the identity the members joined with.
            self.stop(now);
        }
        if let Some(t) = &c.topology {
            self.topology = t.clone();
        }
        if let Some(e) = c.topology_epoch {
            self.topology.epoch = e;
        }
        if running {
            self.state = ProcessState::Restarting;
            self.restart_at_ms = Some(now.saturating_add(client.restart_delay_ms));
        } else {
            self.start(now);
        }
    }

    /// Rejoins if a restart is due.
    pub fn maybe_rejoin(&mut self, now: i64) -> bool {
        if self.state == ProcessState::Restarting
            && self.restart_at_ms.is_some_and(|t| t <= now)
            && self.members.iter().all(|m| m.leaving.is_none())
        {
            self.start(now);
            true
        } else {
            false
        }
    }

    pub fn next_due(&self, client: &ClientConfig, acceptable_lag: i64) -> Option<i64> {
        let mut due: Option<i64> = self
            .restart_at_ms
            .filter(|_| self.state == ProcessState::Restarting);
        let mut take = |t: Option<i64>| {
            if let Some(t) = t {
                due = Some(due.map_or(t, |d| d.min(t)));
            }
        };
        for m in &self.members {
            take(m.next_due());
        }
        take(self.next_catch_up(client, acceptable_lag));
        due
    }

    /// The base heartbeat of this process's members.
    pub fn base_request(&self, group_id: &str) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest {
            group_id: group_id.to_owned(),
            rack_id: self.rack_id.clone(),
            topology: Some(self.topology.clone()),
            process_id: Some(self.id.clone()),
            user_endpoint: self.user_endpoint.clone(),
            client_tags: Some(self.client_tags.clone()),
            ..Default::default()
        }
    }

    /// Tasks with state that some live member of this process runs, with its role.
    fn restoring(&self) -> Vec<(TaskId, &'static str, usize)> {
        let stateful = stateful_subtopologies(&self.topology);
        let mut out = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            if !m.is_alive() {
                continue;
            }
            for (set, role) in [
                (&m.owned.active, "active"),
                (&m.owned.standby, "standby"),
                (&m.owned.warmup, "warmup"),
            ] {
                for t in set.tasks() {
                    if stateful.contains(&t.subtopology) {
                        out.push((t, role, i));
                    }
                }
            }
        }
        out
    }

    /// The earliest time a warm-up task comes within the acceptable lag.
    fn next_catch_up(&self, client: &ClientConfig, acceptable_lag: i64) -> Option<i64> {
        if client.restore_records_per_sec == 0 || self.state != ProcessState::Running {
            return None;
        }
        let goal = client.changelog_end_offset.saturating_sub(acceptable_lag);
        self.restoring()
            .into_iter()
            .filter(|(_, role, _)| *role == "warmup")
            .filter_map(|(t, _, _)| {
                let have = self.offsets.get(&t).copied().unwrap_or(0);
                if have >= goal {
                    return None;
                }
                // The first time restore_until's count reaches the goal.
                let rate = client.restore_records_per_sec;
                let base = self.restored_to_ms.saturating_mul(rate) / 1000;
                let k = (goal - have).saturating_add(base);
                let t = (k.saturating_mul(1000).saturating_add(rate - 1)) / rate;
                Some(t.max(self.restored_to_ms.saturating_add(1)))
            })
            .min()
    }

    /// Restores state up to `now`; returns the members whose warm-ups just caught up.
    pub fn restore_until(
        &mut self,
        now: i64,
        client: &ClientConfig,
        acceptable_lag: i64,
    ) -> Vec<(usize, TaskId)> {
        let from = self.restored_to_ms;
        let to = now.max(from);
        self.restored_to_ms = to;
        if self.state != ProcessState::Running {
            return Vec::new();
        }
        // From absolute times, so that how a stretch is cut into steps never changes
        // the result (a replay cuts it differently from a page driven by hand).
        let rate = client.restore_records_per_sec;
        let gained =
            (to.saturating_mul(rate) / 1000).saturating_sub(from.saturating_mul(rate) / 1000);
        let end = client.changelog_end_offset;
        let goal = end.saturating_sub(acceptable_lag);
        let mut caught_up = Vec::new();
        for (t, role, i) in self.restoring() {
            let have = self.offsets.get(&t).copied().unwrap_or(0);
            let now_have = have.saturating_add(gained).min(end);
            if role == "warmup" && have < goal && now_have >= goal {
                caught_up.push((i, t.clone()));
            }
            self.offsets.insert(t, now_have);
        }
        caught_up
    }

    /// What member `i` reports: offsets of the stateful tasks it runs; the first thread
    /// also reports state left on disk that no thread runs (so assignors see it).
    pub fn task_offsets(
        &self,
        i: usize,
        client: &ClientConfig,
    ) -> (Vec<TaskOffset>, Vec<TaskOffset>) {
        let stateful = stateful_subtopologies(&self.topology);
        let Some(m) = self.members.get(i) else {
            return (Vec::new(), Vec::new());
        };
        let mut tasks: TaskSet = m.owned.all();
        tasks.retain(|s, _| stateful.contains(s));
        if i == 0 {
            let running: TaskSet = self
                .members
                .iter()
                .filter(|m| m.is_alive())
                .fold(TaskSet::new(), |acc, m| acc.union(&m.owned.all()));
            for (t, off) in &self.offsets {
                if *off > 0 && !running.contains_task(t) {
                    tasks.insert_task(t);
                }
            }
        }
        let mut offsets = Vec::new();
        let mut ends = Vec::new();
        for t in tasks.tasks() {
            let have = self.offsets.get(&t).copied().unwrap_or(0);
            offsets.push(TaskOffset {
                subtopology_id: t.subtopology.clone(),
                partition: t.partition,
                offset: have,
            });
            ends.push(TaskOffset {
                subtopology_id: t.subtopology,
                partition: t.partition,
                offset: client.changelog_end_offset,
            });
        }
        (offsets, ends)
    }

    /// Every task some live member owns, in any role.
    pub fn owned(&self) -> Tasks {
        let mut out = Tasks::default();
        for m in self.members.iter().filter(|m| m.is_alive()) {
            out.active = out.active.union(&m.owned.active);
            out.standby = out.standby.union(&m.owned.standby);
            out.warmup = out.warmup.union(&m.owned.warmup);
        }
        out
    }
}
