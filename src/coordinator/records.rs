//! The coordinator's record log (SPEC.md section 1): Kafka's streams group records,
//! plus what Kafka keeps in memory only (task offsets, the shutdown request, what each
//! member was last sent, timers), the consumer-group and offset records, and the
//! simulated cluster's own metadata (topics, ACLs) and clock.
//!
//! Every record is a key and a value (null = tombstone); a later value for the same key
//! replaces the earlier one, so the log can be compacted. Records encode to JSON as
//! `{ offset, key: { type, ... }, value: { type, ... } | null }` and decode strictly.

use crate::from_json_struct;
use crate::protocol::json::{int64, DecodeError, FromJson, Path};
use crate::protocol::{
    Endpoint, KeyValue, Status, Subtopology, TaskIds, TaskOffset, TopicInfo, TopicPartitions,
};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Option<i64> as JSON number or, beyond 2^53, a decimal string.
mod int64_opt {
    use serde::Serializer;
    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => super::int64::serialize(x, s),
            None => s.serialize_none(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "type")]
pub enum RecordKey {
    #[serde(rename = "StreamsGroupMetadataKey", rename_all = "camelCase")]
    GroupMetadata { group_id: String },
    #[serde(rename = "StreamsGroupTopologyKey", rename_all = "camelCase")]
    Topology { group_id: String },
    #[serde(rename = "StreamsGroupMemberMetadataKey", rename_all = "camelCase")]
    MemberMetadata { group_id: String, member_id: String },
    #[serde(
        rename = "StreamsGroupTargetAssignmentMetadataKey",
        rename_all = "camelCase"
    )]
    TargetAssignmentMetadata { group_id: String },
    #[serde(
        rename = "StreamsGroupTargetAssignmentMemberKey",
        rename_all = "camelCase"
    )]
    TargetAssignmentMember { group_id: String, member_id: String },
    #[serde(
        rename = "StreamsGroupCurrentMemberAssignmentKey",
        rename_all = "camelCase"
    )]
    CurrentMemberAssignment { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupMemberRuntimeKey", rename_all = "camelCase")]
    MemberRuntime { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupMemberTimersKey", rename_all = "camelCase")]
    MemberTimers { group_id: String, member_id: String },
    #[serde(rename = "StreamsGroupTopicCreationKey", rename_all = "camelCase")]
    TopicCreation { group_id: String },
    #[serde(rename = "ConsumerGroupMetadataKey", rename_all = "camelCase")]
    ConsumerGroupMetadata { group_id: String },
    #[serde(rename = "ConsumerGroupMemberKey", rename_all = "camelCase")]
    ConsumerGroupMember { group_id: String, member_id: String },
    #[serde(rename = "OffsetCommitKey", rename_all = "camelCase")]
    OffsetCommit {
        group_id: String,
        topic: String,
        partition: i32,
    },
    #[serde(rename = "TopicKey", rename_all = "camelCase")]
    Topic { name: String },
    #[serde(rename = "AclsKey")]
    Acls {},
    #[serde(rename = "ClockKey")]
    Clock {},
    #[serde(rename = "MemberIdGeneratorKey")]
    MemberIdGenerator {},
    /// Events waiting for the next `advanceTime` (so a rebuilt coordinator returns them too).
    #[serde(rename = "PendingEventsKey")]
    PendingEvents {},
    /// The assignment-relevant group configs set at run time (`setGroupConfig`).
    #[serde(rename = "GroupConfigKey")]
    GroupConfig {},
}

impl RecordKey {
    /// The value type a key of this type carries.
    pub fn value_type(&self) -> &'static str {
        match self {
            RecordKey::GroupMetadata { .. } => "StreamsGroupMetadataValue",
            RecordKey::Topology { .. } => "StreamsGroupTopologyValue",
            RecordKey::MemberMetadata { .. } => "StreamsGroupMemberMetadataValue",
            RecordKey::TargetAssignmentMetadata { .. } => {
                "StreamsGroupTargetAssignmentMetadataValue"
            }
            RecordKey::TargetAssignmentMember { .. } => "StreamsGroupTargetAssignmentMemberValue",
            RecordKey::CurrentMemberAssignment { .. } => "StreamsGroupCurrentMemberAssignmentValue",
            RecordKey::MemberRuntime { .. } => "StreamsGroupMemberRuntimeValue",
            RecordKey::MemberTimers { .. } => "StreamsGroupMemberTimersValue",
            RecordKey::TopicCreation { .. } => "StreamsGroupTopicCreationValue",
            RecordKey::ConsumerGroupMetadata { .. } => "ConsumerGroupMetadataValue",
            RecordKey::ConsumerGroupMember { .. } => "ConsumerGroupMemberValue",
            RecordKey::OffsetCommit { .. } => "OffsetCommitValue",
            RecordKey::Topic { .. } => "TopicValue",
            RecordKey::Acls {} => "AclsValue",
            RecordKey::Clock {} => "ClockValue",
            RecordKey::MemberIdGenerator {} => "MemberIdGeneratorValue",
            RecordKey::PendingEvents {} => "PendingEventsValue",
            RecordKey::GroupConfig {} => "GroupConfigValue",
        }
    }
}

impl FromJson for RecordKey {
    const EXPECTED: &'static str = "a record key object";
    const PLURAL: &'static str = "record key objects";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let mut f = crate::protocol::json::Fields::new(v, path, Self::EXPECTED)?;
        let ty: String = f.required("type")?;
        let key = match ty.as_str() {
            "StreamsGroupMetadataKey" => RecordKey::GroupMetadata {
                group_id: f.required("groupId")?,
            },
            "StreamsGroupTopologyKey" => RecordKey::Topology {
                group_id: f.required("groupId")?,
            },
            "StreamsGroupMemberMetadataKey" => RecordKey::MemberMetadata {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "StreamsGroupTargetAssignmentMetadataKey" => RecordKey::TargetAssignmentMetadata {
                group_id: f.required("groupId")?,
            },
            "StreamsGroupTargetAssignmentMemberKey" => RecordKey::TargetAssignmentMember {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "StreamsGroupCurrentMemberAssignmentKey" => RecordKey::CurrentMemberAssignment {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "StreamsGroupMemberRuntimeKey" => RecordKey::MemberRuntime {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "StreamsGroupMemberTimersKey" => RecordKey::MemberTimers {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "StreamsGroupTopicCreationKey" => RecordKey::TopicCreation {
                group_id: f.required("groupId")?,
            },
            "ConsumerGroupMetadataKey" => RecordKey::ConsumerGroupMetadata {
                group_id: f.required("groupId")?,
            },
            "ConsumerGroupMemberKey" => RecordKey::ConsumerGroupMember {
                group_id: f.required("groupId")?,
                member_id: f.required("memberId")?,
            },
            "OffsetCommitKey" => RecordKey::OffsetCommit {
                group_id: f.required("groupId")?,
                topic: f.required("topic")?,
                partition: f.required::<crate::protocol::Partition>("partition")?.0,
            },
            "TopicKey" => RecordKey::Topic {
                name: f.required("name")?,
            },
            "AclsKey" => RecordKey::Acls {},
            "ClockKey" => RecordKey::Clock {},
            "MemberIdGeneratorKey" => RecordKey::MemberIdGenerator {},
            "PendingEventsKey" => RecordKey::PendingEvents {},
            "GroupConfigKey" => RecordKey::GroupConfig {},
            other => {
                return Err(DecodeError::new(
                    &path.key("type"),
                    format!(
                        "unknown record key type {:?}",
                        crate::protocol::json::truncate(other, 60)
                    ),
                ))
            }
        };
        f.finish()?;
        Ok(key)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupMetadataValue {
    pub epoch: i32,
    #[serde(with = "int64")]
    pub metadata_hash: i64,
    /// Not in Kafka's record (it keeps it in memory): the member that asked for shutdown.
    pub shutdown_requester: Option<String>,
}

from_json_struct!(
    GroupMetadataValue,
    "a StreamsGroupMetadataValue object",
    "StreamsGroupMetadataValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(GroupMetadataValue {
            epoch: f.required("epoch")?,
            metadata_hash: f.required("metadataHash")?,
            shutdown_requester: f.or("shutdownRequester", None)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyValue {
    pub topology_epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

from_json_struct!(
    TopologyValue,
    "a StreamsGroupTopologyValue object",
    "StreamsGroupTopologyValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(TopologyValue {
            topology_epoch: f.required("topologyEpoch")?,
            subtopologies: f.required("subtopologies")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberMetadataValue {
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: i32,
    pub topology_epoch: i32,
    pub process_id: String,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Vec<KeyValue>,
}

from_json_struct!(
    MemberMetadataValue,
    "a StreamsGroupMemberMetadataValue object",
    "StreamsGroupMemberMetadataValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(MemberMetadataValue {
            instance_id: f.or("instanceId", None)?,
            rack_id: f.or("rackId", None)?,
            client_id: f.required("clientId")?,
            client_host: f.required("clientHost")?,
            rebalance_timeout_ms: f.required("rebalanceTimeoutMs")?,
            topology_epoch: f.required("topologyEpoch")?,
            process_id: f.required("processId")?,
            user_endpoint: f.or("userEndpoint", None)?,
            client_tags: f.list("clientTags")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetAssignmentMetadataValue {
    pub assignment_epoch: i32,
}

from_json_struct!(
    TargetAssignmentMetadataValue,
    "a StreamsGroupTargetAssignmentMetadataValue object",
    "StreamsGroupTargetAssignmentMetadataValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(TargetAssignmentMetadataValue {
            assignment_epoch: f.required("assignmentEpoch")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetAssignmentMemberValue {
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
}

from_json_struct!(
    TargetAssignmentMemberValue,
    "a StreamsGroupTargetAssignmentMemberValue object",
    "StreamsGroupTargetAssignmentMemberValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(TargetAssignmentMemberValue {
            active_tasks: f.list("activeTasks")?,
            standby_tasks: f.list("standbyTasks")?,
            warmup_tasks: f.list("warmupTasks")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurrentMemberAssignmentValue {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    /// 1 Stable, 2 UnrevokedTasks, 3 UnreleasedTasks (Kafka's numbers).
    pub state: i8,
    pub active_tasks: Vec<TaskIds>,
    pub standby_tasks: Vec<TaskIds>,
    pub warmup_tasks: Vec<TaskIds>,
    pub active_tasks_pending_revocation: Vec<TaskIds>,
    pub standby_tasks_pending_revocation: Vec<TaskIds>,
    pub warmup_tasks_pending_revocation: Vec<TaskIds>,
}

from_json_struct!(
    CurrentMemberAssignmentValue,
    "a StreamsGroupCurrentMemberAssignmentValue object",
    "StreamsGroupCurrentMemberAssignmentValue objects",
    |f| {
        f.ignore(&["type"]);
        let state: i8 = f.required("state")?;
        if super::member::MemberState::from_code(state).is_none() {
            return Err(DecodeError::new(
                &f.path().key("state"),
                format!(
                    "unknown member state {state} (1 Stable, 2 UnrevokedTasks, 3 UnreleasedTasks)"
                ),
            ));
        }
        Ok(CurrentMemberAssignmentValue {
            member_epoch: f.required("memberEpoch")?,
            previous_member_epoch: f.required("previousMemberEpoch")?,
            state,
            active_tasks: f.list("activeTasks")?,
            standby_tasks: f.list("standbyTasks")?,
            warmup_tasks: f.list("warmupTasks")?,
            active_tasks_pending_revocation: f.list("activeTasksPendingRevocation")?,
            standby_tasks_pending_revocation: f.list("standbyTasksPendingRevocation")?,
            warmup_tasks_pending_revocation: f.list("warmupTasksPendingRevocation")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberRuntimeValue {
    pub task_offsets: Vec<TaskOffset>,
    pub task_end_offsets: Vec<TaskOffset>,
    pub reported_active_tasks: Vec<TaskIds>,
    pub reported_standby_tasks: Vec<TaskIds>,
    pub reported_warmup_tasks: Vec<TaskIds>,
    pub last_status: Option<Vec<Status>>,
    #[serde(with = "int64_opt")]
    pub endpoints_sent_hash: Option<i64>,
}

from_json_struct!(
    MemberRuntimeValue,
    "a StreamsGroupMemberRuntimeValue object",
    "StreamsGroupMemberRuntimeValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(MemberRuntimeValue {
            task_offsets: f.list("taskOffsets")?,
            task_end_offsets: f.list("taskEndOffsets")?,
            reported_active_tasks: f.list("reportedActiveTasks")?,
            reported_standby_tasks: f.list("reportedStandbyTasks")?,
            reported_warmup_tasks: f.list("reportedWarmupTasks")?,
            last_status: f.or("lastStatus", None)?,
            endpoints_sent_hash: f.or("endpointsSentHash", None)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberTimersValue {
    #[serde(with = "int64")]
    pub session_deadline_ms: i64,
    #[serde(with = "int64_opt")]
    pub rebalance_deadline_ms: Option<i64>,
    pub rebalance_deadline_epoch: i32,
}

from_json_struct!(
    MemberTimersValue,
    "a StreamsGroupMemberTimersValue object",
    "StreamsGroupMemberTimersValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(MemberTimersValue {
            session_deadline_ms: f.required("sessionDeadlineMs")?,
            rebalance_deadline_ms: f.or("rebalanceDeadlineMs", None)?,
            rebalance_deadline_epoch: f.or("rebalanceDeadlineEpoch", 0)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingCreationValue {
    pub topics: Vec<TopicInfo>,
    #[serde(with = "int64")]
    pub completes_at_ms: i64,
}

from_json_struct!(
    PendingCreationValue,
    "a pending creation object",
    "pending creation objects",
    |f| {
        Ok(PendingCreationValue {
            topics: f.required("topics")?,
            completes_at_ms: f.required("completesAtMs")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicCreationValue {
    pub in_flight: Option<PendingCreationValue>,
    pub last_failure: Option<String>,
    pub attempts: u32,
    #[serde(with = "int64")]
    pub next_attempt_at_ms: i64,
}

from_json_struct!(
    TopicCreationValue,
    "a StreamsGroupTopicCreationValue object",
    "StreamsGroupTopicCreationValue objects",
    |f| {
        f.ignore(&["type"]);
        let attempts: i64 = f.or("attempts", 0)?;
        Ok(TopicCreationValue {
            in_flight: f.or("inFlight", None)?,
            last_failure: f.or("lastFailure", None)?,
            attempts: u32::try_from(attempts).map_err(|_| {
                DecodeError::new(
                    &f.path().key("attempts"),
                    format!("{attempts} is out of range"),
                )
            })?,
            next_attempt_at_ms: f.or("nextAttemptAtMs", 0)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsumerGroupMetadataValue {
    pub epoch: i32,
}

from_json_struct!(
    ConsumerGroupMetadataValue,
    "a ConsumerGroupMetadataValue object",
    "ConsumerGroupMetadataValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(ConsumerGroupMetadataValue {
            epoch: f.required("epoch")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsumerGroupMemberValue {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub instance_id: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub subscribed_topic_names: Vec<String>,
    pub assignment: Vec<TopicPartitions>,
    #[serde(with = "int64")]
    pub session_deadline_ms: i64,
}

from_json_struct!(
    ConsumerGroupMemberValue,
    "a ConsumerGroupMemberValue object",
    "ConsumerGroupMemberValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(ConsumerGroupMemberValue {
            member_epoch: f.required("memberEpoch")?,
            previous_member_epoch: f.or("previousMemberEpoch", 0)?,
            instance_id: f.or("instanceId", None)?,
            rebalance_timeout_ms: f.or("rebalanceTimeoutMs", -1)?,
            subscribed_topic_names: f.list("subscribedTopicNames")?,
            assignment: f.list("assignment")?,
            session_deadline_ms: f.or("sessionDeadlineMs", 0)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OffsetCommitValue {
    #[serde(with = "int64")]
    pub offset: i64,
    pub metadata: Option<String>,
    #[serde(with = "int64")]
    pub commit_timestamp_ms: i64,
}

from_json_struct!(
    OffsetCommitValue,
    "an OffsetCommitValue object",
    "OffsetCommitValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(OffsetCommitValue {
            offset: f.required("offset")?,
            metadata: f.or("metadata", None)?,
            commit_timestamp_ms: f.or("commitTimestampMs", 0)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicValue {
    pub num_partitions: i32,
    pub replication_factor: i16,
    pub configs: Vec<KeyValue>,
}

from_json_struct!(
    TopicValue,
    "a TopicValue object",
    "TopicValue objects",
    |f| {
        f.ignore(&["type"]);
        let num_partitions: i32 = f.required("numPartitions")?;
        if num_partitions <= 0 {
            return Err(DecodeError::new(
                &f.path().key("numPartitions"),
                format!("{num_partitions} is not a positive partition count"),
            ));
        }
        Ok(TopicValue {
            num_partitions,
            replication_factor: f.or("replicationFactor", 1)?,
            configs: f.list("configs")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AclValue {
    pub principal: String,
    pub resource_type: String,
    pub resource_name: String,
    pub operation: String,
}

from_json_struct!(AclValue, "an ACL object", "ACL objects", |f| {
    let resource_type: String = f.required("resourceType")?;
    if crate::cluster::ResourceType::parse(&resource_type).is_none() {
        return Err(DecodeError::new(
            &f.path().key("resourceType"),
            "expected \"group\", \"topic\" or \"cluster\"",
        ));
    }
    let operation: String = f.required("operation")?;
    if crate::cluster::Operation::parse(&operation).is_none() {
        return Err(DecodeError::new(
            &f.path().key("operation"),
            "expected \"read\", \"describe\", \"create\" or \"all\"",
        ));
    }
    Ok(AclValue {
        principal: f.required("principal")?,
        resource_type,
        resource_name: f.required("resourceName")?,
        operation,
    })
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AclsValue {
    pub acls: Vec<AclValue>,
}

from_json_struct!(AclsValue, "an AclsValue object", "AclsValue objects", |f| {
    f.ignore(&["type"]);
    Ok(AclsValue {
        acls: f.list("acls")?,
    })
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockValue {
    #[serde(with = "int64")]
    pub now_ms: i64,
}

from_json_struct!(
    ClockValue,
    "a ClockValue object",
    "ClockValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(ClockValue {
            now_ms: f.required("nowMs")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberIdGeneratorValue {
    #[serde(with = "int64")]
    pub generated: i64,
}

from_json_struct!(
    MemberIdGeneratorValue,
    "a MemberIdGeneratorValue object",
    "MemberIdGeneratorValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(MemberIdGeneratorValue {
            generated: f.required("generated")?,
        })
    }
);

/// The assignment-relevant group configs (`setGroupConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupConfigValue {
    pub assignor: String,
    pub num_standby_replicas: u32,
    #[serde(with = "int64")]
    pub acceptable_recovery_lag: i64,
    pub max_warmup_replicas: u32,
}

from_json_struct!(
    GroupConfigValue,
    "a GroupConfigValue object",
    "GroupConfigValue objects",
    |f| {
        f.ignore(&["type"]);
        let path = *f.path();
        let assignor: String = f.required("assignor")?;
        super::group_config::check_assignor(&assignor, &path)?;
        let lag: i64 = f.required("acceptableRecoveryLag")?;
        crate::config::at_least(lag, 0, &path, "acceptableRecoveryLag")?;
        Ok(GroupConfigValue {
            assignor,
            num_standby_replicas: f.required::<crate::config::Count>("numStandbyReplicas")?.0,
            acceptable_recovery_lag: lag,
            max_warmup_replicas: f.required::<crate::config::Count>("maxWarmupReplicas")?.0,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingEventsValue {
    pub events: Vec<super::events::Event>,
}

from_json_struct!(
    PendingEventsValue,
    "a PendingEventsValue object",
    "PendingEventsValue objects",
    |f| {
        f.ignore(&["type"]);
        Ok(PendingEventsValue {
            events: f.list("events")?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type")]
pub enum RecordValue {
    #[serde(rename = "StreamsGroupMetadataValue")]
    GroupMetadata(GroupMetadataValue),
    #[serde(rename = "StreamsGroupTopologyValue")]
    Topology(TopologyValue),
    #[serde(rename = "StreamsGroupMemberMetadataValue")]
    MemberMetadata(MemberMetadataValue),
    #[serde(rename = "StreamsGroupTargetAssignmentMetadataValue")]
    TargetAssignmentMetadata(TargetAssignmentMetadataValue),
    #[serde(rename = "StreamsGroupTargetAssignmentMemberValue")]
    TargetAssignmentMember(TargetAssignmentMemberValue),
    #[serde(rename = "StreamsGroupCurrentMemberAssignmentValue")]
    CurrentMemberAssignment(CurrentMemberAssignmentValue),
    #[serde(rename = "StreamsGroupMemberRuntimeValue")]
    MemberRuntime(MemberRuntimeValue),
    #[serde(rename = "StreamsGroupMemberTimersValue")]
    MemberTimers(MemberTimersValue),
    #[serde(rename = "StreamsGroupTopicCreationValue")]
    TopicCreation(TopicCreationValue),
    #[serde(rename = "ConsumerGroupMetadataValue")]
    ConsumerGroupMetadata(ConsumerGroupMetadataValue),
    #[serde(rename = "ConsumerGroupMemberValue")]
    ConsumerGroupMember(ConsumerGroupMemberValue),
    #[serde(rename = "OffsetCommitValue")]
    OffsetCommit(OffsetCommitValue),
    #[serde(rename = "TopicValue")]
    Topic(TopicValue),
    #[serde(rename = "AclsValue")]
    Acls(AclsValue),
    #[serde(rename = "ClockValue")]
    Clock(ClockValue),
    #[serde(rename = "MemberIdGeneratorValue")]
    MemberIdGenerator(MemberIdGeneratorValue),
    #[serde(rename = "PendingEventsValue")]
    PendingEvents(PendingEventsValue),
    #[serde(rename = "GroupConfigValue")]
    GroupConfig(GroupConfigValue),
}

impl RecordValue {
    fn decode(ty: &str, v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        Ok(match ty {
            "StreamsGroupMetadataValue" => {
                RecordValue::GroupMetadata(FromJson::from_json(v, path)?)
            }
            "StreamsGroupTopologyValue" => RecordValue::Topology(FromJson::from_json(v, path)?),
            "StreamsGroupMemberMetadataValue" => {
                RecordValue::MemberMetadata(FromJson::from_json(v, path)?)
            }
            "StreamsGroupTargetAssignmentMetadataValue" => {
                RecordValue::TargetAssignmentMetadata(FromJson::from_json(v, path)?)
            }
            "StreamsGroupTargetAssignmentMemberValue" => {
                RecordValue::TargetAssignmentMember(FromJson::from_json(v, path)?)
            }
            "StreamsGroupCurrentMemberAssignmentValue" => {
                RecordValue::CurrentMemberAssignment(FromJson::from_json(v, path)?)
            }
            "StreamsGroupMemberRuntimeValue" => {
                RecordValue::MemberRuntime(FromJson::from_json(v, path)?)
            }
            "StreamsGroupMemberTimersValue" => {
                RecordValue::MemberTimers(FromJson::from_json(v, path)?)
            }
            "StreamsGroupTopicCreationValue" => {
                RecordValue::TopicCreation(FromJson::from_json(v, path)?)
            }
            "ConsumerGroupMetadataValue" => {
                RecordValue::ConsumerGroupMetadata(FromJson::from_json(v, path)?)
            }
            "ConsumerGroupMemberValue" => {
                RecordValue::ConsumerGroupMember(FromJson::from_json(v, path)?)
            }
            "OffsetCommitValue" => RecordValue::OffsetCommit(FromJson::from_json(v, path)?),
            "TopicValue" => RecordValue::Topic(FromJson::from_json(v, path)?),
            "AclsValue" => RecordValue::Acls(FromJson::from_json(v, path)?),
            "ClockValue" => RecordValue::Clock(FromJson::from_json(v, path)?),
            "MemberIdGeneratorValue" => {
                RecordValue::MemberIdGenerator(FromJson::from_json(v, path)?)
            }
            "PendingEventsValue" => RecordValue::PendingEvents(FromJson::from_json(v, path)?),
            "GroupConfigValue" => RecordValue::GroupConfig(FromJson::from_json(v, path)?),
            other => {
                return Err(DecodeError::new(
                    &path.key("type"),
                    format!(
                        "unknown record value type {:?}",
                        crate::protocol::json::truncate(other, 60)
                    ),
                ))
            }
        })
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub offset: u64,
    pub key: RecordKey,
    pub value: Option<RecordValue>,
}

impl Serialize for Record {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Record", 3)?;
        st.serialize_field("offset", &self.offset)?;
        st.serialize_field("key", &self.key)?;
        st.serialize_field("value", &self.value)?;
        st.end()
    }
}

impl FromJson for Record {
    const EXPECTED: &'static str = "a record object";
    const PLURAL: &'static str = "record objects";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let mut f = crate::protocol::json::Fields::new(v, path, Self::EXPECTED)?;
        let offset: i64 = f.required("offset")?;
        let offset = u64::try_from(offset)
            .map_err(|_| DecodeError::new(&path.key("offset"), "offset is negative"))?;
        let key: RecordKey = f.required("key")?;
        let value = match v.get("value") {
            None => {
                return Err(DecodeError::new(
                    &path.key("value"),
                    "missing required field (null for a tombstone)",
                ))
            }
            Some(Value::Null) => None,
            Some(val) => {
                let vpath = path.key("value");
                let ty = match val.get("type") {
                    Some(Value::String(s)) => s.as_str(),
                    Some(other) => {
                        return Err(crate::protocol::json::mismatch(
                            other,
                            &vpath.key("type"),
                            "a string",
                        ))
                    }
                    None => {
                        return Err(DecodeError::new(
                            &vpath.key("type"),
                            "missing required field",
                        ))
                    }
                };
                if ty != key.value_type() {
                    return Err(DecodeError::new(
                        &vpath.key("type"),
                        format!(
                            "a key of this type carries a {}, found {:?}",
                            key.value_type(),
                            crate::protocol::json::truncate(ty, 60)
                        ),
                    ));
                }
                Some(RecordValue::decode(ty, val, &vpath)?)
            }
        };
        f.ignore(&["value"]);
        f.finish()?;
        Ok(Record { offset, key, value })
    }
}
