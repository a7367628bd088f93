//! `Simulation.snapshot()`: the coordinator's view (Describe of the group and the
//! coordinator's own snapshot) beside each simulated client's own view.

use crate::protocol::{DescribedGroup, ErrorCode, KeyValue, Status, TaskIds};
use crate::sim::member::{Member, Tasks};
use crate::sim::process::{stateful_subtopologies, Process, ProcessState};
use crate::sim::scenario::NewTopic;
use crate::sim::{coord, Simulation};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "ProcessTaskLists")]
pub struct TaskLists {
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
}

impl From<&Tasks> for TaskLists {
    fn from(t: &Tasks) -> Self {
        TaskLists {
            active_tasks: t.active.to_task_ids(),
            standby_tasks: t.standby.to_task_ids(),
            warmup_tasks: t.warmup.to_task_ids(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ErrorView {
    pub code: i16,
    pub name: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "ProcessMemberView")]
pub struct MemberView {
    pub member_id: String,
    pub thread: u32,
    pub instance_id: Option<String>,
    /// The epoch the client last got.
    pub member_epoch: i32,
    /// The client's own state: Joining, Stable, Reconciling, Left, Crashed, Failed.
    pub state: String,
    /// What the thread runs now.
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
    /// Tasks being closed before the revocation is confirmed.
    pub revoking: Option<TaskLists>,
    /// What it is reconciling to, and when it will be done.
    pub reconciling_to: Option<TaskLists>,
    pub reconciled_at_ms: Option<i64>,
    pub next_heartbeat_ms: Option<i64>,
    pub statuses: Vec<Status>,
    pub last_error: Option<ErrorView>,
    pub heartbeats: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RestoreView {
    pub subtopology_id: String,
    pub partition: i32,
    pub offset: i64,
    pub end_offset: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProcessView {
    pub process_id: String,
    pub state: ProcessState,
    pub threads: u32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_tags: Vec<KeyValue>,
    pub topology_epoch: i32,
    pub restart_at_ms: Option<i64>,
    pub members: Vec<MemberView>,
    /// The state directory: changelog offsets restored per stateful task.
    pub state_store: Vec<RestoreView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "SimulationSnapshot")]
pub struct SimSnapshot {
    pub now_ms: i64,
    pub group_id: String,
    pub assignor: String,
    pub num_standby_replicas: u32,
    /// The group as Describe shows it (null before it exists).
    pub group: Option<DescribedGroup>,
    pub topics: Vec<NewTopic>,
    pub processes: Vec<ProcessView>,
    /// The coordinator's own snapshot (API.md); null in the page's lighter `view()`.
    pub coordinator: Option<crate::coordinator::snapshot::Snapshot>,
}

fn member_view(m: &Member) -> MemberView {
    MemberView {
        member_id: m.member_id.clone(),
        thread: m.thread,
        instance_id: m.instance_id.clone(),
        member_epoch: m.epoch,
        state: format!("{:?}", m.state),
        active_tasks: m.owned.active.to_task_ids(),
        standby_tasks: m.owned.standby.to_task_ids(),
        warmup_tasks: m.owned.warmup.to_task_ids(),
        revoking: m
            .pending
            .as_ref()
            .filter(|p| !p.revoking.is_empty())
            .map(|p| (&p.revoking).into()),
        reconciling_to: m.pending.as_ref().map(|p| (&p.target).into()),
        reconciled_at_ms: m.pending.as_ref().map(|p| p.at_ms),
        next_heartbeat_ms: m.next_heartbeat_ms,
        statuses: m.statuses.clone(),
        last_error: m.last_error.as_ref().map(|(code, message)| ErrorView {
            code: *code,
            name: ErrorCode::from_code(*code)
                .map_or("UNKNOWN", |c| c.name())
                .to_owned(),
            message: message.clone(),
        }),
        heartbeats: m.sent,
    }
}

fn process_view(p: &Process, end_offset: i64, state: bool) -> ProcessView {
    let stateful = if state {
        stateful_subtopologies(&p.topology)
    } else {
        Default::default()
    };
    ProcessView {
        process_id: p.id.clone(),
        state: p.state,
        threads: p.threads,
        instance_id: p.instance_id.clone(),
        rack_id: p.rack_id.clone(),
        client_tags: p.client_tags.clone(),
        topology_epoch: p.topology.epoch,
        restart_at_ms: p.restart_at_ms,
        members: p.members.iter().map(member_view).collect(),
        state_store: p
            .offsets
            .iter()
            .filter(|(t, _)| stateful.contains(&t.subtopology))
            .map(|(t, off)| RestoreView {
                subtopology_id: t.subtopology.clone(),
                partition: t.partition,
                offset: *off,
                end_offset,
            })
            .collect(),
    }
}

impl Simulation {
    pub fn snapshot(&self) -> SimSnapshot {
        self.snapshot_of(true)
    }

    /// What the page draws: the snapshot without the coordinator's own snapshot (null)
    /// and without the state directories (empty). For a 1 000-member group with
    /// standbys that is 0.8 MB of JSON instead of 4.7 MB, at every step.
    pub fn view(&self) -> SimSnapshot {
        self.snapshot_of(false)
    }

    fn snapshot_of(&self, whole: bool) -> SimSnapshot {
        let end = self.scenario().client.changelog_end_offset;
        SimSnapshot {
            now_ms: self.now(),
            group_id: self.group_id().to_owned(),
            assignor: self.coordinator.config.assignor.clone(),
            num_standby_replicas: self.coordinator.config.num_standby_replicas,
            group: coord::describe(&self.coordinator, self.group_id()),
            topics: coord::topics(&self.coordinator),
            processes: self
                .processes()
                .iter()
                .map(|p| process_view(p, end, whole))
                .collect(),
            coordinator: whole.then(|| coord::snapshot(&self.coordinator)),
        }
    }
}

impl crate::protocol::json::Validate for SimSnapshot {}
