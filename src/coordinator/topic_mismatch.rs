//! `internalTopicConfigMismatch` events (PROTOCOL.md §5.7): when a change to the
//! cluster or to a group's topology makes a configuration find an existing internal
//! topic whose settings (other than its partition count) differ from the topology's,
//! the difference is reported once as an event and otherwise ignored. Only live writes
//! report: replaying records rebuilds state, not events.

use super::events::{Event, Kind};
use super::records::RecordKey;
use super::Coordinator;
use crate::topology::ConfigMismatch;
use std::collections::BTreeMap;

/// Each group's current mismatches.
pub(crate) type Mismatches = BTreeMap<String, Vec<ConfigMismatch>>;

/// Whether a record can change what configurations find.
pub(crate) fn may_change_mismatches(key: &RecordKey) -> bool {
    matches!(key, RecordKey::Topic { .. } | RecordKey::Topology { .. })
}

impl Coordinator {
    pub(crate) fn config_mismatches(&self) -> Mismatches {
        self.groups
            .iter()
            .filter_map(|(gid, g)| match &g.configured {
                Some(Ok(c)) if !c.config_mismatches.is_empty() => {
                    Some((gid.clone(), c.config_mismatches.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Queues an event for every mismatch that `before` did not hold.
    pub(crate) fn report_new_mismatches(&mut self, before: &Mismatches) {
        let now = self.now();
        let after = self.config_mismatches();
        let mut pending = Vec::new();
        for (gid, list) in after {
            for m in list {
                if before.get(&gid).is_some_and(|b| b.contains(&m)) {
                    continue;
                }
                pending.push(Event {
                    at_ms: now,
                    kind: Kind::InternalTopicConfigMismatch,
                    group_id: gid.clone(),
                    member_id: None,
                    detail: m.detail,
                });
            }
        }
        self.queue_events(pending);
    }
}
