//! A scenario: the configs of a simulation plus a list of timed actions. Plain JSON,
//! so a page URL or a file carries it, and replaying it gives the same event log.

use crate::config::CoordinatorConfig;
use crate::from_json_struct;
use crate::protocol::json::{DecodeError, FromJson, Path};
use crate::protocol::{Endpoint, KeyValue, StreamsGroupHeartbeatRequest, Topology};
use serde::Serialize;
use serde_json::Value;

/// The simulated clients' behaviour (how a real Kafka Streams process would take its time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientConfig {
    /// Time a member needs to close revoked tasks before it confirms the revocation.
    pub revocation_delay_ms: i64,
    /// Time a member needs to start newly assigned tasks before it acknowledges them.
    pub assignment_delay_ms: i64,
    /// Changelog records a standby or warm-up task restores per second.
    pub restore_records_per_sec: i64,
    /// Every stateful task's changelog end offset (its state size, in records).
    pub changelog_end_offset: i64,
    /// The pause between leaving and rejoining when a running process restarts.
    pub restart_delay_ms: i64,
    /// Sent on join (Kafka Streams: max.poll.interval.ms).
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
fn bounded(
    f: &mut crate::protocol::json::Fields<'_>,
    key: &'static str,
    d: i64,
    max: i64,
) -> Result<i64, DecodeError> {
    let v: i64 = f.or(key, d)?;
    if !(0..=max).contains(&v) {
        return Err(DecodeError::new(
            &f.path().key(key),
            format!("{v} is out of range 0..={max}"),
        ));
    }
    Ok(v)
}

/// Longest stretch of simulated time one call may cover (a year), so time never overflows.
pub const MAX_TIME_MS: i64 = 365 * 24 * 3600 * 1000;

from_json_struct!(
    ClientConfig,
    "a client config object",
    "client config objects",
    |f| {
        let d = ClientConfig::default();
        let rebalance_timeout_ms: i32 = f.or("rebalanceTimeoutMs", d.rebalance_timeout_ms)?;
        if rebalance_timeout_ms <= 0 {
            return Err(DecodeError::new(
                &f.path().key("rebalanceTimeoutMs"),
                format!("{rebalance_timeout_ms} must be positive"),
            ));
        }
        Ok(ClientConfig {
            revocation_delay_ms: bounded(
                &mut f,
                "revocationDelayMs",
                d.revocation_delay_ms,
                MAX_TIME_MS,
            )?,
            assignment_delay_ms: bounded(
                &mut f,
                "assignmentDelayMs",
                d.assignment_delay_ms,
                MAX_TIME_MS,
            )?,
            restore_records_per_sec: bounded(
                &mut f,
                "restoreRecordsPerSec",
                d.restore_records_per_sec,
                1_000_000_000,
            )?,
            changelog_end_offset: bounded(
                &mut f,
                "changelogEndOffset",
                d.changelog_end_offset,
                1_000_000_000_000,
            )?,
            restart_delay_ms: bounded(&mut f, "restartDelayMs", d.restart_delay_ms, MAX_TIME_MS)?,
            rebalance_timeout_ms,
        })
    }
);

/// A process to start: everything optional (API.md `addProcess`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rack_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_tags: Option<Vec<KeyValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology_epoch: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_endpoint: Option<Endpoint>,
}

/// Most stream threads one simulated process may run.
pub const MAX_THREADS: u32 = 64;

/// Client tags may be written `[{key, value}]` (the protocol's form) or `{key: value}`.
struct Tags(Vec<KeyValue>);

impl FromJson for Tags {
    const EXPECTED: &'static str = "client tags ([{key, value}] or {key: value})";
    const PLURAL: &'static str = "client tag lists";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        match v {
            Value::Object(map) => {
                let mut out = Vec::new();
                for (k, x) in map {
                    let value = String::from_json(x, &path.key(k))?;
                    out.push(KeyValue {
                        key: k.clone(),
                        value,
                    });
                }
                Ok(Tags(out))
            }
            _ => Vec::<KeyValue>::from_json(v, path).map(Tags),
        }
    }
}

fn process_fields(f: &mut crate::protocol::json::Fields<'_>) -> Result<ProcessSpec, DecodeError> {
    let threads: Option<u32> = match f.or::<Option<i32>>("threads", None)? {
        None => None,
        Some(t) if (1..=MAX_THREADS as i32).contains(&t) => Some(t as u32),
        Some(t) => {
            return Err(DecodeError::new(
                &f.path().key("threads"),
                format!("{t} is out of range 1..={MAX_THREADS}"),
            ))
        }
    };
    let client_tags: Option<Tags> = f.or("clientTags", None)?;
    Ok(ProcessSpec {
        process_id: f.or("processId", None)?,
        threads,
        instance_id: f.or("instanceId", None)?,
        rack_id: f.or("rackId", None)?,
        client_tags: client_tags.map(|t| t.0),
        topology: f.or("topology", None)?,
        topology_epoch: f.or("topologyEpoch", None)?,
        user_endpoint: f.or("userEndpoint", None)?,
    })
}

from_json_struct!(ProcessSpec, "a process object", "process objects", |f| {
    process_fields(&mut f)
});

/// What a restart changes (all optional); `newMember` makes a static process come back
/// as a new dynamic member (its instanceId dropped).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestartChanges {
    #[serde(flatten)]
    pub process: ProcessSpec,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub new_member: bool,
}

from_json_struct!(
    RestartChanges,
    "a restart changes object",
    "restart changes objects",
    |f| {
        let process = process_fields(&mut f)?;
        if process.process_id.is_some() {
            return Err(DecodeError::new(
                &f.path().key("processId"),
                "a restart keeps the process id",
            ));
        }
        Ok(RestartChanges {
            process,
            new_member: f.or("newMember", false)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewTopic {
    pub name: String,
    pub num_partitions: i32,
}

from_json_struct!(NewTopic, "a topic object", "topic objects", |f| {
    Ok(NewTopic {
        name: f.required("name")?,
        num_partitions: f.required("numPartitions")?,
    })
});

/// One thing that happens to the simulated world.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
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

impl FromJson for Action {
    const EXPECTED: &'static str = "an action object";
    const PLURAL: &'static str = "action objects";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let mut f = crate::protocol::json::Fields::new(v, path, Self::EXPECTED)?;
        let kind: String = f.required("type")?;
        let action = action_fields(&kind, &mut f)?;
        f.finish()?;
        Ok(action)
    }
}

fn action_fields(
    kind: &str,
    f: &mut crate::protocol::json::Fields<'_>,
) -> Result<Action, DecodeError> {
    Ok(match kind {
        "addProcess" => Action::AddProcess(process_fields(f)?),
        "stopProcess" => Action::StopProcess { process_id: f.required("processId")? },
        "crashProcess" => Action::CrashProcess { process_id: f.required("processId")? },
        "restartProcess" => Action::RestartProcess {
            process_id: f.required("processId")?,
            changes: f.or("changes", None)?,
        },
        "createTopics" => Action::CreateTopics { topics: f.required("topics")? },
        "deleteTopics" => Action::DeleteTopics { names: f.required("names")? },
        "setAssignor" => {
            let assignor: String = f.required("assignor")?;
            if crate::assignor::by_name(&assignor).is_none() {
                return Err(DecodeError::new(
                    &f.path().key("assignor"),
                    format!(
                        "unknown assignor {:?}; known: {}",
                        crate::protocol::json::truncate(&assignor, 40),
                        crate::assignor::NAMES.join(", ")
                    ),
                ));
            }
            Action::SetAssignor { assignor }
        }
        "setStandbyReplicas" => {
            let n: i32 = f.required("numStandbyReplicas")?;
            if !(0..=16).contains(&n) {
                return Err(DecodeError::new(
                    &f.path().key("numStandbyReplicas"),
                    format!("{n} is out of range 0..=16"),
                ));
            }
            Action::SetStandbyReplicas { num_standby_replicas: n as u32 }
        }
        "heartbeat" => Action::Heartbeat { request: Box::new(f.required("request")?) },
        other => {
            return Err(DecodeError::new(
                &f.path().key("type"),
                format!(
                    "unknown action type {:?}; known: addProcess, stopProcess, crashProcess, restartProcess, createTopics, deleteTopics, setAssignor, setStandbyReplicas, heartbeat",
                    crate::protocol::json::truncate(other, 40)
                ),
            ))
        }
    })
}

/// An action with the simulated time at which it happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimedAction {
    pub at_ms: i64,
    #[serde(flatten)]
    pub action: Action,
}

impl FromJson for TimedAction {
    const EXPECTED: &'static str = "a timed action object ({atMs, type, ...})";
    const PLURAL: &'static str = "timed action objects";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let mut f = crate::protocol::json::Fields::new(v, path, Self::EXPECTED)?;
        let at_ms: i64 = f.or("atMs", 0)?;
        if !(0..=MAX_TIME_MS).contains(&at_ms) {
            return Err(DecodeError::new(
                &path.key("atMs"),
                format!("{at_ms} is out of range 0..={MAX_TIME_MS}"),
            ));
        }
        let kind: String = f.required("type")?;
        let action = action_fields(&kind, &mut f)?;
        f.finish()?;
        Ok(TimedAction { at_ms, action })
    }
}

/// A line of narration shown from `atMs` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Narration {
    pub at_ms: i64,
    pub text: String,
}

from_json_struct!(Narration, "a narration object", "narration objects", |f| {
    Ok(Narration {
        at_ms: f.required("atMs")?,
        text: f.required("text")?,
    })
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    /// A short id (`rolling-bounce`); empty for a hand-made scenario.
    pub name: String,
    pub title: String,
    pub description: String,
    pub narration: Vec<Narration>,
    pub group_id: String,
    pub config: CoordinatorConfig,
    pub client: ClientConfig,
    /// Topics that exist before anything happens.
    pub topics: Vec<NewTopic>,
    /// The topology processes run unless their own spec says otherwise.
    pub topology: Topology,
    pub actions: Vec<TimedAction>,
    /// How far the page runs the scenario (the simulation runs on after it if asked).
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

from_json_struct!(Scenario, "a scenario object", "scenario objects", |f| {
    let d = Scenario::default();
    let group_id: String = f.or("groupId", d.group_id)?;
    if group_id.is_empty() {
        return Err(DecodeError::new(
            &f.path().key("groupId"),
            "must not be empty",
        ));
    }
    let end_ms: i64 = f.or("endMs", d.end_ms)?;
    if !(0..=MAX_TIME_MS).contains(&end_ms) {
        return Err(DecodeError::new(
            &f.path().key("endMs"),
            format!("{end_ms} is out of range 0..={MAX_TIME_MS}"),
        ));
    }
    Ok(Scenario {
        name: f.or("name", d.name)?,
        title: f.or("title", d.title)?,
        description: f.or("description", d.description)?,
        narration: f.list("narration")?,
        group_id,
        config: f.or("config", d.config)?,
        client: f.or("client", d.client)?,
        topics: f.list("topics")?,
        topology: f.or("topology", d.topology)?,
        actions: f.list("actions")?,
        end_ms,
    })
});
