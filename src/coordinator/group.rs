//! A streams group: epochs, topology, members, target assignment, and the
//! process-level ownership map that keeps a task from having two owners (PROTOCOL.md §4.2).

use super::member::StreamsMember;
use super::tasks::{Role, TasksTuple};
use crate::protocol::{EndpointToPartitions, ProtocolError, Topology};
use crate::topology::creation::InternalTopicCreation;
use crate::topology::ConfiguredTopology;
use std::collections::BTreeMap;
use std::sync::Arc;

/// PROTOCOL.md §4.3. Wire names are Kafka's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GroupState {
    Empty,
    NotReady,
    Assigning,
    Reconciling,
    Stable,
    Dead,
}

impl GroupState {
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::NotReady => "NotReady",
            GroupState::Assigning => "Assigning",
            GroupState::Reconciling => "Reconciling",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }

    /// ListGroups filters: Kafka's lower-case names (`not_ready`), case-insensitive;
    /// the wire names are accepted too.
    pub fn matches_filter(self, filter: &str) -> bool {
        let f = filter.to_ascii_lowercase().replace('_', "");
        f == self.name().to_ascii_lowercase()
    }
}

/// Who holds a task right now (assigned or pending revocation), in which role.
pub type Holders = Vec<(String, Role)>;

#[derive(Debug, Clone, Default)]
pub struct StreamsGroup {
    pub group_id: String,
    /// StreamsGroupMetadataValue.
    pub group_epoch: i32,
    /// Hash of the configured topology when the group epoch was last bumped for it.
    pub metadata_hash: u64,
    pub shutdown_requester: Option<String>,
    /// StreamsGroupTopologyValue: the topology as the client sent it.
    pub topology: Option<Topology>,
    /// StreamsGroupTargetAssignmentMetadataValue.
    pub assignment_epoch: i32,
    /// While set, no target is computed before this time (the initial rebalance delay).
    pub initial_rebalance_deadline_ms: Option<i64>,
    pub members: BTreeMap<String, StreamsMember>,
    /// StreamsGroupTargetAssignmentMemberValue per member.
    pub target: BTreeMap<String, TasksTuple>,
    pub creation: InternalTopicCreation,

    // Soft state, rebuilt from the above on replay.
    /// The topology configured against the cluster (kept current on every cluster change).
    pub configured: Option<Result<ConfiguredTopology, ProtocolError>>,
    /// Hash of `configured`; differs from `metadata_hash` until a heartbeat bumps the epoch.
    pub configured_hash: u64,
    /// subtopology -> partition -> holders.
    pub owners: BTreeMap<String, BTreeMap<i32, Holders>>,
    /// instance id -> member id.
    pub static_members: BTreeMap<String, String>,
    /// Bumped whenever what `partitionsByUserEndpoint` shows may have changed.
    pub endpoints_version: u64,
    pub endpoints_cache: Option<(u64, Arc<Vec<EndpointToPartitions>>, u64)>,
    /// The assignor's input while the topology is ready (see `target_assignment`).
    pub spec: Option<crate::assignor::GroupSpec>,
}

impl StreamsGroup {
    pub fn new(group_id: &str) -> Self {
        StreamsGroup {
            group_id: group_id.to_owned(),
            ..Default::default()
        }
    }

    /// Whether the first target waits for the initial rebalance delay at `now_ms`.
    pub fn assignment_delayed(&self, now_ms: i64) -> bool {
        self.initial_rebalance_deadline_ms
            .is_some_and(|t| now_ms < t)
    }

    pub fn topology_epoch(&self) -> Option<i32> {
        self.topology.as_ref().map(|t| t.epoch)
    }

    /// The configured topology when it is ready to assign tasks.
    pub fn ready_topology(&self) -> Option<&ConfiguredTopology> {
        match &self.configured {
            Some(Ok(c)) if c.is_ready() => Some(c),
            _ => None,
        }
    }

    pub fn state(&self) -> GroupState {
        if self.members.is_empty() {
            GroupState::Empty
        } else if self.ready_topology().is_none() {
            GroupState::NotReady
        } else if self.group_epoch > self.assignment_epoch {
            GroupState::Assigning
        } else if self
            .members
            .values()
            .any(|m| !m.is_reconciled_to(self.assignment_epoch))
        {
            GroupState::Reconciling
        } else {
            GroupState::Stable
        }
    }

    pub fn process_of(&self, member_id: &str) -> Option<&str> {
        self.members
            .get(member_id)
            .map(|m| m.meta.process_id.as_str())
    }

    /// May `member_id` be given (subtopology, partition) in `role` now? Not while
    /// another member holds it as active (for an active task), nor while any member of
    /// the same process, itself included, holds it in another role (PROTOCOL.md §4.2).
    /// `in_place`: the member's own standby or warm-up of the task becomes the active
    /// in the same step (a promotion), so its own holding does not count.
    pub fn is_free(
        &self,
        member_id: &str,
        role: Role,
        subtopology: &str,
        partition: i32,
        in_place: bool,
    ) -> bool {
        let Some(holders) = self.owners.get(subtopology).and_then(|m| m.get(&partition)) else {
            return true;
        };
        let process = self.process_of(member_id);
        holders.iter().all(|(h, r)| {
            if h == member_id && (*r == role || in_place) {
                return true;
            }
            if *r == Role::Active && role == Role::Active {
                return false;
            }
            self.process_of(h) != process
        })
    }

    /// Removes every holding of `member_id` listed in `tasks`.
    pub fn release(&mut self, member_id: &str, tasks: &TasksTuple) {
        for (role, s, p) in tasks.iter() {
            if let Some(parts) = self.owners.get_mut(s) {
                if let Some(h) = parts.get_mut(&p) {
                    h.retain(|(m, r)| !(m == member_id && *r == role));
                    if h.is_empty() {
                        parts.remove(&p);
                    }
                }
                if parts.is_empty() {
                    self.owners.remove(s);
                }
            }
        }
    }

    pub fn hold(&mut self, member_id: &str, tasks: &TasksTuple) {
        for (role, s, p) in tasks.iter() {
            let parts = match self.owners.get_mut(s) {
                Some(p) => p,
                None => self.owners.entry(s.to_owned()).or_default(),
            };
            parts
                .entry(p)
                .or_default()
                .push((member_id.to_owned(), role));
        }
    }

    /// Members whose topology epoch is behind the group's (PROTOCOL.md §4.4).
    pub fn is_stale(&self, member: &StreamsMember) -> bool {
        self.topology_epoch()
            .is_some_and(|e| member.meta.topology_epoch < e)
    }
}
