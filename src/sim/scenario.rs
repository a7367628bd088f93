//! A scenario: the configs of a simulation plus a list of timed actions. Plain JSON,
//! so a page URL or a file carries it, and replaying it gives the same event log.

use crate::config::CoordinatorConfig;
use crate::protocol::json::{
    int64, key_values_opt, list, Invalid, Tagged, TaggedVisitor, Validate,
};
use crate::protocol::{Endpoint, KeyValue, StreamsGroupHeartbeatRequest, Topology};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use ts_rs::TS;

/// The simulated clients' behaviour (how a real Kafka Streams process would take its time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct ClientConfig {
    /// Time a member needs to close revoked tasks before it confirms the revocation.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub revocation_delay_ms: i64,
    /// Time a member needs to start newly assigned tasks before it acknowledges them.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub assignment_delay_ms: i64,
    /// Changelog records a standby or warm-up task restores per second.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub restore_records_per_sec: i64,
    /// Every stateful task's changelog end offset (its state size, in records).
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub changelog_end_offset: i64,
    /// The pause between leaving and rejoining when a running process restarts.
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub restart_delay_ms: i64,
    /// Sent on join (Kafka Streams: max.poll.interval.ms).
    #[ts(optional = nullable)]
    pub rebalance_timeout_ms: i32,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            revocation_delay_ms: 500,
            assignment_delay_ms: 200,
            restore_records_per_sec: 10_000,
            changelog_end_offset: 100_000,
            restart_delay_ms: 2_000,
            rebalance_timeout_ms: 300_000,
        }
    }
}

/// A non-negative duration or count, checked at the boundary so arithmetic cannot overflow.
fn bounded(v: i64, key: &str, max: i64) -> Result<(), Invalid> {
    if !(0..=max).contains(&v) {
        return Err(Invalid::new(key, format!("{v} is out of range 0..={max}")));
    }
    Ok(())
}

/// Longest stretch of simulated time one call may cover (a year), so time never overflows.
pub const MAX_TIME_MS: i64 = 365 * 24 * 3600 * 1000;

impl Validate for ClientConfig {
    fn validate(&self) -> Result<(), Invalid> {
        if self.rebalance_timeout_ms <= 0 {
            return Err(Invalid::new(
                "rebalanceTimeoutMs",
                format!("{} must be positive", self.rebalance_timeout_ms),
            ));
        }
        bounded(self.revocation_delay_ms, "revocationDelayMs", MAX_TIME_MS)?;
        bounded(self.assignment_delay_ms, "assignmentDelayMs", MAX_TIME_MS)?;
        bounded(
            self.restore_records_per_sec,
            "restoreRecordsPerSec",
            1_000_000_000,
        )?;
        bounded(
            self.changelog_end_offset,
            "changelogEndOffset",
            1_000_000_000_000,
        )?;
        bounded(self.restart_delay_ms, "restartDelayMs", MAX_TIME_MS)
    }
}

/// A process to start: everything optional (API.md `addProcess`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct ProcessSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub process_id: Option<String>,
    /// Members (stream threads) this process runs; at most 64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub threads: Option<u32>,
    /// Static membership.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub rack_id: Option<String>,
    /// `[{ key, value }]` (an object is an input error).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "key_values_opt"
    )]
    #[ts(type = "Array<KeyValue> | null")]
    pub client_tags: Option<Vec<KeyValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub topology: Option<Topology>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub topology_epoch: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub user_endpoint: Option<Endpoint>,
    /// Only in a restart's changes: come back as a new member (a new member id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub new_member: Option<bool>,
}

impl Validate for ProcessSpec {
    fn validate(&self) -> Result<(), Invalid> {
        if let Some(t) = self.threads {
            if !(1..=MAX_THREADS).contains(&t) {
                return Err(Invalid::new(
                    "threads",
                    format!("{t} is out of range 1..={MAX_THREADS}"),
                ));
            }
        }
        if self.new_member.is_some() {
            return Err(Invalid::new(
                "newMember",
                "only a restart's changes take it",
            ));
        }
        Ok(())
    }
}

/// Most stream threads one simulated process may run.
pub const MAX_THREADS: u32 = 64;

/// What a restart changes (all optional); `newMember` makes a static process come back
/// as a new dynamic member (its instanceId dropped).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(from = "ProcessSpec")]
#[ts(optional_fields = nullable)]
pub struct RestartChanges {
    #[serde(flatten)]
    pub process: ProcessSpec,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub new_member: bool,
}

impl From<ProcessSpec> for RestartChanges {
    fn from(mut process: ProcessSpec) -> Self {
        let new_member = process.new_member.take();
        // Kept so that validate() can refuse a process id.
        RestartChanges {
            process,
            new_member: new_member.unwrap_or(false),
        }
    }
}

impl Validate for RestartChanges {
    fn validate(&self) -> Result<(), Invalid> {
        if self.process.process_id.is_some() {
            return Err(Invalid::new("processId", "a restart keeps the process id"));
        }
        self.process.validate()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "SimulationTopic")]
pub struct NewTopic {
    pub name: String,
    pub num_partitions: i32,
}

impl Validate for NewTopic {}

/// One thing that happens to the simulated world.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(rename = "ScenarioAction")]
pub enum Action {
    AddProcess(ProcessSpec),
    #[serde(rename_all = "camelCase")]
    StopProcess {
        process_id: String,
    },
    #[serde(rename_all = "camelCase")]
    CrashProcess {
        process_id: String,
    },
    #[serde(rename_all = "camelCase")]
    RestartProcess {
        process_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        changes: Option<RestartChanges>,
    },
    CreateTopics {
        topics: Vec<NewTopic>,
    },
    DeleteTopics {
        names: Vec<String>,
    },
    SetAssignor {
        assignor: String,
    },
    #[serde(rename_all = "camelCase")]
    SetStandbyReplicas {
        num_standby_replicas: u32,
    },
    /// A hand-made heartbeat (the inspector's "send it yourself"), sent as is.
    Heartbeat {
        request: Box<StreamsGroupHeartbeatRequest>,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProcessRef {
    process_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RestartFields {
    process_id: String,
    #[serde(default)]
    changes: Option<RestartChanges>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TopicsFields {
    topics: Vec<NewTopic>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamesFields {
    names: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AssignorFields {
    #[serde(deserialize_with = "crate::config::assignor_name")]
    assignor: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StandbysFields {
    #[serde(deserialize_with = "standby_replicas")]
    num_standby_replicas: u32,
}

fn standby_replicas<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = i32::deserialize(d)?;
    if !(0..=16).contains(&n) {
        return Err(de::Error::custom(format_args!(
            "{n} is out of range 0..=16"
        )));
    }
    Ok(n as u32)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeartbeatFields {
    request: Box<StreamsGroupHeartbeatRequest>,
}

impl Tagged for Action {
    const TAGS: &'static [&'static str] = &[
        "addProcess",
        "stopProcess",
        "crashProcess",
        "restartProcess",
        "createTopics",
        "deleteTopics",
        "setAssignor",
        "setStandbyReplicas",
        "heartbeat",
    ];
    const WHAT: &'static str = "action type";

    fn variant<'de, D: Deserializer<'de>>(tag: &str, d: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "addProcess" => Action::AddProcess(ProcessSpec::deserialize(d)?),
            "stopProcess" => Action::StopProcess {
                process_id: ProcessRef::deserialize(d)?.process_id,
            },
            "crashProcess" => Action::CrashProcess {
                process_id: ProcessRef::deserialize(d)?.process_id,
            },
            "restartProcess" => {
                let r = RestartFields::deserialize(d)?;
                Action::RestartProcess {
                    process_id: r.process_id,
                    changes: r.changes,
                }
            }
            "createTopics" => Action::CreateTopics {
                topics: TopicsFields::deserialize(d)?.topics,
            },
            "deleteTopics" => Action::DeleteTopics {
                names: NamesFields::deserialize(d)?.names,
            },
            "setAssignor" => Action::SetAssignor {
                assignor: AssignorFields::deserialize(d)?.assignor,
            },
            "setStandbyReplicas" => Action::SetStandbyReplicas {
                num_standby_replicas: StandbysFields::deserialize(d)?.num_standby_replicas,
            },
            _ => Action::Heartbeat {
                request: HeartbeatFields::deserialize(d)?.request,
            },
        })
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::protocol::json::tagged(d)
    }
}

impl Validate for Action {
    fn validate(&self) -> Result<(), Invalid> {
        match self {
            Action::AddProcess(p) => p.validate(),
            Action::RestartProcess { changes, .. } => {
                changes.validate().map_err(|e| e.under("changes"))
            }
            _ => Ok(()),
        }
    }
}

/// An action with the simulated time at which it happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TimedAction {
    pub at_ms: i64,
    #[serde(flatten)]
    pub action: Action,
}

impl<'de> Deserialize<'de> for TimedAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (action, common) =
            d.deserialize_map(TaggedVisitor::<Action>(PhantomData, &["atMs"]))?;
        Ok(TimedAction {
            at_ms: common.get("atMs").copied().unwrap_or(0),
            action,
        })
    }
}

impl Validate for TimedAction {
    fn validate(&self) -> Result<(), Invalid> {
        if !(0..=MAX_TIME_MS).contains(&self.at_ms) {
            return Err(Invalid::new(
                "atMs",
                format!("{} is out of range 0..={MAX_TIME_MS}", self.at_ms),
            ));
        }
        self.action.validate()
    }
}

/// A line of narration shown from `atMs` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct Narration {
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    pub at_ms: i64,
    pub text: String,
}

/// Plain JSON that replays a simulation exactly (a page URL or a file can carry it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct Scenario {
    /// A short id (`rolling-bounce`); empty for a hand-made scenario.
    #[ts(optional = nullable)]
    pub name: String,
    #[ts(optional = nullable)]
    pub title: String,
    #[ts(optional = nullable)]
    pub description: String,
    #[serde(deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub narration: Vec<Narration>,
    #[ts(optional = nullable)]
    pub group_id: String,
    #[ts(optional = nullable)]
    pub config: CoordinatorConfig,
    #[ts(optional = nullable)]
    pub client: ClientConfig,
    /// Topics that exist before anything happens.
    #[serde(deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub topics: Vec<NewTopic>,
    /// The topology processes run unless their own spec says otherwise.
    #[ts(optional = nullable)]
    pub topology: Topology,
    #[serde(deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub actions: Vec<TimedAction>,
    /// How far the page runs the scenario (the simulation runs on after it if asked).
    #[serde(with = "int64")]
    #[ts(type = "Int64Input")]
    #[ts(optional = nullable)]
    pub end_ms: i64,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: String::new(),
            title: String::new(),
            description: String::new(),
            narration: Vec::new(),
            group_id: "app".to_owned(),
            config: CoordinatorConfig::default(),
            client: ClientConfig::default(),
            topics: Vec::new(),
            topology: Topology::default(),
            actions: Vec::new(),
            end_ms: 60_000,
        }
    }
}

impl Validate for Scenario {
    fn validate(&self) -> Result<(), Invalid> {
        if self.group_id.is_empty() {
            return Err(Invalid::new("groupId", "must not be empty"));
        }
        if !(0..=MAX_TIME_MS).contains(&self.end_ms) {
            return Err(Invalid::new(
                "endMs",
                format!("{} is out of range 0..={MAX_TIME_MS}", self.end_ms),
            ));
        }
        self.config.validate().map_err(|e| e.under("config"))?;
        self.client.validate().map_err(|e| e.under("client"))?;
        self.actions.validate().map_err(|e| e.under("actions"))
    }
}
