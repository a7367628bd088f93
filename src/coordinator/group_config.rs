//! Group configs changed at run time (`setGroupConfig`): the assignor and the
//! parameters it reads. They apply to every streams group of this coordinator. A change
//! is a record, so a rebuilt coordinator has it too; and as Kafka does when
//! num.standby.replicas changes (PROTOCOL.md §7.3), the next heartbeat of each
//! streams group bumps its group epoch, so the next target is computed with it.
//!
//! The bump rides on the group's metadata hash: the hash recorded at a bump is the
//! configured topology's hash mixed with `assignment_config_hash`, which is 0 until a
//! GroupConfig record is applied (logs without one replay unchanged, whatever config a
//! rebuilt coordinator is given) and a hash of the recorded configs after.

use super::records::{GroupConfigValue, RecordKey, RecordValue};
use super::replay::fnv64;
use super::Coordinator;
use crate::config::{assignor_name_opt, at_least, CoordinatorConfig};
use crate::protocol::json::{count_opt, int64_opt, InputError, Invalid, Validate};
use serde::Deserialize;
use ts_rs::TS;

/// The configs to change; absent ones stay as they are.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct GroupConfigUpdate {
    #[serde(default, deserialize_with = "assignor_name_opt")]
    #[ts(optional = nullable, type = "AssignorName | null")]
    pub assignor: Option<String>,
    #[serde(default, deserialize_with = "count_opt")]
    #[ts(optional = nullable)]
    pub num_standby_replicas: Option<u32>,
    #[serde(default, with = "int64_opt")]
    #[ts(type = "Int64Input | null")]
    #[ts(optional = nullable)]
    pub acceptable_recovery_lag: Option<i64>,
    #[serde(default, deserialize_with = "count_opt")]
    #[ts(optional = nullable)]
    pub max_warmup_replicas: Option<u32>,
}

impl Validate for GroupConfigUpdate {
    fn validate(&self) -> Result<(), Invalid> {
        match self.acceptable_recovery_lag {
            Some(l) => at_least(l, 0, "acceptableRecoveryLag"),
            None => Ok(()),
        }
    }
}

/// The assignment-relevant configs of `c`.
pub fn group_config_of(c: &CoordinatorConfig) -> GroupConfigValue {
    GroupConfigValue {
        assignor: c.assignor.clone(),
        num_standby_replicas: c.num_standby_replicas,
        acceptable_recovery_lag: c.acceptable_recovery_lag,
        max_warmup_replicas: c.max_warmup_replicas,
    }
}

/// What an assignment depends on among the configs: the assignor and the standby
/// count always, the acceptable lag and the warm-up budget only for an assignor that
/// reads them. Only a change of this bumps a group epoch (PROTOCOL.md §7.3).
pub(crate) fn assignment_inputs(v: &GroupConfigValue) -> String {
    if crate::assignor::reads_warmup_configs(&v.assignor) {
        format!(
            "{}|{}|{}|{}",
            v.assignor, v.num_standby_replicas, v.acceptable_recovery_lag, v.max_warmup_replicas
        )
    } else {
        format!("{}|{}", v.assignor, v.num_standby_replicas)
    }
}

pub(crate) fn settings_hash(v: &GroupConfigValue) -> u64 {
    fnv64(assignment_inputs(v).as_bytes())
}

/// The hash logs written before `assignment_inputs` used: all four configs, whatever
/// the assignor (the same as `settings_hash` under `highly_available`).
pub(crate) fn legacy_settings_hash(v: &GroupConfigValue) -> u64 {
    fnv64(
        format!(
            "{}|{}|{}|{}",
            v.assignor, v.num_standby_replicas, v.acceptable_recovery_lag, v.max_warmup_replicas
        )
        .as_bytes(),
    )
}

impl Coordinator {
    /// The assignment-relevant configs now in force.
    pub fn group_config(&self) -> GroupConfigValue {
        group_config_of(&self.config)
    }

    /// Changes the group configs (a record when anything changes). Returns the configs
    /// now in force; an invalid value is an error that changes nothing.
    pub fn set_group_config(
        &mut self,
        update: &GroupConfigUpdate,
    ) -> Result<GroupConfigValue, InputError> {
        let current = self.group_config();
        let mut next = current.clone();
        let invalid = |path: &str, message: String| InputError::Invalid {
            what: "group config".to_owned(),
            path: path.to_owned(),
            message,
        };
        if let Some(a) = &update.assignor {
            if crate::assignor::by_name(a).is_none() {
                return Err(invalid("assignor", crate::config::unknown_assignor(a)));
            }
            next.assignor = a.clone();
        }
        if let Some(l) = update.acceptable_recovery_lag {
            update.validate().map_err(|e| invalid(&e.path, e.message))?;
            next.acceptable_recovery_lag = l;
        }
        if let Some(n) = update.num_standby_replicas {
            next.num_standby_replicas = n;
        }
        if let Some(n) = update.max_warmup_replicas {
            next.max_warmup_replicas = n;
        }
        if next != current {
            let before: Vec<(String, String, u64)> = self
                .groups
                .keys()
                .map(|g| {
                    (
                        g.clone(),
                        assignment_inputs(&self.group_settings(g).assignment()),
                        self.config_hash_of(g),
                    )
                })
                .collect();
            self.write(
                RecordKey::GroupConfig {},
                Some(RecordValue::GroupConfig(next.clone())),
            );
            for (g, inputs, old_hash) in before {
                if assignment_inputs(&self.group_settings(&g).assignment()) == inputs {
                    self.rebase_group_hash(&g, old_hash, self.config_hash_of(&g));
                }
            }
        }
        Ok(next)
    }

    /// Applies a GroupConfig record.
    pub(crate) fn apply_group_config(&mut self, v: &GroupConfigValue) {
        self.config.assignor = v.assignor.clone();
        self.config.num_standby_replicas = v.num_standby_replicas;
        self.config.acceptable_recovery_lag = v.acceptable_recovery_lag;
        self.config.max_warmup_replicas = v.max_warmup_replicas;
        self.assignment_config_hash = settings_hash(v);
    }
}
