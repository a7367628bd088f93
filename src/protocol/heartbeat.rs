//! StreamsGroupHeartbeat (API key 88, version 0): request and response.

use crate::protocol::common::{
    Endpoint, EndpointToPartitions, KeyValue, Status, TaskIds, TaskOffset, Topology,
};
use crate::protocol::errors::{ErrorCode, ProtocolError};
use crate::protocol::json::{int64, Ignored, Validate};
use crate::protocol::TaskList;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub const JOIN_GROUP_MEMBER_EPOCH: i32 = 0;
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

/// memberEpoch: 0 join/rejoin, -1 leave, -2 static member leaves temporarily, > 0
/// the current epoch. A nullable field that is omitted is null ("unchanged").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct StreamsGroupHeartbeatRequest {
    pub group_id: String,
    pub member_id: String,
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    /// -1 (the default) = unchanged; must be > 0 on the first heartbeat.
    #[serde(default = "minus_one")]
    #[ts(optional = nullable)]
    pub rebalance_timeout_ms: i32,
    pub topology: Option<Topology>,
    /// Held flat (`TaskList`): a String and a Vec per entry were a third of a steady
    /// heartbeat's decoding in wasm.
    #[ts(as = "Option<Vec<TaskIds>>")]
    pub active_tasks: Option<TaskList>,
    #[ts(as = "Option<Vec<TaskIds>>")]
    pub standby_tasks: Option<TaskList>,
    #[ts(as = "Option<Vec<TaskIds>>")]
    pub warmup_tasks: Option<TaskList>,
    pub process_id: Option<String>,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Option<Vec<KeyValue>>,
    pub task_offsets: Option<Vec<TaskOffset>>,
    pub task_end_offsets: Option<Vec<TaskOffset>>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub shutdown_application: bool,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub endpoint_information_epoch: Ignored,
}

pub(crate) fn minus_one() -> i32 {
    -1
}

impl Validate for StreamsGroupHeartbeatRequest {}

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
            endpoint_information_epoch: Ignored,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StreamsGroupHeartbeatResponse {
    #[serde(default)]
    pub throttle_time_ms: i32,
    /// 0 on success, else a Kafka error code.
    pub error_code: i16,
    #[serde(default)]
    pub error_message: Option<String>,
    #[serde(default)]
    pub member_id: Option<String>,
    pub member_epoch: i32,
    #[serde(default)]
    pub heartbeat_interval_ms: i32,
    #[serde(default, with = "int64")]
    #[ts(type = "Int64")]
    pub acceptable_recovery_lag: i64,
    #[serde(default)]
    pub task_offset_interval_ms: i32,
    /// Every status that holds, in code order; null when unchanged since the last response.
    pub status: Option<Vec<Status>>,
    pub active_tasks: Option<Vec<TaskIds>>,
    pub standby_tasks: Option<Vec<TaskIds>>,
    pub warmup_tasks: Option<Vec<TaskIds>>,
    pub partitions_by_user_endpoint: Option<Vec<EndpointToPartitions>>,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub endpoint_information_epoch: Ignored,
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub topology_description_required: Ignored,
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub acceptable_recovery_lag_legacy: Ignored,
}

impl Validate for StreamsGroupHeartbeatResponse {}

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
