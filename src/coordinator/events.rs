//! What time caused: the events `advanceTime` returns.

use crate::protocol::json::int64;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `{ atMs, kind, groupId, memberId?, detail }`. Kinds: `sessionTimeout`,
/// `rebalanceTimeout`, `internalTopicsCreated`, `internalTopicsCreationFailed`,
/// `internalTopicConfigMismatch`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "CoordinatorEvent")]
pub struct Event {
    #[serde(with = "int64")]
    #[ts(type = "Int64")]
    pub at_ms: i64,
    pub kind: String,
    pub group_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    pub detail: String,
}

pub const SESSION_TIMEOUT: &str = "sessionTimeout";
pub const REBALANCE_TIMEOUT: &str = "rebalanceTimeout";
pub const INTERNAL_TOPICS_CREATED: &str = "internalTopicsCreated";
pub const INTERNAL_TOPICS_CREATION_FAILED: &str = "internalTopicsCreationFailed";
pub const INTERNAL_TOPIC_CONFIG_MISMATCH: &str = "internalTopicConfigMismatch";

/// Every kind, in the order the API lists them.
pub const KINDS: [&str; 5] = [
    SESSION_TIMEOUT,
    REBALANCE_TIMEOUT,
    INTERNAL_TOPICS_CREATED,
    INTERNAL_TOPICS_CREATION_FAILED,
    INTERNAL_TOPIC_CONFIG_MISMATCH,
];
