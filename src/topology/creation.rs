//! The coordinator's creation of missing internal topics (SPEC.md section 5), one
//! `InternalTopicCreation` per group:
//! - a heartbeat that finds internal topics missing calls `on_missing`, which starts a
//!   creation unless one is in flight, the back-off after a failure has not passed, or
//!   the member's principal may CREATE none of them (then nothing is attempted);
//! - the creation completes `internalTopicCreationDelayMs` later on the coordinator's
//!   clock: `advance` (called whenever the clock moves) creates the topics in the
//!   cluster and reports `internalTopicsCreated` or `internalTopicsCreationFailed`;
//! - after a failure the next attempt waits `internalTopicCreationBackoffMs`, doubling
//!   with each consecutive failure up to 30000 ms;
//! - `on_configured` reports existing internal topics whose other settings differ
//!   (`internalTopicConfigMismatch`), once per topic and difference;
//! - `detail` writes MISSING_INTERNAL_TOPICS' detail: what is missing, whether creation
//!   was tried, why it failed, and whether the principal may create the topics.

use crate::cluster::Cluster;
use crate::config::{CoordinatorConfig, MAX_CREATION_BACKOFF_MS};
use crate::protocol::ErrorCode;
use crate::topology::{ConfiguredInternalTopic, ConfiguredTopology};
use serde::Serialize;
use std::collections::BTreeSet;

/// What happened to a creation, returned by `advance` as coordinator events
/// (`{ atMs, kind, groupId, detail }` once the coordinator adds the group id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreationEvent {
    Created {
        at_ms: i64,
        topics: Vec<String>,
    },
    Failed {
        at_ms: i64,
        topics: Vec<String>,
        reason: String,
    },
    ConfigMismatch {
        at_ms: i64,
        topic: String,
        detail: String,
    },
}

impl CreationEvent {
    pub fn at_ms(&self) -> i64 {
        match self {
            CreationEvent::Created { at_ms, .. }
            | CreationEvent::Failed { at_ms, .. }
            | CreationEvent::ConfigMismatch { at_ms, .. } => *at_ms,
        }
    }

    /// API.md's event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            CreationEvent::Created { .. } => "internalTopicsCreated",
            CreationEvent::Failed { .. } => "internalTopicsCreationFailed",
            CreationEvent::ConfigMismatch { .. } => "internalTopicConfigMismatch",
        }
    }

    pub fn detail(&self) -> String {
        match self {
            CreationEvent::Created { topics, .. } => {
                format!("Created internal topics {}.", topics.join(", "))
            }
            CreationEvent::Failed { reason, .. } => reason.clone(),
            CreationEvent::ConfigMismatch { detail, .. } => detail.clone(),
        }
    }
}

/// One topic a creation could not create, with Kafka's error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicFailure {
    pub name: String,
    pub error_code: ErrorCode,
    pub error_message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingCreation {
    pub topics: Vec<ConfiguredInternalTopic>,
    pub requested_at_ms: i64,
    pub completes_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LastFailure {
    pub at_ms: i64,
    pub topics: Vec<TopicFailure>,
}

/// Per-group creation state (also what the playground's snapshot shows).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InternalTopicCreation {
    pub in_flight: Option<PendingCreation>,
    /// Attempts started so far.
    pub attempts: u32,
    /// Failed attempts since the last success: the back-off exponent.
    pub consecutive_failures: u32,
    pub last_failure: Option<LastFailure>,
    /// No attempt starts before this time (the back-off after a failure).
    pub next_attempt_at_ms: i64,
    /// Mismatches already reported, so each is reported once.
    #[serde(skip)]
    pub reported_mismatches: BTreeSet<(String, String)>,
    #[serde(skip)]
    pending_events: Vec<CreationEvent>,
}

/// Settings from the coordinator config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreationSettings {
    pub delay_ms: i64,
    pub backoff_ms: i64,
    pub max_backoff_ms: i64,
    /// Replication factor for internal topics without one (0 = cluster default).
    pub replication_factor: i16,
}

impl CreationSettings {
    pub fn from_config(c: &CoordinatorConfig) -> Self {
        CreationSettings {
            delay_ms: c.internal_topic_creation_delay_ms.max(0),
            backoff_ms: c.internal_topic_creation_backoff_ms.max(0),
            max_backoff_ms: MAX_CREATION_BACKOFF_MS,
            replication_factor: c.internal_topic_replication_factor.unwrap_or(0),
        }
    }

    /// The wait after the `failures`-th consecutive failure: backoff * 2^(failures-1), capped.
    pub fn backoff_after(&self, failures: u32) -> i64 {
        let shift = failures.saturating_sub(1).min(40);
        self.backoff_ms
            .checked_mul(1_i64 << shift)
            .unwrap_or(i64::MAX)
            .min(self.max_backoff_ms.max(self.backoff_ms))
    }
}

/// The missing topics `principal` may not create (neither cluster nor topic CREATE).
pub fn unauthorized<'a>(
    missing: &'a [ConfiguredInternalTopic],
    cluster: &Cluster,
    principal: &str,
) -> Vec<&'a str> {
    missing
        .iter()
        .filter(|t| !cluster.may_create_topic(principal, &t.name))
        .map(|t| t.name.as_str())
        .collect()
}

impl InternalTopicCreation {
    /// On a heartbeat that found `missing` internal topics: starts a creation of those
    /// the principal may create, when none is in flight and the back-off has passed.
    /// Returns whether it started.
    pub fn on_missing(
        &mut self,
        now_ms: i64,
        missing: &[ConfiguredInternalTopic],
        cluster: &Cluster,
        principal: &str,
        settings: &CreationSettings,
    ) -> bool {
        if self.in_flight.is_some() || now_ms < self.next_attempt_at_ms {
            return false;
        }
        let allowed: Vec<ConfiguredInternalTopic> = missing
            .iter()
            .filter(|t| cluster.may_create_topic(principal, &t.name))
            .cloned()
            .collect();
        if allowed.is_empty() {
            return false;
        }
        self.attempts = self.attempts.saturating_add(1);
        self.in_flight = Some(PendingCreation {
            topics: allowed,
            requested_at_ms: now_ms,
            completes_at_ms: now_ms.saturating_add(settings.delay_ms.max(0)),
        });
        true
    }

    /// After each configuration of the group's topology: queues an event for every new
    /// config mismatch (`advance` returns it).
    pub fn on_configured(&mut self, now_ms: i64, configured: &ConfiguredTopology) {
        for m in &configured.config_mismatches {
            if self
                .reported_mismatches
                .insert((m.topic.clone(), m.detail.clone()))
            {
                self.pending_events.push(CreationEvent::ConfigMismatch {
                    at_ms: now_ms,
                    topic: m.topic.clone(),
                    detail: m.detail.clone(),
                });
            }
        }
    }

    /// The next time `advance` has work to do.
    pub fn next_deadline(&self) -> Option<i64> {
        let queued = self.pending_events.iter().map(CreationEvent::at_ms).min();
        let due = self.in_flight.as_ref().map(|p| p.completes_at_ms);
        queued.into_iter().chain(due).min()
    }

    /// Completes a creation that is due by `now_ms` against the cluster, and returns
    /// it with the queued mismatch events, oldest first.
    pub fn advance(
        &mut self,
        now_ms: i64,
        cluster: &mut Cluster,
        settings: &CreationSettings,
    ) -> Vec<CreationEvent> {
        let mut events = std::mem::take(&mut self.pending_events);
        if self
            .in_flight
            .as_ref()
            .is_some_and(|p| p.completes_at_ms <= now_ms)
        {
            if let Some(p) = self.in_flight.take() {
                events.extend(self.complete(p, cluster, settings));
            }
        }
        events.sort_by_key(CreationEvent::at_ms);
        events
    }

    fn complete(
        &mut self,
        p: PendingCreation,
        cluster: &mut Cluster,
        settings: &CreationSettings,
    ) -> Vec<CreationEvent> {
        let at = p.completes_at_ms;
        let mut created = Vec::new();
        let mut failed = Vec::new();
        for t in &p.topics {
            let rf = if t.replication_factor > 0 {
                t.replication_factor
            } else if settings.replication_factor > 0 {
                settings.replication_factor
            } else {
                -1
            };
            let configs = t
                .topic_configs
                .iter()
                .map(|kv| (kv.key.clone(), kv.value.clone()))
                .collect();
            let r = cluster.create_topic(&t.name, t.partitions, rf, configs);
            if r.is_ok() {
                created.push(t.name.clone());
            } else {
                failed.push(TopicFailure {
                    name: t.name.clone(),
                    error_code: r.error_code,
                    error_message: r.error_message.unwrap_or_default(),
                });
            }
        }
        let mut events = Vec::new();
        if !created.is_empty() {
            events.push(CreationEvent::Created {
                at_ms: at,
                topics: created,
            });
        }
        if failed.is_empty() {
            self.consecutive_failures = 0;
            self.last_failure = None;
            self.next_attempt_at_ms = at;
        } else {
            self.consecutive_failures = self.consecutive_failures.saturating_add(1);
            let wait = settings.backoff_after(self.consecutive_failures);
            self.next_attempt_at_ms = at.saturating_add(wait);
            let reason = format!(
                "Creation failed: {}. Next attempt at {} ms or later.",
                failure_list(&failed),
                self.next_attempt_at_ms
            );
            events.push(CreationEvent::Failed {
                at_ms: at,
                topics: failed.iter().map(|f| f.name.clone()).collect(),
                reason,
            });
            self.last_failure = Some(LastFailure {
                at_ms: at,
                topics: failed,
            });
        }
        events
    }

    /// MISSING_INTERNAL_TOPICS' detail for a heartbeat from `principal`.
    pub fn detail(
        &self,
        missing: &[ConfiguredInternalTopic],
        cluster: &Cluster,
        principal: &str,
    ) -> String {
        let mut s = crate::topology::configure::missing_internal_detail(missing);
        let denied = unauthorized(missing, cluster, principal);
        if !denied.is_empty() {
            s.push_str(&format!(
                " {principal} is not authorized to CREATE on topics {} (it needs CREATE on the cluster or on each topic)",
                denied.join(", ")
            ));
            if denied.len() == missing.len() && self.in_flight.is_none() {
                s.push_str(", so no creation is attempted.");
            } else {
                s.push('.');
            }
        }
        if let Some(p) = &self.in_flight {
            let names: Vec<&str> = p.topics.iter().map(|t| t.name.as_str()).collect();
            s.push_str(&format!(
                " Creation of {} requested at {} ms (attempt {}), completes at {} ms.",
                names.join(", "),
                p.requested_at_ms,
                self.attempts,
                p.completes_at_ms
            ));
        } else if let Some(f) = &self.last_failure {
            s.push_str(&format!(
                " Creation attempt {} failed at {} ms: {}. Next attempt at {} ms or later.",
                self.attempts,
                f.at_ms,
                failure_list(&f.topics),
                self.next_attempt_at_ms
            ));
        } else if denied.len() < missing.len() {
            s.push_str(" Creation not attempted yet.");
        }
        s
    }
}

fn failure_list(failed: &[TopicFailure]) -> String {
    let items: Vec<String> = failed
        .iter()
        .map(|f| format!("{} ({}: {})", f.name, f.error_code.name(), f.error_message))
        .collect();
    items.join("; ")
}
