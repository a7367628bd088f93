//! StreamsGroupHeartbeat (API key 88, version 0): request and response.

use crate::from_json_struct;
use crate::protocol::common::{
    Endpoint, EndpointToPartitions, KeyValue, Status, TaskIds, TaskOffset, Topology,
};
use crate::protocol::errors::{ErrorCode, ProtocolError};
use serde::Serialize;

pub const JOIN_GROUP_MEMBER_EPOCH: i32 = 0;
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamsGroupHeartbeatRequest {
    pub group_id: String,
    pub member_id: String,
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub topology: Option<Topology>,
    pub active_tasks: Option<Vec<TaskIds>>,
    pub standby_tasks: Option<Vec<TaskIds>>,
    pub warmup_tasks: Option<Vec<TaskIds>>,
    pub process_id: Option<String>,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Option<Vec<KeyValue>>,
    pub task_offsets: Option<Vec<TaskOffset>>,
    pub task_end_offsets: Option<Vec<TaskOffset>>,
    pub shutdown_application: bool,
}

impl Default for StreamsGroupHeartbeatRequest {
    fn default() -> Self {
        StreamsGroupHeartbeatRequest {
            group_id: String::new(),
            member_id: String::new(),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            topology: None,
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            process_id: None,
            user_endpoint: None,
            client_tags: None,
            task_offsets: None,
            task_end_offsets: None,
            shutdown_application: false,
        }
    }
}

/// Keys that later Kafka versions added to the request: accepted and ignored.
pub const IGNORABLE_REQUEST_KEYS: &[&str] = &["endpointInformationEpoch"];

from_json_struct!(
    StreamsGroupHeartbeatRequest,
    "a StreamsGroupHeartbeatRequest object",
    "StreamsGroupHeartbeatRequest objects",
    |f| {
        f.ignore(IGNORABLE_REQUEST_KEYS);
        Ok(StreamsGroupHeartbeatRequest {
            group_id: f.required("groupId")?,
            member_id: f.required("memberId")?,
            member_epoch: f.required("memberEpoch")?,
            instance_id: f.or("instanceId", None)?,
            rack_id: f.or("rackId", None)?,
            rebalance_timeout_ms: f.or("rebalanceTimeoutMs", -1)?,
            topology: f.or("topology", None)?,
            active_tasks: f.or("activeTasks", None)?,
            standby_tasks: f.or("standbyTasks", None)?,
            warmup_tasks: f.or("warmupTasks", None)?,
            process_id: f.or("processId", None)?,
            user_endpoint: f.or("userEndpoint", None)?,
            client_tags: f.or("clientTags", None)?,
            task_offsets: f.or("taskOffsets", None)?,
            task_end_offsets: f.or("taskEndOffsets", None)?,
            shutdown_application: f.or("shutdownApplication", false)?,
        })
    }
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StreamsGroupHeartbeatResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    #[serde(with = "crate::protocol::json::int64")]
    pub acceptable_recovery_lag: i64,
    pub task_offset_interval_ms: i32,
    pub status: Option<Vec<Status>>,
    pub active_tasks: Option<Vec<TaskIds>>,
    pub standby_tasks: Option<Vec<TaskIds>>,
    pub warmup_tasks: Option<Vec<TaskIds>>,
    pub partitions_by_user_endpoint: Option<Vec<EndpointToPartitions>>,
}

impl StreamsGroupHeartbeatResponse {
    /// An error answer: the code, its message, nothing else.
    pub fn error(err: &ProtocolError, member_id: Option<String>, member_epoch: i32) -> Self {
        StreamsGroupHeartbeatResponse {
            error_code: err.code.code(),
            error_message: Some(err.message.clone()),
            member_id,
            member_epoch,
            ..Default::default()
        }
    }

    pub fn error_code(&self) -> Option<ErrorCode> {
        ErrorCode::from_code(self.error_code)
    }
}

from_json_struct!(
    StreamsGroupHeartbeatResponse,
    "a StreamsGroupHeartbeatResponse object",
    "StreamsGroupHeartbeatResponse objects",
    |f| {
        f.ignore(&[
            "endpointInformationEpoch",
            "topologyDescriptionRequired",
            "acceptableRecoveryLagLegacy",
        ]);
        Ok(StreamsGroupHeartbeatResponse {
            throttle_time_ms: f.or("throttleTimeMs", 0)?,
            error_code: f.required("errorCode")?,
            error_message: f.or("errorMessage", None)?,
            member_id: f.or("memberId", None)?,
            member_epoch: f.required("memberEpoch")?,
            heartbeat_interval_ms: f.or("heartbeatIntervalMs", 0)?,
            acceptable_recovery_lag: f.or("acceptableRecoveryLag", 0)?,
            task_offset_interval_ms: f.or("taskOffsetIntervalMs", 0)?,
            status: f.or("status", None)?,
            active_tasks: f.or("activeTasks", None)?,
            standby_tasks: f.or("standbyTasks", None)?,
            warmup_tasks: f.or("warmupTasks", None)?,
            partitions_by_user_endpoint: f.or("partitionsByUserEndpoint", None)?,
        })
    }
);
