//! The one interface between the coordinator and its task assignors.
//!
//! An assignor is a pure function of the group's subtopologies, its members (with
//! their current tasks and reported offsets) and the assignment configs. Ties break on
//! sorted ids, never on hash order, so the same input gives the same output in every
//! runtime.
#![allow(
    clippy::indexing_slicing,
    reason = "the assignors work on dense indices (member, process, task, subtopology) that \
              `index::Index` builds from the same input and sizes every vector by; bounds \
              checks in these hot loops would cost measurable time (BENCHMARKS.md) and the \
              property tests and Kafka's ported cases cover the paths"
)]

mod balance;
mod deal;
pub mod dense;
pub mod highly_available;
mod index;
pub mod json;
mod lag;
pub mod owned;
mod placement;
pub mod quality;
pub mod sticky;
mod tags;

pub use dense::DenseAssignment;
pub use highly_available::warmup_caught_up;
pub use owned::OwnedLists;

use crate::task::{TaskId, TaskSet};
use std::collections::BTreeMap;

/// A subtopology as the assignor sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtopologySpec {
    pub id: String,
    /// Number of tasks: partitions 0..num_tasks.
    pub num_tasks: u32,
    /// Stateful subtopologies (with changelogs) get standbys and warm-ups.
    pub stateful: bool,
}

/// A member as the assignor sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberSpec {
    pub member_id: String,
    pub process_id: String,
    pub topology_epoch: i32,
    pub rack_id: Option<String>,
    pub client_tags: BTreeMap<String, String>,
    /// Tasks the member currently owns (its current assignment, as in Kafka 4.4+).
    pub active: TaskSet,
    pub standby: TaskSet,
    pub warmup: TaskSet,
    /// Cumulative changelog offsets and end offsets the member last reported.
    pub task_offsets: BTreeMap<TaskId, i64>,
    pub task_end_offsets: BTreeMap<TaskId, i64>,
}

/// The whole input of one assignment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupSpec {
    /// Sorted by id.
    pub subtopologies: Vec<SubtopologySpec>,
    /// Sorted by member id.
    pub members: Vec<MemberSpec>,
    /// The group's topology epoch: members at another epoch never gain a task (PROTOCOL.md §4.4).
    pub topology_epoch: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssignmentConfig {
    pub num_standby_replicas: u32,
    pub acceptable_recovery_lag: i64,
    pub max_warmup_replicas: u32,
}

impl Default for AssignmentConfig {
    fn default() -> Self {
        AssignmentConfig {
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberAssignment {
    pub active: TaskSet,
    pub standby: TaskSet,
    pub warmup: TaskSet,
}

/// Every member of the spec has an entry (possibly empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupAssignment {
    pub members: BTreeMap<String, MemberAssignment>,
}

pub trait TaskAssignor: Sync {
    fn name(&self) -> &'static str;
    /// The assignment as each member's dense task lists (what `assign()` in the wasm
    /// build encodes directly). `owned`: what the members own, when their task sets
    /// are left empty (the wasm build's packed lists).
    fn assign_dense<'a>(
        &self,
        spec: &'a GroupSpec,
        owned: Option<&OwnedLists>,
        config: &AssignmentConfig,
    ) -> DenseAssignment<'a>;
    fn assign(&self, spec: &GroupSpec, config: &AssignmentConfig) -> GroupAssignment {
        self.assign_dense(spec, None, config).into_assignment()
    }
}

/// The assignors the coordinator and `assign()` know, by name.
pub const NAMES: &[&str] = &["sticky", "highly_available"];

/// Whether the assignor reads `acceptableRecoveryLag` and `maxWarmupReplicas` (only
/// `highly_available` assigns warm-ups): only then does a change of them change its
/// targets (PROTOCOL.md §7.3).
pub fn reads_warmup_configs(name: &str) -> bool {
    name == "highly_available"
}

/// Looks an assignor up by name; `None` for an unknown name.
pub fn by_name(name: &str) -> Option<&'static dyn TaskAssignor> {
    match name {
        "sticky" => Some(&sticky::StickyAssignor),
        "highly_available" => Some(&highly_available::HighlyAvailableAssignor),
        _ => None,
    }
}
