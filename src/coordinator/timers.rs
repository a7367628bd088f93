//! The coordinator's clock: session timeouts, rebalance timeouts, internal topic
//! creation and the end of an initial rebalance delay fire in time order as
//! `advance_time` moves it (ties: creation, initial rebalance, session, rebalance,
//! consumer session; then group id, then member id). Time only moves forward.

use super::events::{self, Event};
use super::member::MemberState;
use super::records::*;
use super::replay::creation_value;
use super::Coordinator;
use crate::topology::creation::CreationEvent;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Creation(String),
    InitialRebalance(String),
    Session(String, String),
    Rebalance(String, String),
    ConsumerSession(String, String),
}

use crate::protocol::json::InputError;

impl Coordinator {
    /// Moves the clock forward by `ms`, returning the events it caused (and those a
    /// context's `nowMs` caused since the last call).
    pub fn advance_time(&mut self, ms: i64) -> Result<Vec<Event>, InputError> {
        let invalid = |message: String| InputError::Invalid {
            what: "advanceTime".to_owned(),
            path: "ms".to_owned(),
            message,
        };
        if ms < 0 {
            return Err(invalid(format!("{ms} is negative; time never goes back")));
        }
        let to = self
            .now_ms
            .checked_add(ms)
            .ok_or_else(|| invalid(format!("{ms} moves the clock past the largest int64")))?;
        Ok(self.advance_to(to))
    }

    /// Moves the clock to `to_ms` (not before now).
    pub fn advance_to_time(&mut self, to_ms: i64) -> Result<Vec<Event>, InputError> {
        if to_ms < self.now_ms {
            return Err(InputError::rejected(format!(
                "invalid time: {to_ms} is before the coordinator's clock ({}); time never goes back",
                self.now_ms
            )));
        }
        Ok(self.advance_to(to_ms))
    }

    /// The waiting events, then those of every timer due up to `to_ms`.
    pub(crate) fn advance_to(&mut self, to: i64) -> Vec<Event> {
        let mut out = self.take_pending();
        out.extend(self.run_timers_to(to));
        out
    }

    /// Fires every timer due up to `to` in time order; the clock ends at `to`.
    pub(crate) fn run_timers_to(&mut self, to: i64) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some((at, timer)) = self.next_timer() {
            if at > to {
                break;
            }
            self.set_clock(at);
            out.extend(self.fire(timer));
        }
        self.set_clock(to);
        out
    }

    fn set_clock(&mut self, t: i64) {
        if t > self.now_ms {
            self.write(
                RecordKey::Clock {},
                Some(RecordValue::Clock(ClockValue { now_ms: t })),
            );
        }
    }

    fn next_timer(&self) -> Option<(i64, Timer)> {
        let mut best: Option<(i64, Timer)> = None;
        let mut offer = |at: i64, t: Timer| {
            if best.as_ref().is_none_or(|(b, bt)| (at, &t) < (*b, bt)) {
                best = Some((at, t));
            }
        };
        for (gid, g) in &self.groups {
            if let Some(at) = g.creation.next_deadline() {
                offer(at, Timer::Creation(gid.clone()));
            }
            if let Some(at) = g.initial_rebalance_deadline_ms {
                offer(at, Timer::InitialRebalance(gid.clone()));
            }
            for (mid, m) in &g.members {
                offer(
                    m.timers.session_deadline_ms,
                    Timer::Session(gid.clone(), mid.clone()),
                );
                if let Some((at, _)) = m.timers.rebalance_deadline {
                    offer(at, Timer::Rebalance(gid.clone(), mid.clone()));
                }
            }
        }
        for (gid, g) in &self.consumer_groups {
            for (mid, m) in &g.members {
                offer(
                    m.session_deadline_ms,
                    Timer::ConsumerSession(gid.clone(), mid.clone()),
                );
            }
        }
        best
    }

    fn fire(&mut self, timer: Timer) -> Vec<Event> {
        let now = self.now_ms;
        match timer {
            Timer::Session(gid, mid) => {
                let timeout = self.session_timeout_of(&gid);
                self.remove_member(&gid, &mid);
                vec![Event {
                    at_ms: now,
                    kind: events::Kind::SessionTimeout,
                    group_id: gid,
                    detail: format!(
                        "Member {mid} sent no heartbeat within the session timeout of {timeout} ms and was removed from the group."
                    ),
                    member_id: Some(mid),
                }]
            }
            Timer::Rebalance(gid, mid) => {
                let Some(m) = self.groups.get(&gid).and_then(|g| g.members.get(&mid)) else {
                    return Vec::new();
                };
                let armed_epoch = m.timers.rebalance_deadline.map(|d| d.1);
                if m.current.state == MemberState::UnrevokedTasks
                    && armed_epoch == Some(m.current.member_epoch)
                {
                    let timeout = m.meta.rebalance_timeout_ms;
                    self.remove_member(&gid, &mid);
                    vec![Event {
                        at_ms: now,
                        kind: events::Kind::RebalanceTimeout,
                        group_id: gid,
                        detail: format!(
                            "Member {mid} did not revoke its tasks within its rebalance timeout of {timeout} ms and was removed from the group."
                        ),
                        member_id: Some(mid),
                    }]
                } else {
                    let mut timers = m.timers.clone();
                    timers.rebalance_deadline = None;
                    self.write(
                        RecordKey::MemberTimers {
                            group_id: gid,
                            member_id: mid,
                        },
                        Some(RecordValue::MemberTimers((&timers).into())),
                    );
                    Vec::new()
                }
            }
            Timer::ConsumerSession(gid, mid) => {
                let timeout = self.config.session_timeout_ms;
                self.remove_consumer_member(&gid, &mid);
                vec![Event {
                    at_ms: now,
                    kind: events::Kind::SessionTimeout,
                    group_id: gid,
                    detail: format!(
                        "Consumer member {mid} sent no heartbeat within the session timeout of {timeout} ms and was removed from the group."
                    ),
                    member_id: Some(mid),
                }]
            }
            Timer::Creation(gid) => self.run_creation(&gid),
            Timer::InitialRebalance(gid) => {
                self.end_initial_delay(&gid);
                Vec::new()
            }
        }
    }

    /// The initial rebalance delay is over: the first target is computed now (its
    /// record clears the deadline); members get it on their next heartbeats.
    fn end_initial_delay(&mut self, group_id: &str) {
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        if g.group_epoch > g.assignment_epoch {
            if !self.update_target(group_id) {
                // Held by the budget: the delay is over all the same.
                let epoch = self.groups.get(group_id).map_or(0, |g| g.assignment_epoch);
                self.write_target_metadata(group_id, epoch, None);
            }
        } else {
            let epoch = g.assignment_epoch;
            self.write_target_metadata(group_id, epoch, None);
        }
    }

    /// Completes the group's internal topic creation if it is due now.
    pub(crate) fn complete_due_creations(&mut self, group_id: &str) {
        let due = self
            .groups
            .get(group_id)
            .and_then(|g| g.creation.next_deadline())
            .is_some_and(|t| t <= self.now_ms);
        if due {
            let ev = self.run_creation(group_id);
            self.queue_events(ev);
        }
    }

    fn run_creation(&mut self, group_id: &str) -> Vec<Event> {
        let now = self.now_ms;
        let settings = self.creation_settings();
        let Some(g) = self.groups.get(group_id) else {
            return Vec::new();
        };
        let mut creation = g.creation.clone();
        let before = self.cluster.topics.clone();
        let happened = creation.advance(now, &mut self.cluster, &settings);
        // The cluster goes back to `before` (one copy of the topics, not two); each
        // record below changes only its own topic, so a topic not yet written still
        // reads as it was before.
        let after = std::mem::replace(&mut self.cluster.topics, before);
        // Record what the creation did to the cluster, so a rebuild sees it too.
        for (name, t) in &after {
            if self.cluster.topics.get(name) != Some(t) {
                self.write(
                    RecordKey::Topic { name: name.clone() },
                    Some(RecordValue::Topic(TopicValue {
                        num_partitions: t.num_partitions,
                        replication_factor: t.replication_factor,
                        configs: t
                            .configs
                            .iter()
                            .map(|(k, v)| crate::protocol::KeyValue {
                                key: k.clone(),
                                value: v.clone(),
                            })
                            .collect(),
                    })),
                );
            }
        }
        let gone: Vec<String> = (self.cluster.topics.keys())
            .filter(|name| !after.contains_key(*name))
            .cloned()
            .collect();
        for name in gone {
            self.write(RecordKey::Topic { name }, None);
        }
        self.write(
            RecordKey::TopicCreation {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::TopicCreation(creation_value(&creation))),
        );
        self.bump_reconfigured_groups();
        happened
            .into_iter()
            .map(|e| match e {
                CreationEvent::Created { topics } => Event {
                    at_ms: now,
                    kind: events::Kind::InternalTopicsCreated,
                    group_id: group_id.to_owned(),
                    member_id: None,
                    detail: format!("Created internal topics {}.", topics.join(", ")),
                },
                CreationEvent::Failed { topics, reason } => Event {
                    at_ms: now,
                    kind: events::Kind::InternalTopicsCreationFailed,
                    group_id: group_id.to_owned(),
                    member_id: None,
                    detail: format!(
                        "Creating internal topics {} failed: {reason}",
                        topics.join(", ")
                    ),
                },
                CreationEvent::ConfigMismatch { topic, detail } => Event {
                    at_ms: now,
                    kind: events::Kind::InternalTopicConfigMismatch,
                    group_id: group_id.to_owned(),
                    member_id: None,
                    detail: format!("Internal topic {topic}: {detail}"),
                },
            })
            .collect()
    }
}
