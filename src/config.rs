//! The coordinator's configuration (API.md, `new Coordinator(config?)`): plain camelCase.

use crate::from_json_struct;
use crate::protocol::json::{DecodeError, FromJson, Path};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoordinatorConfig {
    pub assignor: String,
    pub heartbeat_interval_ms: i32,
    pub session_timeout_ms: i32,
    pub num_standby_replicas: u32,
    pub acceptable_recovery_lag: i64,
    pub max_warmup_replicas: u32,
    pub task_offset_interval_ms: i32,
    /// None = unlimited.
    pub group_max_size: Option<u32>,
    /// None = the cluster default.
    pub internal_topic_replication_factor: Option<i16>,
    pub seed: u64,
    pub rebalance_timeout_enabled: bool,
    pub internal_topic_creation_delay_ms: i64,
    pub internal_topic_creation_backoff_ms: i64,
    pub default_replication_factor: i16,
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
        }
    }
}

/// Upper bound of the back-off between internal topic creation attempts.
pub const MAX_CREATION_BACKOFF_MS: i64 = 30_000;

pub(crate) fn at_least<T: PartialOrd + std::fmt::Display + Copy>(
    v: T,
    min: T,
    path: &Path<'_>,
    key: &'static str,
) -> Result<T, DecodeError> {
    if v < min {
        Err(DecodeError::new(
            &path.key(key),
            format!("{v} is below the minimum {min}"),
        ))
    } else {
        Ok(v)
    }
}

/// A non-negative integer config value that fits in u32.
#[derive(Clone, Copy)]
pub(crate) struct Count(pub(crate) u32);

impl FromJson for Count {
    const EXPECTED: &'static str = "a non-negative integer";
    const PLURAL: &'static str = "non-negative integers";
    fn from_json(v: &serde_json::Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let i = i64::from_json(v, path)?;
        u32::try_from(i)
            .map(Count)
            .map_err(|_| DecodeError::new(path, format!("{i} is not a non-negative int32")))
    }
}

from_json_struct!(
    CoordinatorConfig,
    "a config object",
    "config objects",
    |f| {
        let d = CoordinatorConfig::default();
        let path = *f.path();
        let assignor: String = f.or("assignor", d.assignor.clone())?;
        if crate::assignor::by_name(&assignor).is_none() {
            return Err(DecodeError::new(
                &path.key("assignor"),
                format!(
                    "unknown assignor {:?}; known: {}",
                    crate::protocol::json::truncate(&assignor, 40),
                    crate::assignor::NAMES.join(", ")
                ),
            ));
        }
        let heartbeat_interval_ms = at_least(
            f.or("heartbeatIntervalMs", d.heartbeat_interval_ms)?,
            1,
            &path,
            "heartbeatIntervalMs",
        )?;
        let session_timeout_ms = at_least(
            f.or("sessionTimeoutMs", d.session_timeout_ms)?,
            1,
            &path,
            "sessionTimeoutMs",
        )?;
        let group_max_size: Option<Count> = f.or("groupMaxSize", None)?;
        let rf: Option<i16> = f.or("internalTopicReplicationFactor", None)?;
        if let Some(r) = rf {
            at_least(r, 1, &path, "internalTopicReplicationFactor")?;
        }
        Ok(CoordinatorConfig {
            assignor,
            heartbeat_interval_ms,
            session_timeout_ms,
            num_standby_replicas: f.or("numStandbyReplicas", Count(d.num_standby_replicas))?.0,
            acceptable_recovery_lag: at_least(
                f.or("acceptableRecoveryLag", d.acceptable_recovery_lag)?,
                0,
                &path,
                "acceptableRecoveryLag",
            )?,
            max_warmup_replicas: f.or("maxWarmupReplicas", Count(d.max_warmup_replicas))?.0,
            task_offset_interval_ms: at_least(
                f.or("taskOffsetIntervalMs", d.task_offset_interval_ms)?,
                0,
                &path,
                "taskOffsetIntervalMs",
            )?,
            group_max_size: group_max_size.map(|c| c.0),
            internal_topic_replication_factor: rf,
            seed: f.or::<i64>("seed", 0)? as u64,
            rebalance_timeout_enabled: f
                .or("rebalanceTimeoutEnabled", d.rebalance_timeout_enabled)?,
            internal_topic_creation_delay_ms: at_least(
                f.or(
                    "internalTopicCreationDelayMs",
                    d.internal_topic_creation_delay_ms,
                )?,
                0,
                &path,
                "internalTopicCreationDelayMs",
            )?,
            internal_topic_creation_backoff_ms: at_least(
                f.or(
                    "internalTopicCreationBackoffMs",
                    d.internal_topic_creation_backoff_ms,
                )?,
                0,
                &path,
                "internalTopicCreationBackoffMs",
            )?,
            default_replication_factor: at_least(
                f.or("defaultReplicationFactor", d.default_replication_factor)?,
                1,
                &path,
                "defaultReplicationFactor",
            )?,
        })
    }
);
