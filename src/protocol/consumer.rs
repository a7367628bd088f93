//! ConsumerGroupHeartbeat (API key 68), the part the coordinator models so consumer
//! groups can live beside streams groups. Topic partitions are named by topic name
//! (the simulated cluster has no topic ids).

use crate::protocol::common::TopicPartitions;
use crate::protocol::errors::ProtocolError;
use crate::protocol::heartbeat::minus_one;
use crate::protocol::json::{Ignored, Validate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
pub struct ConsumerGroupHeartbeatRequest {
    pub group_id: String,
    pub member_id: String,
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    #[serde(default = "minus_one")]
    #[ts(optional = nullable)]
    pub rebalance_timeout_ms: i32,
    pub subscribed_topic_names: Option<Vec<String>>,
    pub server_assignor: Option<String>,
    pub topic_partitions: Option<Vec<TopicPartitions>>,
    /// Defined by later Kafka versions: accepted and ignored.
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub subscribed_topic_regex: Ignored,
    #[serde(default, skip_serializing)]
    #[ts(optional = nullable, type = "unknown")]
    pub classic_member_metadata: Ignored,
}

impl Validate for ConsumerGroupHeartbeatRequest {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConsumerGroupAssignment {
    pub topic_partitions: Vec<TopicPartitions>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConsumerGroupHeartbeatResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    pub assignment: Option<ConsumerGroupAssignment>,
}

impl ConsumerGroupHeartbeatResponse {
    pub fn error(e: &ProtocolError, member_id: &str, member_epoch: i32) -> Self {
        ConsumerGroupHeartbeatResponse {
            error_code: e.code.code(),
            error_message: Some(e.message.clone()),
            member_id: Some(member_id.to_owned()),
            member_epoch,
            ..Default::default()
        }
    }
}
