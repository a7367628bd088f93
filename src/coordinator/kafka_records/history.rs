//! A broker dump as a history: one step per written batch (a dump-log batch header
//! starts one; a heartbeat that wrote records wrote one batch), or one step per record
//! when batches are not visible (JSON lines). Each step carries its records as Kafka
//! printed them and, per group it touched, what changed: epochs, joins, leaves and the
//! active tasks that moved; `describe(step)` shows the groups at that point.

use super::{prepare, LoadOptions, LoadReport};
use crate::coordinator::group::StreamsGroup;
use crate::coordinator::records::{RecordKey, RecordValue};
use crate::coordinator::{Coordinator, RequestContext};
use crate::protocol::json::InputError;
use crate::protocol::StreamsGroupDescribeResponse;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

/// A checkpoint (a copy of the coordinator) every this many steps at least, and at
/// most this many checkpoints (a long dump spaces them out: bounded memory).
const CHECKPOINT_EVERY: usize = 32;
const MAX_CHECKPOINTS: usize = 64;

/// One record of a step, as the dump printed it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "HistoryRecord")]
pub struct StepRecord {
    pub line: u32,
    #[ts(type = "number | null")]
    pub offset: Option<u64>,
    pub record_type: i16,
    #[ts(type = "unknown")]
    pub key: serde_json::Value,
    /// `{ version, data }`; null for a tombstone.
    #[ts(type = "{ version: number, data: unknown } | null")]
    pub value: Option<serde_json::Value>,
}

/// What a step changed in one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "HistoryGroupChange")]
pub struct GroupChange {
    pub group_id: String,
    pub group_state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub topology_epoch: i32,
    pub members: u32,
    /// The group epoch went up in this step.
    pub epoch_bump: bool,
    pub joined: Vec<String>,
    pub left: Vec<String>,
    /// Active tasks whose owner (current assignment) changed.
    pub tasks_moved: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "HistoryStep")]
pub struct Step {
    pub index: u32,
    /// The record timestamp (dump-log), else null.
    #[ts(type = "number | null")]
    pub timestamp_ms: Option<i64>,
    pub records: Vec<StepRecord>,
    pub groups: Vec<GroupChange>,
}

/// A group as far as a step's markers go.
#[derive(Default, PartialEq, Eq)]
struct Look {
    epoch: i32,
    members: BTreeSet<String>,
    /// (subtopology, partition) -> owner of the active task.
    owners: BTreeMap<(String, i32), String>,
}

fn look(g: Option<&StreamsGroup>) -> Look {
    let Some(g) = g else {
        return Look::default();
    };
    let mut owners = BTreeMap::new();
    for m in g.members.values() {
        for (s, p) in m.current.assigned.active.iter() {
            owners.insert((s.to_owned(), p), m.member_id.clone());
        }
    }
    Look {
        epoch: g.group_epoch,
        members: g.members.keys().cloned().collect(),
        owners,
    }
}

fn change(group_id: &str, g: Option<&StreamsGroup>, before: &Look, after: &Look) -> GroupChange {
    let moved = after
        .owners
        .iter()
        .filter(|(t, o)| before.owners.get(*t) != Some(*o))
        .count()
        + before
            .owners
            .keys()
            .filter(|t| !after.owners.contains_key(*t))
            .count();
    GroupChange {
        group_id: group_id.to_owned(),
        group_state: g.map_or("Dead", |g| g.state().name()).to_owned(),
        group_epoch: after.epoch,
        assignment_epoch: g.map_or(0, |g| g.assignment_epoch),
        topology_epoch: g.and_then(|g| g.topology_epoch()).unwrap_or(-1),
        members: after.members.len() as u32,
        epoch_bump: after.epoch > before.epoch,
        joined: after.members.difference(&before.members).cloned().collect(),
        left: before.members.difference(&after.members).cloned().collect(),
        tasks_moved: moved as u32,
    }
}

/// A dump stepped through: the steps, and the coordinator at any of them.
pub struct History {
    base: Coordinator,
    steps: Vec<Step>,
    /// The converted records of each step (replayed to reach a step).
    step_records: Vec<Vec<(RecordKey, Option<RecordValue>)>>,
    /// The coordinator after step `(i + 1) * every - 1`.
    checkpoints: Vec<Coordinator>,
    every: usize,
    pub report: LoadReport,
}

impl History {
    pub fn from_kafka_records(text: &str, options: &LoadOptions) -> Result<History, InputError> {
        let p = prepare(text, options)?;
        let mut c = Coordinator::from_cluster_records(p.config, p.cluster_records)?;
        let base = c.clone();
        let loaded = p.converted.len() as u32;
        // Consecutive records of one batch form a step; without batches, each record.
        let mut grouped: Vec<Vec<super::Converted>> = Vec::new();
        let mut last_batch: Option<u64> = None;
        for conv in p.converted {
            let same = conv.entry.batch.is_some() && conv.entry.batch == last_batch;
            last_batch = conv.entry.batch;
            match grouped.last_mut() {
                Some(g) if same => g.push(conv),
                _ => grouped.push(vec![conv]),
            }
        }
        let every = CHECKPOINT_EVERY.max(grouped.len().div_ceil(MAX_CHECKPOINTS));
        let mut steps = Vec::with_capacity(grouped.len());
        let mut step_records = Vec::with_capacity(grouped.len());
        let mut checkpoints = Vec::new();
        for (i, batch) in grouped.into_iter().enumerate() {
            let touched: BTreeSet<String> = batch
                .iter()
                .filter_map(|r| super::group_of(&r.key).map(str::to_owned))
                .collect();
            let before: BTreeMap<&String, Look> =
                touched.iter().map(|g| (g, look(c.groups.get(g)))).collect();
            let mut records = Vec::with_capacity(batch.len());
            let mut replay = Vec::with_capacity(batch.len());
            let mut timestamp_ms = None;
            for r in batch {
                timestamp_ms = r.entry.timestamp.or(timestamp_ms);
                records.push(StepRecord {
                    line: r.entry.line as u32,
                    offset: r.entry.offset,
                    record_type: r.entry.record_type,
                    key: serde_json::json!({ "type": r.entry.record_type, "data": r.entry.key }),
                    value: r.entry.value.map(
                        |(version, data)| serde_json::json!({ "version": version, "data": data }),
                    ),
                });
                c.replay_one(r.key.clone(), r.value.clone());
                replay.push((r.key, r.value));
            }
            let groups = touched
                .iter()
                .map(|g| {
                    let after = look(c.groups.get(g));
                    let empty = Look::default();
                    change(g, c.groups.get(g), before.get(g).unwrap_or(&empty), &after)
                })
                .collect();
            steps.push(Step {
                index: i as u32,
                timestamp_ms,
                records,
                groups,
            });
            step_records.push(replay);
            if (i + 1) % every == 0 {
                checkpoints.push(c.clone());
            }
        }
        let report = LoadReport {
            format: p.format,
            groups: c.groups.keys().cloned().collect(),
            records: loaded,
            skipped: p.skipped,
            inferred: p.inferred,
            unresolved: p.unresolved,
            adopted_metadata_hash: Vec::new(),
            now_ms: c.now(),
        };
        Ok(History {
            base,
            steps,
            step_records,
            checkpoints,
            every,
            report,
        })
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The coordinator after step `index` (None beyond the last step); before any
    /// step with `None`.
    pub fn coordinator_at(&self, index: Option<usize>) -> Option<Coordinator> {
        let Some(index) = index else {
            return Some(self.base.clone());
        };
        if index >= self.steps.len() {
            return None;
        }
        let k = (index + 1) / self.every;
        let (mut c, from) = match k.checked_sub(1).and_then(|i| self.checkpoints.get(i)) {
            Some(cp) => (cp.clone(), k * self.every),
            None => (self.base.clone(), 0),
        };
        for step in self.step_records.get(from..=index).unwrap_or_default() {
            for (key, value) in step {
                c.replay_one(key.clone(), value.clone());
            }
        }
        Some(c)
    }

    /// The groups described after step `index` (every group of the dump when
    /// `group_ids` is empty).
    pub fn describe(
        &self,
        index: Option<usize>,
        group_ids: &[String],
    ) -> Option<StreamsGroupDescribeResponse> {
        let mut c = self.coordinator_at(index)?;
        let ids: Vec<String> = if group_ids.is_empty() {
            self.report.groups.clone()
        } else {
            group_ids.to_vec()
        };
        Some(c.describe(&ids, &RequestContext::default()))
    }
}
