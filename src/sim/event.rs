//! The event log: everything that happened, in order, with every request and response.
//! The page's timeline, markers and inspector are drawn from it.

use crate::protocol::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use crate::sim::scenario::TimedAction;
use serde::Serialize;
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SimulationEvent")]
pub struct Event {
    /// Position in the whole log (0-based), so an event can be named in a link.
    pub seq: u64,
    pub at_ms: i64,
    /// `action`, `actionFailed`, `heartbeat`, `reconciled`, `caughtUp`, `fatal`, or a
    /// coordinator event kind (`sessionTimeout`, `rebalanceTimeout`, ...).
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// In words, for the timeline.
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<TimedAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<StreamsGroupHeartbeatRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<StreamsGroupHeartbeatResponse>,
    /// A coordinator event as the coordinator reported it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinator: Option<crate::coordinator::events::Event>,
}

/// The kinds of the simulation's own events; the coordinator's events keep their
/// kinds (`crate::coordinator::events::KINDS`).
pub const KINDS: [&str; 6] = [
    "action",
    "actionFailed",
    "heartbeat",
    "reconciled",
    "caughtUp",
    "fatal",
];

impl Event {
    pub fn new(at_ms: i64, kind: &str, detail: impl Into<String>) -> Event {
        Event {
            seq: 0,
            at_ms,
            kind: kind.to_owned(),
            process_id: None,
            member_id: None,
            thread: None,
            detail: detail.into(),
            action: None,
            request: None,
            response: None,
            coordinator: None,
        }
    }

    /// A coordinator event as the log shows it (the event itself attached).
    pub fn of_coordinator(ev: crate::coordinator::events::Event) -> Event {
        let mut e = Event::new(ev.at_ms, &ev.kind, ev.detail.clone());
        e.member_id = ev.member_id.clone();
        e.coordinator = Some(ev);
        e
    }

    pub fn of_member(mut self, process_id: &str, member_id: &str, thread: u32) -> Event {
        self.process_id = Some(process_id.to_owned());
        self.member_id = Some(member_id.to_owned());
        self.thread = Some(thread);
        self
    }
}
