//! The coordinator's configuration (API.md, `new Coordinator(config?)`): plain camelCase.

use crate::protocol::json::{count, count_opt, int64, Invalid, Validate};
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

/// Every field is optional in JSON; absent ones take the defaults below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct CoordinatorConfig {
    /// Default "sticky".
    #[serde(deserialize_with = "assignor_name")]
    #[ts(optional = nullable, type = "AssignorName")]
    pub assignor: String,
    /// Default 5000.
    #[ts(optional = nullable)]
    pub heartbeat_interval_ms: i32,
    /// Default 45000: a member silent this long is removed.
    #[ts(optional = nullable)]
    pub session_timeout_ms: i32,
    /// Default 0.
    #[serde(deserialize_with = "count")]
    #[ts(optional = nullable)]
    pub num_standby_replicas: u32,
    /// Default 10000: a warm-up is caught up below this lag.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub acceptable_recovery_lag: i64,
    /// Default 2: warm-up tasks in flight at once.
    #[serde(deserialize_with = "count")]
    #[ts(optional = nullable)]
    pub max_warmup_replicas: u32,
    /// Default 60000.
    #[ts(optional = nullable)]
    pub task_offset_interval_ms: i32,
    /// None = unlimited.
    #[serde(deserialize_with = "count_opt")]
    #[ts(optional = nullable)]
    pub group_max_size: Option<u32>,
    /// None = the cluster default.
    #[ts(optional = nullable)]
    pub internal_topic_replication_factor: Option<i16>,
    /// Default 0: seeds member-id generation, so runs are reproducible.
    #[serde(deserialize_with = "seed")]
    #[ts(optional = nullable)]
    pub seed: u64,
    /// Default true: fence members that do not revoke within their rebalanceTimeoutMs.
    #[ts(optional = nullable)]
    pub rebalance_timeout_enabled: bool,
    /// Default 0: simulated time a topic creation takes.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub internal_topic_creation_delay_ms: i64,
    /// Default 1000: first retry delay after a failed creation, doubling up to 30000.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub internal_topic_creation_backoff_ms: i64,
    /// Default 3: the simulated cluster's default replication factor.
    #[ts(optional = nullable)]
    pub default_replication_factor: i16,
    /// Default 0: the first assignment of a new or emptied group waits this long
    /// (Kafka's `group.streams.initial.rebalance.delay.ms`, 3000 there).
    #[ts(optional = nullable)]
    pub initial_rebalance_delay_ms: i32,
    /// The bounds of a group's own configs (`setGroupConfig(groupId, ...)`), Kafka's
    /// `group.streams.{min,max}.session.timeout.ms` (45000, 60000),
    /// `group.streams.{min,max}.heartbeat.interval.ms` (5000, 15000),
    /// `group.streams.max.standby.replicas` (2) and `group.streams.max.warmup.replicas`
    /// (20). The coordinator's own configs above are not held to them.
    #[ts(optional = nullable)]
    pub min_session_timeout_ms: i32,
    #[ts(optional = nullable)]
    pub max_session_timeout_ms: i32,
    #[ts(optional = nullable)]
    pub min_heartbeat_interval_ms: i32,
    #[ts(optional = nullable)]
    pub max_heartbeat_interval_ms: i32,
    #[serde(deserialize_with = "count")]
    #[ts(optional = nullable)]
    pub max_standby_replicas: u32,
    #[serde(deserialize_with = "count")]
    #[ts(optional = nullable)]
    pub max_warmup_replicas_limit: u32,
    /// Default and largest 256 MiB: the memory budget of member metadata, topologies
    /// and the live records (each byte counted three times: state or live record,
    /// replaced record, room for what follows); a join or heartbeat that would pass it
    /// is GROUP_MAX_SIZE_REACHED, and `fromRecords` reads a log of up to this many
    /// bytes of JSON (at least 32 MiB; README, "Limits").
    #[serde(with = "int64", skip_serializing_if = "is_default_budget")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub max_state_bytes: i64,
}

fn is_default_budget(v: &i64) -> bool {
    *v == crate::limits::DEFAULT_MAX_STATE_BYTES as i64
}

impl Default for CoordinatorConfig {
    fn default() -> Self {
        CoordinatorConfig {
            assignor: "sticky".to_owned(),
            heartbeat_interval_ms: 5000,
            session_timeout_ms: 45000,
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
            task_offset_interval_ms: 60_000,
            group_max_size: None,
            internal_topic_replication_factor: None,
            seed: 0,
            rebalance_timeout_enabled: true,
            internal_topic_creation_delay_ms: 0,
            internal_topic_creation_backoff_ms: 1000,
            default_replication_factor: 3,
            max_state_bytes: crate::limits::DEFAULT_MAX_STATE_BYTES as i64,
            initial_rebalance_delay_ms: 0,
            min_session_timeout_ms: 45_000,
            max_session_timeout_ms: 60_000,
            min_heartbeat_interval_ms: 5_000,
            max_heartbeat_interval_ms: 15_000,
            max_standby_replicas: 2,
            max_warmup_replicas_limit: 20,
        }
    }
}

impl Validate for CoordinatorConfig {
    fn validate(&self) -> Result<(), Invalid> {
        at_least(self.heartbeat_interval_ms, 1, "heartbeatIntervalMs")?;
        at_least(self.session_timeout_ms, 1, "sessionTimeoutMs")?;
        at_least(self.acceptable_recovery_lag, 0, "acceptableRecoveryLag")?;
        at_least(self.task_offset_interval_ms, 0, "taskOffsetIntervalMs")?;
        if let Some(r) = self.internal_topic_replication_factor {
            at_least(r, 1, "internalTopicReplicationFactor")?;
        }
        at_least(
            self.internal_topic_creation_delay_ms,
            0,
            "internalTopicCreationDelayMs",
        )?;
        at_least(
            self.internal_topic_creation_backoff_ms,
            0,
            "internalTopicCreationBackoffMs",
        )?;
        at_least(
            self.default_replication_factor,
            1,
            "defaultReplicationFactor",
        )?;
        at_least(
            self.initial_rebalance_delay_ms,
            0,
            "initialRebalanceDelayMs",
        )?;
        at_least(self.min_session_timeout_ms, 1, "minSessionTimeoutMs")?;
        at_least(
            self.max_session_timeout_ms,
            self.min_session_timeout_ms,
            "maxSessionTimeoutMs",
        )?;
        at_least(self.min_heartbeat_interval_ms, 1, "minHeartbeatIntervalMs")?;
        at_least(
            self.max_heartbeat_interval_ms,
            self.min_heartbeat_interval_ms,
            "maxHeartbeatIntervalMs",
        )?;
        at_least(self.max_state_bytes, 0, "maxStateBytes")?;
        let max = crate::limits::MAX_STATE_BYTES as i64;
        if self.max_state_bytes > max {
            return Err(Invalid::new(
                "maxStateBytes",
                format!(
                    "{} is above the maximum {max} (the record log of a larger state would not fit through records() and fromRecords in one WebAssembly instance)",
                    self.max_state_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// Upper bound of the back-off between internal topic creation attempts.
pub const MAX_CREATION_BACKOFF_MS: i64 = 30_000;

pub(crate) fn at_least<T: PartialOrd + std::fmt::Display + Copy>(
    v: T,
    min: T,
    key: &str,
) -> Result<(), Invalid> {
    if v < min {
        Err(Invalid::new(key, format!("{v} is below the minimum {min}")))
    } else {
        Ok(())
    }
}

/// The error for an assignor name that is not one of ours.
pub(crate) fn unknown_assignor(name: &str) -> String {
    format!(
        "unknown assignor {:?}; known: {}",
        crate::protocol::json::truncate(name, 40),
        crate::assignor::NAMES.join(", ")
    )
}

/// An assignor name that must be one of ours.
pub(crate) fn assignor_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    if crate::assignor::by_name(&name).is_none() {
        return Err(serde::de::Error::custom(unknown_assignor(&name)));
    }
    Ok(name)
}

/// `Option` of `assignor_name`.
pub(crate) fn assignor_name_opt<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(transparent)]
    struct A(#[serde(deserialize_with = "assignor_name")] String);
    Ok(Option::<A>::deserialize(d)?.map(|a| a.0))
}

/// Any int64; a negative seed wraps (as it always has).
fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    int64::deserialize(d).map(|s| s as u64)
}
