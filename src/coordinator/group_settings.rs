//! Per-group configs, as Kafka's group configs (IncrementalAlterConfigs on a GROUP
//! resource, PROTOCOL.md §7.4): `setGroupConfig(groupId, {...})` overrides the
//! coordinator's session timeout, heartbeat interval, standby count, initial rebalance
//! delay, assignor and assignment configs for one group; what a group does not set
//! falls back to the coordinator's. Values are checked against the coordinator's
//! bounds with Kafka's error (INVALID_CONFIG) and messages; a change is a
//! `StreamsGroupConfig` record, so `fromRecords` restores it.

use super::group_config::{assignment_inputs, settings_hash};
use super::records::{
    GroupConfigValue, GroupMetadataValue, RecordKey, RecordValue, StreamsGroupConfigValue,
};
use super::Coordinator;
use crate::protocol::json::{count, int64, Invalid, Validate};
use crate::protocol::ErrorCode::{self, *};
use serde::{Deserialize, Deserializer, Serialize};
use ts_rs::TS;

/// Kafka's names of the group configs, by our camelCase name.
pub const KAFKA_NAMES: [(&str, &str); 7] = [
    ("sessionTimeoutMs", "streams.session.timeout.ms"),
    ("heartbeatIntervalMs", "streams.heartbeat.interval.ms"),
    ("numStandbyReplicas", "streams.num.standby.replicas"),
    (
        "initialRebalanceDelayMs",
        "streams.initial.rebalance.delay.ms",
    ),
    ("assignor", "streams.assignor.name"),
    ("acceptableRecoveryLag", "streams.acceptable.recovery.lag"),
    ("maxWarmupReplicas", "streams.num.warmup.replicas"),
];

/// Absent: unchanged; null: back to the coordinator's value; a value: set.
fn change<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

fn count_change<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(transparent)]
    struct C(#[serde(deserialize_with = "count")] u32);
    Ok(Some(Option::<C>::deserialize(d)?.map(|c| c.0)))
}

fn int64_change<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(transparent)]
    struct L(#[serde(with = "int64")] i64);
    Ok(Some(Option::<L>::deserialize(d)?.map(|l| l.0)))
}

/// `setGroupConfig(groupId, change)`: camelCase names or Kafka's dotted ones.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct GroupConfigChange {
    #[serde(
        default,
        alias = "streams.session.timeout.ms",
        deserialize_with = "change"
    )]
    #[ts(optional = nullable, type = "number | null")]
    pub session_timeout_ms: Option<Option<i32>>,
    #[serde(
        default,
        alias = "streams.heartbeat.interval.ms",
        deserialize_with = "change"
    )]
    #[ts(optional = nullable, type = "number | null")]
    pub heartbeat_interval_ms: Option<Option<i32>>,
    #[serde(
        default,
        alias = "streams.num.standby.replicas",
        deserialize_with = "count_change"
    )]
    #[ts(optional = nullable, type = "number | null")]
    pub num_standby_replicas: Option<Option<u32>>,
    #[serde(
        default,
        alias = "streams.initial.rebalance.delay.ms",
        deserialize_with = "change"
    )]
    #[ts(optional = nullable, type = "number | null")]
    pub initial_rebalance_delay_ms: Option<Option<i32>>,
    #[serde(default, alias = "streams.assignor.name", deserialize_with = "change")]
    #[ts(optional = nullable, type = "string | null")]
    pub assignor: Option<Option<String>>,
    #[serde(
        default,
        alias = "streams.acceptable.recovery.lag",
        deserialize_with = "int64_change"
    )]
    #[ts(optional = nullable, type = "Int64Input | null")]
    pub acceptable_recovery_lag: Option<Option<i64>>,
    #[serde(
        default,
        alias = "streams.num.warmup.replicas",
        deserialize_with = "count_change"
    )]
    #[ts(optional = nullable, type = "number | null")]
    pub max_warmup_replicas: Option<Option<u32>>,
}

impl Validate for GroupConfigChange {}

/// The configs one group uses (`describeGroupConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupSettings {
    pub group_id: String,
    pub session_timeout_ms: i32,
    pub heartbeat_interval_ms: i32,
    pub num_standby_replicas: u32,
    pub initial_rebalance_delay_ms: i32,
    pub assignor: String,
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub acceptable_recovery_lag: i64,
    pub max_warmup_replicas: u32,
    /// The configs the group sets itself (camelCase names); the rest are the
    /// coordinator's.
    pub overridden: Vec<String>,
}

impl GroupSettings {
    /// The assignment configs among them (what the group's metadata hash reads).
    pub fn assignment(&self) -> GroupConfigValue {
        GroupConfigValue {
            assignor: self.assignor.clone(),
            num_standby_replicas: self.num_standby_replicas,
            acceptable_recovery_lag: self.acceptable_recovery_lag,
            max_warmup_replicas: self.max_warmup_replicas,
        }
    }
}

/// `setGroupConfig(groupId, ...)`'s answer: Kafka's error code and message for the
/// group's resource, and the configs in force after the change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupConfigResult {
    pub group_id: String,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub config: GroupSettings,
}

fn invalid_config(message: String) -> (ErrorCode, String) {
    (INVALID_CONFIG, message)
}

fn at_least(key: &str, value: i64, min: i64) -> Result<(), (ErrorCode, String)> {
    if value < min {
        return Err(invalid_config(format!(
            "Invalid value {value} for configuration {key}: Value must be at least {min}"
        )));
    }
    Ok(())
}

fn in_range(key: &str, value: i32, min: i32, max: i32) -> Result<(), (ErrorCode, String)> {
    if value < min || value > max {
        return Err(invalid_config(format!(
            "{key} must be in the range {min} to {max} inclusive."
        )));
    }
    Ok(())
}

fn at_most(key: &str, value: u32, max: u32) -> Result<(), (ErrorCode, String)> {
    if value > max {
        return Err(invalid_config(format!(
            "{key} must be less than or equal to {max}"
        )));
    }
    Ok(())
}

/// `base` with `change` applied (absent: kept, null: removed).
fn apply_change(
    base: &StreamsGroupConfigValue,
    change: &GroupConfigChange,
) -> StreamsGroupConfigValue {
    fn pick<T: Clone>(old: &Option<T>, new: &Option<Option<T>>) -> Option<T> {
        match new {
            None => old.clone(),
            Some(v) => v.clone(),
        }
    }
    StreamsGroupConfigValue {
        session_timeout_ms: pick(&base.session_timeout_ms, &change.session_timeout_ms),
        heartbeat_interval_ms: pick(&base.heartbeat_interval_ms, &change.heartbeat_interval_ms),
        num_standby_replicas: pick(&base.num_standby_replicas, &change.num_standby_replicas),
        initial_rebalance_delay_ms: pick(
            &base.initial_rebalance_delay_ms,
            &change.initial_rebalance_delay_ms,
        ),
        assignor: pick(&base.assignor, &change.assignor),
        acceptable_recovery_lag: pick(
            &base.acceptable_recovery_lag,
            &change.acceptable_recovery_lag,
        ),
        max_warmup_replicas: pick(&base.max_warmup_replicas, &change.max_warmup_replicas),
    }
}

fn is_empty(v: &StreamsGroupConfigValue) -> bool {
    *v == StreamsGroupConfigValue::default()
}

impl Coordinator {
    /// The configs `group_id` uses: its overrides over the coordinator's.
    pub fn group_settings(&self, group_id: &str) -> GroupSettings {
        let o = self.group_overrides.get(group_id);
        self.settings_with(group_id, o)
    }

    fn settings_with(&self, group_id: &str, o: Option<&StreamsGroupConfigValue>) -> GroupSettings {
        let c = &self.config;
        let empty = StreamsGroupConfigValue::default();
        let o = o.unwrap_or(&empty);
        let mut overridden = Vec::new();
        let mut note = |set: bool, name: &str| {
            if set {
                overridden.push(name.to_owned());
            }
        };
        note(o.session_timeout_ms.is_some(), "sessionTimeoutMs");
        note(o.heartbeat_interval_ms.is_some(), "heartbeatIntervalMs");
        note(o.num_standby_replicas.is_some(), "numStandbyReplicas");
        note(
            o.initial_rebalance_delay_ms.is_some(),
            "initialRebalanceDelayMs",
        );
        note(o.assignor.is_some(), "assignor");
        note(o.acceptable_recovery_lag.is_some(), "acceptableRecoveryLag");
        note(o.max_warmup_replicas.is_some(), "maxWarmupReplicas");
        GroupSettings {
            group_id: group_id.to_owned(),
            session_timeout_ms: o.session_timeout_ms.unwrap_or(c.session_timeout_ms),
            heartbeat_interval_ms: o.heartbeat_interval_ms.unwrap_or(c.heartbeat_interval_ms),
            num_standby_replicas: o.num_standby_replicas.unwrap_or(c.num_standby_replicas),
            initial_rebalance_delay_ms: o
                .initial_rebalance_delay_ms
                .unwrap_or(c.initial_rebalance_delay_ms),
            assignor: o.assignor.clone().unwrap_or_else(|| c.assignor.clone()),
            acceptable_recovery_lag: o
                .acceptable_recovery_lag
                .unwrap_or(c.acceptable_recovery_lag),
            max_warmup_replicas: o.max_warmup_replicas.unwrap_or(c.max_warmup_replicas),
            overridden,
        }
    }

    /// The session timeout of `group_id`'s members.
    pub(crate) fn session_timeout_of(&self, group_id: &str) -> i32 {
        self.group_overrides
            .get(group_id)
            .and_then(|o| o.session_timeout_ms)
            .unwrap_or(self.config.session_timeout_ms)
    }

    /// The heartbeat interval sent to `group_id`'s members.
    pub(crate) fn heartbeat_interval_of(&self, group_id: &str) -> i32 {
        self.group_overrides
            .get(group_id)
            .and_then(|o| o.heartbeat_interval_ms)
            .unwrap_or(self.config.heartbeat_interval_ms)
    }

    /// The acceptable recovery lag of `group_id` (sent to its members).
    pub(crate) fn recovery_lag_of(&self, group_id: &str) -> i64 {
        self.group_overrides
            .get(group_id)
            .and_then(|o| o.acceptable_recovery_lag)
            .unwrap_or(self.config.acceptable_recovery_lag)
    }

    /// The initial rebalance delay of `group_id` (PROTOCOL.md §4.1).
    pub(crate) fn initial_delay_of(&self, group_id: &str) -> i32 {
        self.group_overrides
            .get(group_id)
            .and_then(|o| o.initial_rebalance_delay_ms)
            .unwrap_or(self.config.initial_rebalance_delay_ms)
    }

    /// The assignor the next target of `group_id` is computed with.
    pub fn assignor_of(&self, group_id: &str) -> &str {
        self.group_overrides
            .get(group_id)
            .and_then(|o| o.assignor.as_deref())
            .unwrap_or(&self.config.assignor)
    }

    /// The hash of the assignment configs mixed into `group_id`'s metadata hash: the
    /// coordinator's (0 before any GroupConfig record, `group_config`) unless the group
    /// sets some of its own.
    pub(crate) fn config_hash_of(&self, group_id: &str) -> u64 {
        match self.group_overrides.get(group_id) {
            None => self.assignment_config_hash,
            Some(o) => settings_hash(&self.settings_with(group_id, Some(o)).assignment()),
        }
    }

    /// The rule Kafka checks a group config against, with its message.
    fn check_group_config(
        &self,
        next: &StreamsGroupConfigValue,
    ) -> Result<(), (ErrorCode, String)> {
        let c = &self.config;
        if let Some(v) = next.session_timeout_ms {
            at_least("streams.session.timeout.ms", i64::from(v), 1)?;
            in_range(
                "streams.session.timeout.ms",
                v,
                c.min_session_timeout_ms,
                c.max_session_timeout_ms,
            )?;
        }
        if let Some(v) = next.heartbeat_interval_ms {
            at_least("streams.heartbeat.interval.ms", i64::from(v), 1)?;
            in_range(
                "streams.heartbeat.interval.ms",
                v,
                c.min_heartbeat_interval_ms,
                c.max_heartbeat_interval_ms,
            )?;
        }
        if let Some(v) = next.num_standby_replicas {
            at_most("streams.num.standby.replicas", v, c.max_standby_replicas)?;
        }
        if let Some(v) = next.initial_rebalance_delay_ms {
            at_least("streams.initial.rebalance.delay.ms", i64::from(v), 0)?;
        }
        if let Some(v) = next.acceptable_recovery_lag {
            at_least("streams.acceptable.recovery.lag", v, 0)?;
        }
        if let Some(v) = next.max_warmup_replicas {
            at_most(
                "streams.num.warmup.replicas",
                v,
                c.max_warmup_replicas_limit,
            )?;
        }
        if let Some(a) = &next.assignor {
            if crate::assignor::by_name(a).is_none() {
                return Err(invalid_config(format!(
                    "streams.assignor.name '{}' is not a registered task assignor. Registered assignors are: [{}].",
                    crate::protocol::json::truncate(a, 40),
                    crate::assignor::NAMES.join(", ")
                )));
            }
        }
        if next.session_timeout_ms.is_some() || next.heartbeat_interval_ms.is_some() {
            let session = next.session_timeout_ms.unwrap_or(c.session_timeout_ms);
            let heartbeat = next
                .heartbeat_interval_ms
                .unwrap_or(c.heartbeat_interval_ms);
            if session <= heartbeat {
                return Err(invalid_config(
                    "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"
                        .to_owned(),
                ));
            }
        }
        Ok(())
    }

    /// `setGroupConfig(groupId, change)`: checks (nothing changes on an error), records
    /// the group's new overrides, and answers with the configs in force. A change of
    /// what the assignment reads bumps the group epoch on the group's next heartbeat
    /// (PROTOCOL.md §7.3); any other change bumps nothing.
    pub fn set_group_config_for(
        &mut self,
        group_id: &str,
        change: &GroupConfigChange,
    ) -> GroupConfigResult {
        let base = self
            .group_overrides
            .get(group_id)
            .cloned()
            .unwrap_or_default();
        let next = apply_change(&base, change);
        let refusal = if group_id.is_empty() {
            Some((INVALID_GROUP_ID, "Group id can't be empty.".to_owned()))
        } else if self.consumer_groups.contains_key(group_id) {
            Some((
                INVALID_REQUEST,
                format!("Group {group_id} is not a streams group."),
            ))
        } else if !self.group_overrides.contains_key(group_id)
            && self.group_overrides.len() >= crate::limits::MAX_GROUPS
            && !is_empty(&next)
        {
            Some((
                INVALID_CONFIG,
                format!(
                    "At most {} groups may have group configs.",
                    crate::limits::MAX_GROUPS
                ),
            ))
        } else {
            self.check_group_config(&next).err()
        };
        if let Some((code, message)) = refusal {
            return GroupConfigResult {
                group_id: group_id.to_owned(),
                error_code: code.code(),
                error_message: Some(message),
                config: self.group_settings(group_id),
            };
        }
        if next != base {
            let before = self.group_settings(group_id).assignment();
            let old_hash = self.config_hash_of(group_id);
            let value = (!is_empty(&next)).then_some(RecordValue::StreamsGroupConfig(next));
            self.write(
                RecordKey::StreamsGroupConfig {
                    group_id: group_id.to_owned(),
                },
                value,
            );
            let after = self.group_settings(group_id).assignment();
            if assignment_inputs(&before) == assignment_inputs(&after) {
                self.rebase_group_hash(group_id, old_hash, self.config_hash_of(group_id));
            }
        }
        GroupConfigResult {
            group_id: group_id.to_owned(),
            error_code: NONE.code(),
            error_message: None,
            config: self.group_settings(group_id),
        }
    }

    /// The group's recorded metadata hash moves from `old` to `new` (a config change no
    /// assignment reads): no bump follows it, and a bump already due stays due.
    pub(crate) fn rebase_group_hash(&mut self, group_id: &str, old: u64, new: u64) {
        if old == new {
            return;
        }
        let Some(g) = self.groups.get(group_id) else {
            return;
        };
        let v = GroupMetadataValue {
            epoch: g.group_epoch,
            metadata_hash: (g.metadata_hash ^ old ^ new) as i64,
            shutdown_requester: g.shutdown_requester.clone(),
        };
        self.write(
            RecordKey::GroupMetadata {
                group_id: group_id.to_owned(),
            },
            Some(RecordValue::GroupMetadata(v)),
        );
    }

    /// Applies a StreamsGroupConfig record (a tombstone: no overrides).
    pub(crate) fn apply_group_overrides(&mut self, group_id: &str, v: Option<&RecordValue>) {
        match v {
            Some(RecordValue::StreamsGroupConfig(o)) => {
                self.group_overrides.insert(group_id.to_owned(), o.clone());
            }
            _ => {
                self.group_overrides.remove(group_id);
            }
        }
    }
}

impl Validate for StreamsGroupConfigValue {
    fn validate(&self) -> Result<(), Invalid> {
        let positive = |v: Option<i32>, key: &str| match v {
            Some(v) if v < 1 => Err(Invalid::new(key, format!("{v} is below the minimum 1"))),
            _ => Ok(()),
        };
        positive(self.session_timeout_ms, "sessionTimeoutMs")?;
        positive(self.heartbeat_interval_ms, "heartbeatIntervalMs")?;
        if let Some(v) = self.initial_rebalance_delay_ms {
            crate::config::at_least(v, 0, "initialRebalanceDelayMs")?;
        }
        if let Some(v) = self.acceptable_recovery_lag {
            crate::config::at_least(v, 0, "acceptableRecoveryLag")?;
        }
        Ok(())
    }
}
