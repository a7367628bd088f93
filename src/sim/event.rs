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
    /// The simulation's own kind, or the coordinator's for a coordinator event.
    pub kind: Kind,
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

/// What a simulation event is about: its own kinds, then the coordinator's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(untagged)]
#[ts(rename = "SimulationEventKind")]
pub enum Kind {
    Simulation(SimKind),
    Coordinator(crate::coordinator::events::Kind),
}

/// The simulation's own kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum SimKind {
    /// A scripted action was applied.
    Action,
    /// A scripted action could not be applied (the detail says why).
    ActionFailed,
    Heartbeat,
    Reconciled,
    CaughtUp,
    /// A crashed process started again.
    Restarted,
    /// A member got an error it cannot recover from.
    Fatal,
}

impl SimKind {
    pub const ALL: [SimKind; 7] = [
        SimKind::Action,
        SimKind::ActionFailed,
        SimKind::Heartbeat,
        SimKind::Reconciled,
        SimKind::CaughtUp,
        SimKind::Restarted,
        SimKind::Fatal,
    ];

    /// The name on the wire (`action`, `actionFailed`, ...).
    pub fn name(self) -> &'static str {
        match self {
            SimKind::Action => "action",
            SimKind::ActionFailed => "actionFailed",
            SimKind::Heartbeat => "heartbeat",
            SimKind::Reconciled => "reconciled",
            SimKind::CaughtUp => "caughtUp",
            SimKind::Restarted => "restarted",
            SimKind::Fatal => "fatal",
        }
    }
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Simulation(k) => k.name(),
            Kind::Coordinator(k) => k.name(),
        }
    }
}

impl PartialEq<&str> for Kind {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl Event {
    pub fn new(at_ms: i64, kind: SimKind, detail: impl Into<String>) -> Event {
        Event::of_kind(at_ms, Kind::Simulation(kind), detail.into())
    }

    fn of_kind(at_ms: i64, kind: Kind, detail: String) -> Event {
        Event {
            seq: 0,
            at_ms,
            kind,
            process_id: None,
            member_id: None,
            thread: None,
            detail,
            action: None,
            request: None,
            response: None,
            coordinator: None,
        }
    }

    /// A coordinator event as the log shows it (the event itself attached).
    pub fn of_coordinator(ev: crate::coordinator::events::Event) -> Event {
        let mut e = Event::of_kind(ev.at_ms, Kind::Coordinator(ev.kind), ev.detail.clone());
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
