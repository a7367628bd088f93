//! The few coordinator calls the simulation makes besides heartbeats, in one place.

use crate::coordinator::events::Event;
use crate::coordinator::group_config::GroupConfigUpdate;
use crate::coordinator::snapshot::Snapshot;
use crate::coordinator::Coordinator;
use crate::protocol::DescribedGroup;
use crate::sim::scenario::NewTopic;

/// Moves the coordinator's clock to `to_ms`; returns the events its timers caused.
pub fn advance_to(c: &mut Coordinator, to_ms: i64) -> Vec<Event> {
    c.advance_to_time(to_ms).unwrap_or_default()
}

/// The group as Describe shows it, if the coordinator knows it.
pub fn describe(c: &Coordinator, group_id: &str) -> Option<DescribedGroup> {
    c.streams_group(group_id)
        .map(|g| crate::coordinator::describe::described_group(g, c.assignor_of(group_id)))
}

/// The coordinator's own snapshot (API.md `snapshot()`).
pub fn snapshot(c: &Coordinator) -> Snapshot {
    c.snapshot()
}

/// Creates topics; returns a failure message per topic that could not be created.
pub fn create_topics(c: &mut Coordinator, topics: &[NewTopic]) -> Vec<String> {
    let request: Vec<(String, i32)> = topics
        .iter()
        .map(|t| (t.name.clone(), t.num_partitions))
        .collect();
    c.create_topics(&request)
        .into_iter()
        .filter_map(|r| r.error_message.map(|m| format!("{}: {m}", r.name)))
        .collect()
}

pub fn delete_topics(c: &mut Coordinator, names: &[String]) -> Vec<String> {
    c.delete_topics(names)
        .into_iter()
        .filter_map(|r| r.error_message.map(|m| format!("{}: {m}", r.name)))
        .collect()
}

/// Changes the group configs through the coordinator (a record; the next heartbeat
/// bumps the group epoch).
pub fn set_group_config(
    c: &mut Coordinator,
    update: &GroupConfigUpdate,
) -> Result<(), crate::protocol::json::InputError> {
    c.set_group_config(update).map(|_| ())
}

pub fn topics(c: &Coordinator) -> Vec<NewTopic> {
    c.cluster
        .topics
        .values()
        .map(|t| NewTopic {
            name: t.name.clone(),
            num_partitions: t.num_partitions,
        })
        .collect()
}
