//! Enough of the consumer-group protocol (KIP-848) to hold consumer groups beside
//! streams groups: join, heartbeat with epoch checks, leave, session timeouts, and a
//! simple deterministic assignment of the subscribed topics' partitions. Simplified:
//! a new assignment is handed out at once (no revocation step), which the streams side
//! does not depend on. A consumer heartbeat to a streams group, and a streams heartbeat
//! to a consumer group, answer GROUP_ID_NOT_FOUND.

use super::heartbeat::Refusal;
use super::records::*;
use super::{Coordinator, RequestContext};
use crate::cluster::ANONYMOUS;
use crate::protocol::ErrorCode::*;
use crate::protocol::{
    ConsumerGroupAssignment, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse,
    ProtocolError, TopicPartitions,
};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConsumerMember {
    pub member_epoch: i32,
    /// The epoch the member was last told (it may still heartbeat with it).
    pub previous_member_epoch: i32,
    pub instance_id: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub subscribed_topic_names: Vec<String>,
    pub assignment: Vec<TopicPartitions>,
    pub session_deadline_ms: i64,
}

impl From<&ConsumerGroupMemberValue> for ConsumerMember {
    fn from(v: &ConsumerGroupMemberValue) -> Self {
        ConsumerMember {
            member_epoch: v.member_epoch,
            previous_member_epoch: v.previous_member_epoch,
            instance_id: v.instance_id.clone(),
            rebalance_timeout_ms: v.rebalance_timeout_ms,
            subscribed_topic_names: v.subscribed_topic_names.clone(),
            assignment: v.assignment.clone(),
            session_deadline_ms: v.session_deadline_ms,
        }
    }
}

impl From<&ConsumerMember> for ConsumerGroupMemberValue {
    fn from(m: &ConsumerMember) -> Self {
        ConsumerGroupMemberValue {
            member_epoch: m.member_epoch,
            previous_member_epoch: m.previous_member_epoch,
            instance_id: m.instance_id.clone(),
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            subscribed_topic_names: m.subscribed_topic_names.clone(),
            assignment: m.assignment.clone(),
            session_deadline_ms: m.session_deadline_ms,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConsumerGroup {
    pub group_id: String,
    pub epoch: i32,
    pub members: BTreeMap<String, ConsumerMember>,
}

impl ConsumerGroup {
    pub fn new(group_id: &str) -> Self {
        ConsumerGroup {
            group_id: group_id.to_owned(),
            ..Default::default()
        }
    }

    pub fn state(&self) -> &'static str {
        if self.members.is_empty() {
            "Empty"
        } else {
            "Stable"
        }
    }
}

impl Coordinator {
    pub fn consumer_group_heartbeat(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> ConsumerGroupHeartbeatResponse {
        self.enter(ctx);
        match self.consumer_heartbeat(req, ctx) {
            Ok(r) => r,
            Err(e) => {
                let mut r =
                    ConsumerGroupHeartbeatResponse::error(&e, &req.member_id, req.member_epoch);
                r.heartbeat_interval_ms = self.config.heartbeat_interval_ms;
                r
            }
        }
    }

    fn write_consumer_member(&mut self, gid: &str, mid: &str, m: &ConsumerMember) {
        self.write(
            RecordKey::ConsumerGroupMember {
                group_id: gid.to_owned(),
                member_id: mid.to_owned(),
            },
            Some(RecordValue::ConsumerGroupMember(m.into())),
        );
    }

    pub(crate) fn remove_consumer_member(&mut self, gid: &str, mid: &str) {
        self.write(
            RecordKey::ConsumerGroupMember {
                group_id: gid.to_owned(),
                member_id: mid.to_owned(),
            },
            None,
        );
        self.reassign_consumer_group(gid);
    }

    /// Bumps the epoch and spreads each subscribed topic's partitions over its
    /// subscribers (`consumer_reassignment`).
    fn reassign_consumer_group(&mut self, gid: &str) {
        let Some(g) = self.consumer_groups.get(gid) else {
            return;
        };
        let (epoch, updates) = self.consumer_reassignment(g);
        self.write(
            RecordKey::ConsumerGroupMetadata {
                group_id: gid.to_owned(),
            },
            Some(RecordValue::ConsumerGroupMetadata(
                ConsumerGroupMetadataValue { epoch },
            )),
        );
        for (id, m) in updates {
            self.write_consumer_member(gid, &id, &m);
        }
    }

    /// The group's next epoch and every member with its next assignment: each
    /// subscribed topic's partitions over its subscribers (sorted by member id,
    /// partition p to subscriber p mod n).
    fn consumer_reassignment(&self, g: &ConsumerGroup) -> (i32, Vec<(String, ConsumerMember)>) {
        let epoch = g.epoch.saturating_add(1);
        let mut next: BTreeMap<String, BTreeMap<String, Vec<i32>>> = g
            .members
            .keys()
            .map(|k| (k.clone(), BTreeMap::new()))
            .collect();
        let mut subscribers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (id, m) in &g.members {
            for t in &m.subscribed_topic_names {
                subscribers.entry(t.as_str()).or_default().push(id.as_str());
            }
        }
        for (topic, subs) in &subscribers {
            let Some(meta) = self.cluster.topic(topic) else {
                continue;
            };
            for p in 0..meta.num_partitions.max(0) {
                let who = subs.get((p as usize) % subs.len().max(1));
                if let Some(a) = who.and_then(|w| next.get_mut(*w)) {
                    a.entry((*topic).to_owned()).or_default().push(p);
                }
            }
        }
        let updates = g
            .members
            .iter()
            .map(|(id, m)| {
                let mut n = m.clone();
                n.member_epoch = epoch;
                n.assignment = next
                    .remove(id)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(topic, partitions)| TopicPartitions { topic, partitions })
                    .collect();
                (id.clone(), n)
            })
            .collect();
        (epoch, updates)
    }

    /// GROUP_MAX_SIZE_REACHED when the records this plan writes (the member's, and
    /// every member's new assignment when it reassigns) would pass the memory budget.
    fn check_consumer_budget(&self, gid: &str, plan: &ConsumerPlan) -> Result<(), ProtocolError> {
        let record = |mid: &str, m: &ConsumerMember| Record {
            offset: self.next_offset(),
            key: RecordKey::ConsumerGroupMember {
                group_id: gid.to_owned(),
                member_id: mid.to_owned(),
            },
            value: Some(RecordValue::ConsumerGroupMember(m.into())),
        };
        let records: Vec<Record> = if plan.reassign {
            let mut g = self
                .consumer_groups
                .get(gid)
                .cloned()
                .unwrap_or_else(|| ConsumerGroup::new(gid));
            g.members
                .insert(plan.member_id.clone(), plan.member.clone());
            let (_, updates) = self.consumer_reassignment(&g);
            updates.iter().map(|(id, m)| record(id, m)).collect()
        } else {
            vec![record(&plan.member_id, &plan.member)]
        };
        self.records_room(self.records_growth(records.iter()))
            .map_err(|why| {
                ProtocolError::new(
                    GROUP_MAX_SIZE_REACHED,
                    format!("The consumer group {gid} cannot take this request: {why}."),
                )
            })
    }

    /// A consumer join or heartbeat: check (nothing changes), commit, respond. A
    /// negative member epoch leaves.
    fn consumer_heartbeat(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> Result<ConsumerGroupHeartbeatResponse, ProtocolError> {
        self.check_consumer_request(req, ctx)?;
        if req.member_epoch < 0 {
            return self.consumer_leave(req);
        }
        let plan = match self.check_consumer_member(req) {
            Ok(plan) => plan,
            Err(Refusal::Error(e)) => return Err(e),
            Err(Refusal::Fenced { member_id, error }) => {
                self.remove_consumer_member(&req.group_id, &member_id);
                return Err(error);
            }
        };
        self.check_consumer_budget(&req.group_id, &plan)?;
        self.commit_consumer_member(&req.group_id, &plan);
        self.respond_consumer(req, plan.member_id)
    }

    /// Authorization, the request's own rules, and the group: a consumer group, or
    /// none yet for a join.
    fn check_consumer_request(
        &self,
        req: &ConsumerGroupHeartbeatRequest,
        ctx: &RequestContext,
    ) -> Result<(), ProtocolError> {
        let principal = ctx.principal.as_deref().unwrap_or(ANONYMOUS);
        self.authorize_group_read(principal, &req.group_id)?;
        validate_consumer_heartbeat(req)?;
        let gid = req.group_id.as_str();
        if self.groups.contains_key(gid) {
            return Err(ProtocolError::new(
                GROUP_ID_NOT_FOUND,
                format!("Group {gid} is not a consumer group."),
            ));
        }
        if !self.consumer_groups.contains_key(gid) && req.member_epoch != 0 {
            return Err(ProtocolError::new(
                GROUP_ID_NOT_FOUND,
                format!("Consumer group {gid} not found."),
            ));
        }
        Ok(())
    }

    /// A leave (member epoch -1 or -2): the member goes and the group is reassigned.
    fn consumer_leave(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerGroupHeartbeatResponse, ProtocolError> {
        let gid = req.group_id.as_str();
        let known = self
            .consumer_groups
            .get(gid)
            .is_some_and(|g| g.members.contains_key(&req.member_id));
        if !known {
            return Err(unknown_consumer_member(&req.member_id, gid));
        }
        self.remove_consumer_member(gid, &req.member_id);
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(req.member_id.clone()),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            ..Default::default()
        })
    }

    /// The member's checks (its epoch, the group's size for a new one) and its record
    /// after this request.
    fn check_consumer_member(
        &self,
        req: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerPlan, Refusal> {
        let gid = req.group_id.as_str();
        let joining = req.member_epoch == 0;
        let group = self.consumer_groups.get(gid);
        let session = self
            .now_ms
            .saturating_add(i64::from(self.config.session_timeout_ms));
        let existing = group.and_then(|g| g.members.get(&req.member_id));
        let mut plan = match existing {
            Some(m) => {
                if !joining
                    && req.member_epoch != m.member_epoch
                    && req.member_epoch != m.previous_member_epoch
                {
                    let error = ProtocolError::new(
                        FENCED_MEMBER_EPOCH,
                        format!(
                            "The consumer group member has member epoch {} but the coordinator knows {}.",
                            req.member_epoch, m.member_epoch
                        ),
                    );
                    return Err(Refusal::Fenced {
                        member_id: req.member_id.clone(),
                        error,
                    });
                }
                let mut n = m.clone();
                if let Some(s) = &req.subscribed_topic_names {
                    n.subscribed_topic_names = s.clone();
                }
                if req.rebalance_timeout_ms > 0 {
                    n.rebalance_timeout_ms = req.rebalance_timeout_ms;
                }
                ConsumerPlan {
                    member_id: req.member_id.clone(),
                    generated: None,
                    reassign: n.subscribed_topic_names != m.subscribed_topic_names,
                    member: n,
                }
            }
            None if !joining => return Err(unknown_consumer_member(&req.member_id, gid).into()),
            None => self.plan_new_consumer(req, group)?,
        };
        plan.member.session_deadline_ms = session;
        Ok(plan)
    }

    /// A new member: room in the group, its id (given, or the generator's next).
    fn plan_new_consumer(
        &self,
        req: &ConsumerGroupHeartbeatRequest,
        group: Option<&ConsumerGroup>,
    ) -> Result<ConsumerPlan, ProtocolError> {
        if let (Some(max), Some(g)) = (self.config.group_max_size, group) {
            if g.members.len() >= max as usize {
                return Err(ProtocolError::new(
                    GROUP_MAX_SIZE_REACHED,
                    format!(
                        "The consumer group {} has reached its maximum size of {max} members.",
                        req.group_id
                    ),
                ));
            }
        }
        let (member_id, generated) = if req.member_id.is_empty() {
            let n = self.ids_generated;
            (super::ids::member_id(self.config.seed, n), Some(n + 1))
        } else {
            (req.member_id.clone(), None)
        };
        Ok(ConsumerPlan {
            member_id,
            generated,
            member: ConsumerMember {
                instance_id: req.instance_id.clone(),
                rebalance_timeout_ms: req.rebalance_timeout_ms,
                subscribed_topic_names: req.subscribed_topic_names.clone().unwrap_or_default(),
                ..Default::default()
            },
            reassign: true,
        })
    }

    /// The id generator's count, the member's record, and a new assignment when its
    /// subscription changed.
    fn commit_consumer_member(&mut self, gid: &str, plan: &ConsumerPlan) {
        if let Some(generated) = plan.generated {
            self.write(
                RecordKey::MemberIdGenerator {},
                Some(RecordValue::MemberIdGenerator(MemberIdGeneratorValue {
                    generated: generated as i64,
                })),
            );
        }
        self.write_consumer_member(gid, &plan.member_id, &plan.member);
        if plan.reassign {
            self.reassign_consumer_group(gid);
        }
    }

    /// The member's epoch, and its assignment when it joined or its epoch moved (then
    /// recorded as told).
    fn respond_consumer(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
        member_id: String,
    ) -> Result<ConsumerGroupHeartbeatResponse, ProtocolError> {
        let gid = req.group_id.as_str();
        let Some(m) = self
            .consumer_groups
            .get(gid)
            .and_then(|g| g.members.get(&member_id))
            .cloned()
        else {
            return Err(ProtocolError::new(
                UNKNOWN_MEMBER_ID,
                "The member was removed.",
            ));
        };
        let send = req.member_epoch == 0 || req.member_epoch != m.member_epoch;
        if m.previous_member_epoch != m.member_epoch {
            let mut n = m.clone();
            n.previous_member_epoch = m.member_epoch;
            self.write_consumer_member(gid, &member_id, &n);
        }
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: m.member_epoch,
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            assignment: send.then(|| ConsumerGroupAssignment {
                topic_partitions: m.assignment.clone(),
            }),
            ..Default::default()
        })
    }
}

/// A consumer join or heartbeat that passed its checks: the member's record after it.
struct ConsumerPlan {
    member_id: String,
    /// The id generator's new count, when `member_id` came from the generator.
    generated: Option<u64>,
    member: ConsumerMember,
    /// The subscription changed (or the member is new): the group is reassigned.
    reassign: bool,
}

fn unknown_consumer_member(member_id: &str, gid: &str) -> ProtocolError {
    ProtocolError::new(
        UNKNOWN_MEMBER_ID,
        format!("Member {member_id} is not a member of consumer group {gid}."),
    )
}

/// The request's own rules (KIP-848's ConsumerGroupHeartbeat validation).
fn validate_consumer_heartbeat(req: &ConsumerGroupHeartbeatRequest) -> Result<(), ProtocolError> {
    if req.group_id.trim().is_empty() {
        return Err(ProtocolError::invalid_request("GroupId can't be empty."));
    }
    if req.member_epoch < -2 {
        return Err(ProtocolError::invalid_request(format!(
            "MemberEpoch is {}, but must be greater than or equal to -2.",
            req.member_epoch
        )));
    }
    let joining = req.member_epoch == 0;
    if !joining && req.member_id.trim().is_empty() {
        return Err(ProtocolError::invalid_request("MemberId can't be empty."));
    }
    if joining {
        if req.rebalance_timeout_ms <= 0 {
            return Err(ProtocolError::invalid_request(
                "RebalanceTimeoutMs must be provided in first request.",
            ));
        }
        if req.subscribed_topic_names.is_none() {
            return Err(ProtocolError::invalid_request(
                "SubscribedTopicNames must be set in first request.",
            ));
        }
    }
    Ok(())
}
