//! The coordinator's creation of missing internal topics (SPEC.md section 5): at most
//! one creation in flight per group, exponential back-off after failures, none without
//! CREATE permission. Completion is simulated after a configurable delay on the
//! coordinator's clock.
//!
//! Minimal version: creates at once when allowed. The topology issue completes it.

use crate::cluster::Cluster;
use crate::topology::ConfiguredInternalTopic;

/// What happened to a creation, reported by `advance` as coordinator events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreationEvent {
    Created { topics: Vec<String> },
    Failed { topics: Vec<String>, reason: String },
    ConfigMismatch { topic: String, detail: String },
}

/// Per-group creation state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InternalTopicCreation {
    pub in_flight: Option<PendingCreation>,
    pub last_failure: Option<String>,
    pub attempts: u32,
    pub next_attempt_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
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
        self.attempts += 1;
        self.in_flight = Some(PendingCreation {
            topics: missing.to_vec(),
            completes_at_ms: now_ms + settings.delay_ms.max(0),
        });
        true
    }

    /// The next time `advance` has work to do.
    pub fn next_deadline(&self) -> Option<i64> {
        self.in_flight.as_ref().map(|p| p.completes_at_ms)
    }

    /// Completes a due creation against the cluster.
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
        for t in &p.topics {
            let rf = if t.replication_factor > 0 {
                t.replication_factor
            } else {
                settings.replication_factor
            };
            let configs = t
                .topic_configs
                .iter()
                .map(|kv| (kv.key.clone(), kv.value.clone()))
                .collect();
            let r = cluster.create_topic(&t.name, t.partitions, rf, configs);
            if r.error_code == crate::protocol::ErrorCode::NONE {
                created.push(t.name.clone());
            }
        }
        self.last_failure = None;
        vec![CreationEvent::Created { topics: created }]
    }

    /// The MISSING_INTERNAL_TOPICS detail.
    pub fn detail(&self, missing: &[ConfiguredInternalTopic], may_create: bool) -> String {
        let names: Vec<&str> = missing.iter().map(|t| t.name.as_str()).collect();
        let mut s = format!("Internal topics are missing: {}", names.join(", "));
        if !may_create {
            s.push_str("; Unauthorized to CREATE on topics ");
            s.push_str(&names.join(", "));
        } else if self.in_flight.is_some() {
            s.push_str("; creation in progress");
        }
        s
    }
}
