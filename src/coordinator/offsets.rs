//! OffsetCommit / OffsetFetch for streams and consumer groups, with member-epoch
//! checks (KIP-848 style): a member fetches only with its current epoch, else
//! STALE_MEMBER_EPOCH; an unknown member is UNKNOWN_MEMBER_ID. Epoch -1 is an admin
//! request, allowed only while the group has no members. A streams member may commit
//! with an older epoch (Kafka 4.2+): per partition, accepted when the member has held
//! the partition's task as active since at or before that epoch (PROTOCOL.md §11), so a
//! commit in flight across a rebalance does not fail for tasks it still owns.

use super::records::*;
use super::Coordinator;
use crate::protocol::ErrorCode::{self, *};
use crate::protocol::*;

/// Why one partition of a commit is refused; None when it is accepted.
type Refusal = Option<(ErrorCode, String)>;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommittedOffset {
    pub offset: i64,
    pub metadata: Option<String>,
    pub commit_timestamp_ms: i64,
}

impl Coordinator {
    /// The member epoch check shared by commit and fetch; `None` when allowed.
    fn offset_member_check(
        &self,
        group_id: &str,
        member_id: &str,
        epoch: i32,
    ) -> Option<(ErrorCode, String)> {
        let (known_epoch, has_members) = if let Some(g) = self.groups.get(group_id) {
            (
                g.members.get(member_id).map(|m| m.current.member_epoch),
                !g.members.is_empty(),
            )
        } else if let Some(g) = self.consumer_groups.get(group_id) {
            (
                g.members.get(member_id).map(|m| m.member_epoch),
                !g.members.is_empty(),
            )
        } else {
            return Some((GROUP_ID_NOT_FOUND, format!("Group {group_id} not found.")));
        };
        if epoch < 0 && member_id.is_empty() {
            return has_members.then(|| {
                (
                    UNKNOWN_MEMBER_ID,
                    format!("Group {group_id} has members; a commit without a member needs an empty group."),
                )
            });
        }
        match known_epoch {
            None => Some((
                UNKNOWN_MEMBER_ID,
                format!("Member {member_id} is not a member of group {group_id}."),
            )),
            Some(e) if e != epoch => Some((
                STALE_MEMBER_EPOCH,
                format!("The member epoch {epoch} does not match the member's current epoch {e}."),
            )),
            Some(_) => None,
        }
    }

    /// A streams member's commit with an older epoch than its current one: None when
    /// the commit is not that case (the plain check decides), else the verdict for each
    /// (topic, partition), as Kafka's assignment-epoch validator.
    fn older_epoch_verdicts(&self, req: &OffsetCommitRequest) -> Option<Vec<Vec<Refusal>>> {
        let g = self.groups.get(&req.group_id)?;
        let m = g.members.get(&req.member_id)?;
        let epoch = req.generation_id_or_member_epoch;
        if epoch < 0 || epoch >= m.current.member_epoch {
            return None;
        }
        let topology = g.ready_topology();
        let verdict = |topic: &str, partition: i32| -> Option<(ErrorCode, String)> {
            let subtopology = topology.and_then(|t| {
                t.subtopologies.iter().find(|s| {
                    s.source_topics.iter().any(|x| x == topic)
                        || s.repartition_source_topics.iter().any(|x| x.name == topic)
                })
            });
            let Some(s) = subtopology else {
                return Some((
                    STALE_MEMBER_EPOCH,
                    format!("Topic {topic} is not in the topology."),
                ));
            };
            match m.current.active_epoch(&s.id, partition) {
                None => Some((
                    STALE_MEMBER_EPOCH,
                    format!(
                        "Task {}-{partition} is not assigned or pending revocation for member.",
                        s.id
                    ),
                )),
                Some(e) if epoch < e => Some((
                    STALE_MEMBER_EPOCH,
                    format!(
                        "Received member epoch {epoch} is older than assignment epoch {e} for task {}-{partition}.",
                        s.id
                    ),
                )),
                Some(_) => None,
            }
        };
        Some(
            req.topics
                .iter()
                .map(|t| {
                    t.partitions
                        .iter()
                        .map(|p| verdict(&t.name, p.partition_index))
                        .collect()
                })
                .collect(),
        )
    }

    /// Checks every partition (nothing changes), then the budget for the accepted
    /// ones' records as a whole, then writes them.
    pub fn offset_commit(&mut self, req: &OffsetCommitRequest) -> OffsetCommitResponse {
        let mut verdicts = self.commit_verdicts(req);
        let records: Vec<Record> = self.commit_records(req, &verdicts).collect();
        match self.records_room(self.records_growth(records.iter())) {
            Ok(()) => {
                for r in records {
                    self.write(r.key, r.value);
                }
            }
            Err(why) => {
                let refusal = (
                    OFFSET_METADATA_TOO_LARGE,
                    format!("The offsets are not committed: {why}."),
                );
                for v in verdicts.iter_mut().flatten() {
                    if v.is_none() {
                        *v = Some(refusal.clone());
                    }
                }
            }
        }
        let topics = req
            .topics
            .iter()
            .zip(&verdicts)
            .map(|(t, vs)| OffsetCommitResponseTopic {
                name: t.name.clone(),
                partitions: t
                    .partitions
                    .iter()
                    .zip(vs)
                    .map(|(p, v)| OffsetCommitResponsePartition {
                        partition_index: p.partition_index,
                        error_code: v.as_ref().map_or(NONE, |r| r.0).code(),
                        error_message: v.as_ref().map(|r| r.1.clone()),
                    })
                    .collect(),
            })
            .collect();
        OffsetCommitResponse {
            throttle_time_ms: 0,
            topics,
        }
    }

    /// The verdict on each (topic, partition) of a commit.
    fn commit_verdicts(&self, req: &OffsetCommitRequest) -> Vec<Vec<Refusal>> {
        let older = self.older_epoch_verdicts(req);
        let check = match older {
            Some(_) => None,
            None => self.offset_member_check(
                &req.group_id,
                &req.member_id,
                req.generation_id_or_member_epoch,
            ),
        };
        req.topics
            .iter()
            .enumerate()
            .map(|(ti, t)| {
                (0..t.partitions.len())
                    .map(|pi| match &older {
                        Some(v) => v.get(ti).and_then(|ps| ps.get(pi)).cloned().flatten(),
                        None => check.clone(),
                    })
                    .collect()
            })
            .collect()
    }

    /// The records of the accepted partitions of a commit, in request order.
    fn commit_records<'a>(
        &self,
        req: &'a OffsetCommitRequest,
        verdicts: &'a [Vec<Refusal>],
    ) -> impl Iterator<Item = Record> + 'a {
        let (now, offset) = (self.now_ms, self.next_offset());
        req.topics.iter().zip(verdicts).flat_map(move |(t, vs)| {
            t.partitions
                .iter()
                .zip(vs)
                .filter(|(_, v)| v.is_none())
                .map(move |(p, _)| Record {
                    offset,
                    key: RecordKey::OffsetCommit {
                        group_id: req.group_id.clone(),
                        topic: t.name.clone(),
                        partition: p.partition_index,
                    },
                    value: Some(RecordValue::OffsetCommit(OffsetCommitValue {
                        offset: p.committed_offset,
                        metadata: p.committed_metadata.clone(),
                        commit_timestamp_ms: now,
                    })),
                })
        })
    }

    pub fn offset_fetch(&self, req: &OffsetFetchRequest) -> OffsetFetchResponse {
        let check = if req.member_epoch < 0 && req.member_id.as_deref().unwrap_or("").is_empty() {
            if self.groups.contains_key(&req.group_id)
                || self.consumer_groups.contains_key(&req.group_id)
            {
                None
            } else {
                Some((
                    GROUP_ID_NOT_FOUND,
                    format!("Group {} not found.", req.group_id),
                ))
            }
        } else {
            self.offset_member_check(
                &req.group_id,
                req.member_id.as_deref().unwrap_or(""),
                req.member_epoch,
            )
        };
        if let Some((code, message)) = check {
            return OffsetFetchResponse {
                error_code: code.code(),
                error_message: Some(message),
                ..Default::default()
            };
        }
        let committed = self.offsets.get(&req.group_id);
        let entry = |topic: &str, p: i32| {
            let c = committed.and_then(|m| m.get(&(topic.to_owned(), p)));
            OffsetFetchResponsePartition {
                partition_index: p,
                committed_offset: c.map(|c| c.offset).unwrap_or(-1),
                metadata: c.and_then(|c| c.metadata.clone()),
                error_code: 0,
            }
        };
        let topics = match &req.topics {
            Some(ts) => ts
                .iter()
                .map(|t| OffsetFetchResponseTopic {
                    name: t.name.clone(),
                    partitions: t
                        .partition_indexes
                        .iter()
                        .map(|p| entry(&t.name, *p))
                        .collect(),
                })
                .collect(),
            None => {
                let mut out: Vec<OffsetFetchResponseTopic> = Vec::new();
                for (topic, p) in committed.into_iter().flat_map(|m| m.keys()) {
                    if out.last().is_none_or(|t| t.name != *topic) {
                        out.push(OffsetFetchResponseTopic {
                            name: topic.clone(),
                            partitions: Vec::new(),
                        });
                    }
                    if let Some(t) = out.last_mut() {
                        t.partitions.push(entry(topic, *p));
                    }
                }
                out
            }
        };
        OffsetFetchResponse {
            topics,
            ..Default::default()
        }
    }
}
