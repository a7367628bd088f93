//! The coordinator's creation of missing internal topics (PROTOCOL.md §5.5), one
//! `InternalTopicCreation` per group:
//! - a heartbeat that finds internal topics missing calls `on_missing`, which starts a
//!   creation unless one is in flight, the back-off after a failure has not passed, or
//!   the member's principal may not CREATE them (then nothing is attempted);
//! - the creation completes `internalTopicCreationDelayMs` later on the coordinator's
//!   clock: `advance` (called whenever the clock moves) creates the topics in the
//!   cluster and reports `internalTopicsCreated` or `internalTopicsCreationFailed`;
//! - after a failure the next attempt waits `internalTopicCreationBackoffMs`, doubling
//!   with each consecutive failure up to 30000 ms (`attempts` counts the attempts since
//!   the last success, so it is the exponent and the state stays four plain fields);
//! - `config_mismatch_events` reports existing internal topics whose other settings
//!   differ (`internalTopicConfigMismatch`) when a configuration finds a new difference;
//! - `detail` writes MISSING_INTERNAL_TOPICS' detail: what is missing, whether creation
//!   was tried, why it failed, and whether the principal may create the topics.

use crate::cluster::Cluster;
use crate::config::{CoordinatorConfig, MAX_CREATION_BACKOFF_MS};
use crate::topology::{ConfiguredInternalTopic, ConfiguredTopology};
use serde::Serialize;

/// What happened to a creation, reported by `advance` as coordinator events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreationEvent {
    Created { topics: Vec<String> },
    Failed { topics: Vec<String>, reason: String },
    ConfigMismatch { topic: String, detail: String },
}

impl CreationEvent {
    /// API.md's event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            CreationEvent::Created { .. } => "internalTopicsCreated",
            CreationEvent::Failed { .. } => "internalTopicsCreationFailed",
            CreationEvent::ConfigMismatch { .. } => "internalTopicConfigMismatch",
        }
    }

    /// The event's `detail` text.
    pub fn detail(&self) -> String {
        match self {
            CreationEvent::Created { topics } => {
                format!("Created internal topics {}.", topics.join(", "))
            }
            CreationEvent::Failed { reason, .. } => reason.clone(),
            CreationEvent::ConfigMismatch { detail, .. } => detail.clone(),
        }
    }
}

/// Per-group creation state (also what the playground's snapshot shows).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InternalTopicCreation {
    pub in_flight: Option<PendingCreation>,
    /// Why the last attempt failed (per topic, Kafka's error), None after a success.
    pub last_failure: Option<String>,
    /// Attempts since the last success.
    pub attempts: u32,
    /// No attempt starts before this time (the back-off after a failure).
    pub next_attempt_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingCreation {
    pub topics: Vec<ConfiguredInternalTopic>,
    pub completes_at_ms: i64,
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

    /// The wait after the `failures`-th consecutive failure: backoff * 2^(failures-1),
    /// capped at the maximum (or at the configured back-off if that is larger).
    pub fn backoff_after(&self, failures: u32) -> i64 {
        let shift = failures.saturating_sub(1).min(40);
        self.backoff_ms
            .checked_mul(1_i64 << shift)
            .unwrap_or(i64::MAX)
            .min(self.max_backoff_ms.max(self.backoff_ms))
    }
}

/// Whether `principal` may create every one of `missing` (CREATE on the cluster, or on
/// each topic).
pub fn may_create(missing: &[ConfiguredInternalTopic], cluster: &Cluster, principal: &str) -> bool {
    missing
        .iter()
        .all(|t| cluster.may_create_topic(principal, &t.name))
}

/// The events for config mismatches that `current` finds and `previous` (the group's
/// configuration before this one) did not: each difference is reported once.
pub fn config_mismatch_events(
    previous: Option<&ConfiguredTopology>,
    current: &ConfiguredTopology,
) -> Vec<CreationEvent> {
    current
        .config_mismatches
        .iter()
        .filter(|m| !previous.is_some_and(|p| p.config_mismatches.contains(m)))
        .map(|m| CreationEvent::ConfigMismatch {
            topic: m.topic.clone(),
            detail: m.detail.clone(),
        })
        .collect()
}

impl InternalTopicCreation {
    /// On a heartbeat that found `missing` internal topics: start a creation when none is
    /// in flight, the back-off has passed and `may_create` holds. Returns whether it started.
    pub fn on_missing(
        &mut self,
        now_ms: i64,
        missing: &[ConfiguredInternalTopic],
        may_create: bool,
        settings: &CreationSettings,
    ) -> bool {
        if !may_create
            || self.in_flight.is_some()
            || now_ms < self.next_attempt_at_ms
            || missing.is_empty()
        {
            return false;
        }
        self.attempts = self.attempts.saturating_add(1);
        self.in_flight = Some(PendingCreation {
            topics: missing.to_vec(),
            completes_at_ms: now_ms.saturating_add(settings.delay_ms.max(0)),
        });
        true
    }

    /// The next time `advance` has work to do.
    pub fn next_deadline(&self) -> Option<i64> {
        self.in_flight.as_ref().map(|p| p.completes_at_ms)
    }

    /// Completes a creation that is due by `now_ms` against the cluster. Topics that
    /// can be created are, even when others fail.
    pub fn advance(
        &mut self,
        now_ms: i64,
        cluster: &mut Cluster,
        settings: &CreationSettings,
    ) -> Vec<CreationEvent> {
        let due = self
            .in_flight
            .as_ref()
            .is_some_and(|p| p.completes_at_ms <= now_ms);
        if !due {
            return Vec::new();
        }
        let Some(p) = self.in_flight.take() else {
            return Vec::new();
        };
        let mut created = Vec::new();
        let mut failed = Vec::new();
        let mut failed_names = Vec::new();
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
                failed_names.push(t.name.clone());
                failed.push(format!(
                    "{} ({}: {})",
                    t.name,
                    r.error_code.name(),
                    r.error_message.unwrap_or_default()
                ));
            }
        }
        let mut events = Vec::new();
        if !created.is_empty() {
            events.push(CreationEvent::Created { topics: created });
        }
        if failed.is_empty() {
            self.attempts = 0;
            self.last_failure = None;
            self.next_attempt_at_ms = p.completes_at_ms;
        } else {
            let wait = settings.backoff_after(self.attempts);
            self.next_attempt_at_ms = p.completes_at_ms.saturating_add(wait);
            let why = failed.join("; ");
            events.push(CreationEvent::Failed {
                topics: failed_names,
                reason: format!(
                    "Creation failed: {why}. Next attempt at {} ms or later.",
                    self.next_attempt_at_ms
                ),
            });
            self.last_failure = Some(why);
        }
        events
    }

    /// MISSING_INTERNAL_TOPICS' detail when all of `missing` can be created.
    pub fn detail(&self, missing: &[ConfiguredInternalTopic], may_create: bool) -> String {
        let mut s = crate::topology::configure::missing_internal_detail(missing, &[]);
        s.push_str(&self.creation_detail(missing, may_create));
        s
    }

    /// MISSING_INTERNAL_TOPICS' detail for a configuration: every missing internal
    /// topic; what creation has done for those it can create; which ones wait for
    /// their partition count to be decided (`configure`'s undecided topics).
    pub fn status_detail(&self, cfg: &ConfiguredTopology, may_create: bool) -> String {
        let (to_create, undecided) = (
            &cfg.internal_topics_to_create,
            &cfg.internal_topics_undecided,
        );
        if undecided.is_empty() {
            return self.detail(to_create, may_create);
        }
        let mut s = crate::topology::configure::missing_internal_detail(to_create, undecided);
        if !to_create.is_empty() {
            s.push_str(&self.creation_detail(to_create, may_create));
        }
        s.push(' ');
        s.push_str(&crate::topology::configure::undecided_detail(undecided));
        s
    }

    /// What creation has done for `missing` (starts with a space).
    fn creation_detail(&self, missing: &[ConfiguredInternalTopic], may_create: bool) -> String {
        let names: Vec<&str> = missing.iter().map(|t| t.name.as_str()).collect();
        let mut s = String::new();
        if let Some(p) = &self.in_flight {
            let creating: Vec<&str> = p.topics.iter().map(|t| t.name.as_str()).collect();
            s.push_str(&format!(
                " Creation of {} requested (attempt {}), completes at {} ms.",
                creating.join(", "),
                self.attempts,
                p.completes_at_ms
            ));
        } else if !may_create {
            s.push_str(&format!(
                " Unauthorized to CREATE on topics {}: creating them needs CREATE on the cluster or on each topic, so no creation is attempted.",
                names.join(", ")
            ));
        } else if let Some(f) = &self.last_failure {
            s.push_str(&format!(
                " Creation attempt {} failed: {f}. Next attempt at {} ms or later.",
                self.attempts, self.next_attempt_at_ms
            ));
        } else {
            s.push_str(" Creation not attempted yet.");
        }
        s
    }
}
