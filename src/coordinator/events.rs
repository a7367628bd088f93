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
    pub kind: Kind,
    pub group_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    pub detail: String,
}

/// What happened, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CoordinatorEventKind")]
pub enum Kind {
    SessionTimeout,
    RebalanceTimeout,
    InternalTopicsCreated,
    InternalTopicsCreationFailed,
    InternalTopicConfigMismatch,
}

impl Kind {
    /// Every kind, in the order the API lists them.
    pub const ALL: [Kind; 5] = [
        Kind::SessionTimeout,
        Kind::RebalanceTimeout,
        Kind::InternalTopicsCreated,
        Kind::InternalTopicsCreationFailed,
        Kind::InternalTopicConfigMismatch,
    ];

    /// The name on the wire (`sessionTimeout`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::SessionTimeout => "sessionTimeout",
            Kind::RebalanceTimeout => "rebalanceTimeout",
            Kind::InternalTopicsCreated => "internalTopicsCreated",
            Kind::InternalTopicsCreationFailed => "internalTopicsCreationFailed",
            Kind::InternalTopicConfigMismatch => "internalTopicConfigMismatch",
        }
    }
}

impl PartialEq<&str> for Kind {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// Events waiting for the next `advanceTime` at most (the oldest are dropped beyond):
/// time moved only through a context's `nowMs` never makes them grow without bound.
pub const MAX_PENDING_EVENTS: usize = 1_000;
/// Bytes of waiting events at most (ids and details counted), for the same reason.
pub const MAX_PENDING_BYTES: usize = 1 << 20;

/// About how many bytes an event holds (its strings, plus the rest).
pub fn size(e: &Event) -> usize {
    e.group_id.len() + e.member_id.as_ref().map_or(0, String::len) + e.detail.len() + 64
}

/// The events waiting for the next `advanceTime`, each its own record
/// (`PendingEventKey`, keyed by the offset that queued it), plus a list from a log
/// written before (`PendingEventsKey`), which comes first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    pub(crate) legacy: Vec<Event>,
    pub(crate) keyed: std::collections::BTreeMap<u64, Event>,
    bytes: usize,
}

impl Pending {
    pub fn len(&self) -> usize {
        self.legacy.len() + self.keyed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn over_limit(&self) -> bool {
        self.len() > MAX_PENDING_EVENTS || self.bytes > MAX_PENDING_BYTES
    }

    /// Every waiting event, oldest first.
    pub fn all(&self) -> Vec<Event> {
        self.legacy
            .iter()
            .chain(self.keyed.values())
            .cloned()
            .collect()
    }

    /// A legacy list (replay): the newest events within the limits.
    pub(crate) fn set_legacy(&mut self, mut events: Vec<Event>) {
        self.bytes -= self.legacy.iter().map(size).sum::<usize>();
        let mut bytes = 0usize;
        let mut keep = 0usize;
        for e in events.iter().rev() {
            if keep == MAX_PENDING_EVENTS || bytes + size(e) > MAX_PENDING_BYTES {
                break;
            }
            bytes += size(e);
            keep += 1;
        }
        events.drain(..events.len() - keep);
        self.bytes += bytes;
        self.legacy = events;
    }

    pub(crate) fn insert(&mut self, seq: u64, e: Event) {
        self.bytes += size(&e);
        if let Some(old) = self.keyed.insert(seq, e) {
            self.bytes -= size(&old);
        }
    }

    pub(crate) fn remove(&mut self, seq: u64) {
        if let Some(old) = self.keyed.remove(&seq) {
            self.bytes -= size(&old);
        }
    }
}
