//! Writing: the compacted log as the JSON lines of Kafka's
//! `CoordinatorRecordMessageFormatter`, at the value versions Kafka writes.

use super::schema;
use crate::coordinator::records::{Record, RecordKey, RecordValue};
use crate::coordinator::Coordinator;
use crate::protocol as p;
use serde::Serialize;

#[derive(Serialize)]
#[serde(untagged)]
enum KeyData {
    Group(schema::GroupKey),
    Member(schema::MemberKey),
    Offset(schema::OffsetKey),
}

#[derive(Serialize)]
#[serde(untagged)]
enum ValueData {
    GroupMetadata(schema::GroupMetadataValue),
    MemberMetadata(schema::MemberMetadataValue),
    TargetAssignmentMetadata(schema::TargetAssignmentMetadataValue),
    TargetAssignmentMember(schema::TargetAssignmentMemberValue),
    CurrentMemberAssignment(schema::CurrentMemberAssignmentValue),
    Topology(schema::TopologyValue),
    OffsetCommit(schema::OffsetCommitValue),
}

#[derive(Serialize)]
struct KeyOut {
    #[serde(rename = "type")]
    record_type: i16,
    data: KeyData,
}

#[derive(Serialize)]
struct ValueOut {
    version: i16,
    data: ValueData,
}

/// One line of `CoordinatorRecordMessageFormatter` output.
#[derive(Serialize)]
struct LineOut {
    key: KeyOut,
    value: Option<ValueOut>,
}

fn group_key(group_id: &str) -> KeyData {
    KeyData::Group(schema::GroupKey {
        group_id: group_id.to_owned(),
    })
}

fn member_key(group_id: &str, member_id: &str) -> KeyData {
    KeyData::Member(schema::MemberKey {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    })
}

/// Active tasks with Kafka's per-partition `AssignmentEpochs` (a tagged field), from
/// the epochs our record keeps per task; absent when it keeps none (every task then
/// held since the member epoch, Kafka's default too).
fn k_active_tasks(
    list: &[p::TaskIds],
    c: &crate::coordinator::records::CurrentMemberAssignmentValue,
) -> Vec<schema::TaskIds> {
    let mut out: Vec<schema::TaskIds> = schema::list(list);
    if c.active_task_epochs.is_empty() {
        return out;
    }
    let epoch_of = |s: &str, p: i32| {
        c.active_task_epochs
            .iter()
            .find(|e| {
                e.tasks
                    .iter()
                    .any(|t| t.subtopology_id == s && t.partitions.contains(&p))
            })
            .map_or(c.member_epoch, |e| e.epoch)
    };
    for t in &mut out {
        t.assignment_epochs = Some(
            t.partitions
                .iter()
                .map(|&p| epoch_of(&t.subtopology_id, p))
                .collect(),
        );
    }
    out
}

impl Coordinator {
    /// Kafka's record of one of ours (streams group records and offset commits), with
    /// its record type and value version; None for what Kafka does not record.
    fn kafka_line(&self, r: &Record) -> Option<LineOut> {
        use schema::*;
        let (record_type, key) = match &r.key {
            RecordKey::GroupMetadata { group_id } => (STREAMS_GROUP_METADATA, group_key(group_id)),
            RecordKey::Topology { group_id } => (STREAMS_GROUP_TOPOLOGY, group_key(group_id)),
            RecordKey::TargetAssignmentMetadata { group_id } => (
                STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA,
                group_key(group_id),
            ),
            RecordKey::MemberMetadata {
                group_id,
                member_id,
            } => (
                STREAMS_GROUP_MEMBER_METADATA,
                member_key(group_id, member_id),
            ),
            RecordKey::TargetAssignmentMember {
                group_id,
                member_id,
            } => (
                STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER,
                member_key(group_id, member_id),
            ),
            RecordKey::CurrentMemberAssignment {
                group_id,
                member_id,
            } => (
                STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT,
                member_key(group_id, member_id),
            ),
            RecordKey::OffsetCommit {
                group_id,
                topic,
                partition,
            } => (
                OFFSET_COMMIT,
                KeyData::Offset(OffsetKey {
                    group: group_id.clone(),
                    topic: topic.clone(),
                    partition: *partition,
                }),
            ),
            _ => return None,
        };
        let value = match &r.value {
            None => None,
            Some(v) => Some(self.kafka_value(&r.key, v)?),
        };
        Some(LineOut {
            key: KeyOut {
                record_type,
                data: key,
            },
            value,
        })
    }

    fn kafka_value(&self, key: &RecordKey, v: &RecordValue) -> Option<ValueOut> {
        use schema::*;
        let data = match v {
            RecordValue::GroupMetadata(g) => {
                let group = match key {
                    RecordKey::GroupMetadata { group_id } => self.groups.get(group_id),
                    _ => None,
                };
                ValueData::GroupMetadata(GroupMetadataValue {
                    epoch: g.epoch,
                    metadata_hash: g.metadata_hash,
                    validated_topology_epoch: group
                        .and_then(|g| g.ready_topology())
                        .map_or(-1, |t| t.epoch),
                    // As Kafka: the assignment configs the group's target was computed with.
                    last_assignment_configs: Some(vec![KeyValue {
                        key: "num.standby.replicas".to_owned(),
                        value: self.config.num_standby_replicas.to_string(),
                    }]),
                })
            }
            RecordValue::Topology(t) => ValueData::Topology(t.into()),
            RecordValue::MemberMetadata(m) => ValueData::MemberMetadata(m.into()),
            RecordValue::TargetAssignmentMetadata(t) => {
                ValueData::TargetAssignmentMetadata(TargetAssignmentMetadataValue {
                    assignment_epoch: t.assignment_epoch,
                    assignment_timestamp: 0,
                })
            }
            RecordValue::TargetAssignmentMember(t) => ValueData::TargetAssignmentMember(t.into()),
            RecordValue::CurrentMemberAssignment(c) => {
                ValueData::CurrentMemberAssignment(CurrentMemberAssignmentValue {
                    member_epoch: c.member_epoch,
                    previous_member_epoch: c.previous_member_epoch,
                    state: c.state,
                    active_tasks: k_active_tasks(&c.active_tasks, c),
                    standby_tasks: schema::list(&c.standby_tasks),
                    warmup_tasks: schema::list(&c.warmup_tasks),
                    active_tasks_pending_revocation: k_active_tasks(
                        &c.active_tasks_pending_revocation,
                        c,
                    ),
                    standby_tasks_pending_revocation: schema::list(
                        &c.standby_tasks_pending_revocation,
                    ),
                    warmup_tasks_pending_revocation: schema::list(
                        &c.warmup_tasks_pending_revocation,
                    ),
                })
            }
            RecordValue::OffsetCommit(o) => {
                return Some(ValueOut {
                    version: OFFSET_COMMIT_VALUE_VERSION,
                    data: ValueData::OffsetCommit(OffsetCommitValue {
                        offset: o.offset,
                        leader_epoch: -1,
                        metadata: o.metadata.clone().unwrap_or_default(),
                        commit_timestamp: o.commit_timestamp_ms,
                    }),
                })
            }
            _ => return None,
        };
        Some(ValueOut { version: 0, data })
    }

    /// The compacted log as Kafka's JSON lines (one record per line, `\n` after each):
    /// the latest record of every live key Kafka records, in offset order.
    pub fn kafka_records(&self) -> String {
        let mut log: Vec<Record> = self
            .records()
            .iter()
            .filter(|r| self.kafka_line(r).is_some())
            .cloned()
            .collect();
        crate::coordinator::compaction::compact(&mut log);
        let mut out = String::new();
        for r in &log {
            if let Some(line) = self.kafka_line(r) {
                if let Ok(text) = serde_json::to_string(&line) {
                    out.push_str(&text);
                    out.push('\n');
                }
            }
        }
        out
    }
}
