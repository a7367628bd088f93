//! `sticky`: in the manner of Kafka's broker-side StickyTaskAssignor.
//!
//! Members are capacity units and balance is per member and per process. Previous
//! active owners keep their tasks while under quota (one over it gives up tasks of the
//! subtopologies it holds most of); then previous standby / warm-up holders (most
//! caught up first); the rest is dealt subtopology by subtopology over the members with
//! room, so that every subtopology spreads evenly (within one task per member where the
//! quotas allow): a subtopology's tasks differ in cost from another's. Standbys go to
//! processes that do not hold the task: the previous active owner first, previous
//! standby holders next, then dealt the same way, each member's standbys fanned out over
//! the members after it (its tasks find warm standbys on many members when it fails).
//! Unlike Kafka's, every tie breaks on sorted ids, so the result is reproducible, and
//! a member's share never differs from another's by more than one task unless a
//! stale member (PROTOCOL.md §4.4) keeps fewer.

use super::dense::DenseAssignment;
use super::index::Index;
use super::owned::OwnedLists;
use super::placement::Placement;
use super::{AssignmentConfig, GroupSpec, TaskAssignor};

pub struct StickyAssignor;

impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }

    fn assign_dense<'a>(
        &self,
        spec: &'a GroupSpec,
        owned: Option<&OwnedLists>,
        config: &AssignmentConfig,
    ) -> DenseAssignment<'a> {
        let ix = Index::new(spec, owned);
        let mut placement = Placement::new(&ix, config);
        placement.assign_actives();
        placement.assign_standbys(None);
        let lists = placement.into_lists();
        DenseAssignment::new(ix, lists)
    }
}
