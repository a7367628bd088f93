//! The invariant checker (issue 6): what must hold at every point of any history of a
//! streams group coordinator, read from its snapshots. Pure: it takes the snapshot
//! before a step (for the rules about change) and the one after, and returns every
//! violation with a plain sentence. Property tests run it after every step; the
//! playground shows its answer as health badges (`checkInvariants` in JS).
//!
//! Safety rules (`check`), each named by `Violation::rule`:
//! - `activeOnce`: no task is active on two members (assigned or pending revocation).
//! - `processOnce`: no process holds a task twice, in any roles.
//! - `standbyApart`: a standby or warm-up never sits on the process of its active,
//!   neither in what members hold nor in the target assignment.
//! - `epochsForward`: group, assignment and topology epochs never go backwards; a
//!   member's epoch neither, except when it rejoins (0) or leaves (-2).
//! - `assignmentEpochBound`: assignment epoch <= group epoch, member epochs <=
//!   assignment epoch.
//! - `stableOwnsTarget`: a member Stable at the assignment epoch holds exactly its
//!   target, with nothing pending revocation.
//! - `staleGainsNothing`: a member whose topology epoch is behind the group's never
//!   gains a task (role by role).
//! - `stableCoversTopology`: a Stable group whose topology is ready and that has a
//!   non-stale member has every task of that topology active in some member's target
//!   (a configuration that changed without a group epoch bump would leave the target
//!   of the old one, empty after NotReady, behind a Stable state).
//!
//! Liveness (`check_settled`, for a group whose members kept heartbeating with no
//! change): `settled`: the group is Stable and every task of its topology is active on
//! exactly one member, when its topology is ready and it has a non-stale member.

use crate::coordinator::snapshot::{GroupSnapshot, Snapshot, TasksSnapshot};
use crate::protocol::json::{decode_str, truncate, Ignored, InputError};
use crate::protocol::TaskIds;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use ts_rs::TS;

/// A task: (subtopology id, partition). The id is shared by every task of one list
/// entry: a 32 KB id over a million partitions costs one copy, not a million.
pub type Task = (Rc<str>, i32);

/// Violations listed by one check; beyond it one more says how many were left out,
/// so the answer stays small whatever the snapshot holds.
pub const MAX_VIOLATIONS: usize = 1_000;
/// Characters of an id (or task name) quoted in a message; the fields carry it whole.
const QUOTE: usize = 60;

/// A member's tasks in the three roles (active, standby, warm-up).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roles {
    pub active: BTreeSet<Task>,
    pub standby: BTreeSet<Task>,
    pub warmup: BTreeSet<Task>,
}

impl Roles {
    pub fn all(&self) -> [(&'static str, &BTreeSet<Task>); 3] {
        [
            ("active", &self.active),
            ("standby", &self.standby),
            ("warm-up", &self.warmup),
        ]
    }

    pub fn union(&self, other: &Roles) -> Roles {
        Roles {
            active: self.active.union(&other.active).cloned().collect(),
            standby: self.standby.union(&other.standby).cloned().collect(),
            warmup: self.warmup.union(&other.warmup).cloned().collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberView {
    pub member_id: String,
    pub process_id: String,
    pub stale: bool,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub member_state: String,
    pub assignment: Roles,
    pub pending_revocation: Roles,
    pub target: Roles,
}

impl MemberView {
    /// Everything the member still holds: its assignment and what it has not yet revoked.
    pub fn held(&self) -> Roles {
        self.assignment.union(&self.pending_revocation)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupView {
    pub group_id: String,
    pub streams: bool,
    pub state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub topology_epoch: Option<i32>,
    /// The configured topology is ready (no status 1-4, no invalid topology).
    pub ready: bool,
    /// (subtopology id, number of tasks) of the configured topology.
    pub subtopologies: Vec<(Rc<str>, u32)>,
    pub members: Vec<MemberView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SnapshotView {
    pub groups: Vec<GroupView>,
}

impl SnapshotView {
    pub fn group(&self, id: &str) -> Option<&GroupView> {
        self.groups.iter().find(|g| g.group_id == id)
    }

    /// What the rules read of a snapshot.
    pub fn of(s: &Snapshot) -> SnapshotView {
        SnapshotView {
            groups: s.groups.iter().map(group).collect(),
        }
    }
}

fn tasks(list: &[TaskIds]) -> BTreeSet<Task> {
    let mut out = BTreeSet::new();
    for t in list {
        let id: Rc<str> = Rc::from(t.subtopology_id.as_str());
        out.extend(t.partitions.iter().map(|p| (Rc::clone(&id), *p)));
    }
    out
}

fn roles(t: &TasksSnapshot) -> Roles {
    Roles {
        active: tasks(&t.active_tasks),
        standby: tasks(&t.standby_tasks),
        warmup: tasks(&t.warmup_tasks),
    }
}

fn group(g: &GroupSnapshot) -> GroupView {
    let streams = g.group_type == "streams";
    let (ready, subtopologies) = match &g.configured_topology {
        Some(c) => (
            c.ready,
            c.subtopologies
                .iter()
                .map(|s| (Rc::from(s.subtopology_id.as_str()), s.num_tasks))
                .collect(),
        ),
        None => (false, Vec::new()),
    };
    GroupView {
        group_id: g.group_id.clone(),
        streams,
        state: g.group_state.clone(),
        group_epoch: g.group_epoch,
        assignment_epoch: g.assignment_epoch,
        topology_epoch: g.topology_epoch,
        ready,
        subtopologies,
        members: if streams {
            g.members
                .iter()
                .map(|m| MemberView {
                    member_id: m.member_id.clone(),
                    process_id: m.process_id.clone(),
                    stale: m.stale,
                    member_epoch: m.member_epoch,
                    previous_member_epoch: m.previous_member_epoch,
                    member_state: m.member_state.clone(),
                    assignment: roles(&m.assignment),
                    pending_revocation: roles(&m.pending_revocation),
                    target: roles(&m.target_assignment),
                })
                .collect()
        } else {
            Vec::new()
        },
    }
}

/// A snapshot to check, from JSON text: a Coordinator's `snapshot()`, or a
/// Simulation's (whose `coordinator` holds one). Either is decoded strictly.
pub fn decode_snapshot(text: &str, what: &str) -> Result<Snapshot, InputError> {
    #[derive(Deserialize)]
    struct Peek {
        #[serde(default)]
        coordinator: Option<Ignored>,
        #[serde(default)]
        groups: Option<Ignored>,
    }
    let simulation = matches!(
        serde_json::from_str::<Peek>(text),
        Ok(Peek {
            coordinator: Some(_),
            groups: None
        })
    );
    if simulation {
        // A Simulation's snapshot (or just its `coordinator` part, as the page passes
        // for big groups): only the coordinator's part is checked.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[allow(dead_code)] // the other keys are only accepted, never read
        struct SimulationPart {
            coordinator: Snapshot,
            // The rest of a Simulation's snapshot (sim::snapshot::SimSnapshot), unread.
            #[serde(default)]
            now_ms: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            group_id: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            assignor: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            num_standby_replicas: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            group: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            topics: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            processes: Option<serde::de::IgnoredAny>,
        }
        impl crate::protocol::json::Validate for SimulationPart {
            fn validate(&self) -> Result<(), crate::protocol::json::Invalid> {
                crate::protocol::json::Validate::validate(&self.coordinator)
                    .map_err(|e| e.under("coordinator"))
            }
        }
        decode_str::<SimulationPart>(text, what).map(|s| s.coordinator)
    } else {
        decode_str::<Snapshot>(text, what)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    pub rule: &'static str,
    pub group_id: String,
    pub member_id: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{}] group {}: {}",
            self.rule, self.group_id, self.message
        )
    }
}

pub const RULES: [&str; 9] = [
    "activeOnce",
    "processOnce",
    "standbyApart",
    "epochsForward",
    "assignmentEpochBound",
    "stableOwnsTarget",
    "staleGainsNothing",
    "stableCoversTopology",
    "settled",
];

fn task_name(t: &Task) -> String {
    format!("{}_{}", truncate(&t.0, QUOTE), t.1)
}

fn quote(id: &str) -> String {
    truncate(id, QUOTE)
}

/// At most ten items, then how many more: a message stays short however many there are.
fn listing(items: impl IntoIterator<Item = String>) -> String {
    let mut head = Vec::new();
    let mut more = 0usize;
    for x in items {
        if head.len() < 10 {
            head.push(x);
        } else {
            more += 1;
        }
    }
    if more == 0 {
        head.join(", ")
    } else {
        format!("{} and {more} more", head.join(", "))
    }
}

/// The violations of one check, at most `MAX_VIOLATIONS` listed.
#[derive(Default)]
struct Found {
    list: Vec<Violation>,
    omitted: usize,
    first_omitted: Option<(&'static str, String)>,
}

impl Found {
    fn finish(mut self) -> Vec<Violation> {
        if let Some((rule, group_id)) = self.first_omitted {
            self.list.push(Violation {
                rule,
                group_id,
                member_id: None,
                message: format!(
                    "{} more violation(s) are not listed (at most {MAX_VIOLATIONS} are)",
                    self.omitted
                ),
            });
        }
        self.list
    }
}

struct Out<'a> {
    group: &'a str,
    found: &'a mut Found,
}

impl Out<'_> {
    /// Records a violation; its message is only built when it is listed.
    fn push(&mut self, rule: &'static str, member: Option<&str>, message: impl FnOnce() -> String) {
        if self.found.list.len() >= MAX_VIOLATIONS {
            self.found.omitted += 1;
            if self.found.first_omitted.is_none() {
                self.found.first_omitted = Some((rule, self.group.to_owned()));
            }
            return;
        }
        self.found.list.push(Violation {
            rule,
            group_id: self.group.to_owned(),
            member_id: member.map(str::to_owned),
            message: message(),
        });
    }
}

/// Every safety violation in `current`, and in the change from `previous` to it.
pub fn check(previous: Option<&Snapshot>, current: &Snapshot) -> Vec<Violation> {
    let previous = previous.map(SnapshotView::of);
    let current = SnapshotView::of(current);
    let previous: BTreeMap<&str, &GroupView> = previous
        .iter()
        .flat_map(|p| p.groups.iter())
        .filter(|p| p.streams)
        .map(|p| (p.group_id.as_str(), p))
        .collect();
    let mut found = Found::default();
    for g in current.groups.iter().filter(|g| g.streams) {
        let mut out = Out {
            group: &g.group_id,
            found: &mut found,
        };
        check_ownership(g, &mut out);
        check_target_placement(g, &mut out);
        check_epoch_bounds(g, &mut out);
        check_stable_members(g, &mut out);
        check_stable_target(g, &mut out);
        if let Some(p) = previous.get(g.group_id.as_str()) {
            check_progress(p, g, &mut out);
        }
    }
    found.finish()
}

fn check_ownership(g: &GroupView, out: &mut Out<'_>) {
    // task -> (member, role) of every holding.
    let held: Vec<(&MemberView, Roles)> = g.members.iter().map(|m| (m, m.held())).collect();
    let mut holders: BTreeMap<&Task, Vec<(&MemberView, &'static str)>> = BTreeMap::new();
    for (m, h) in &held {
        for (role, set) in h.all() {
            for t in set {
                holders.entry(t).or_default().push((*m, role));
            }
        }
    }
    for (t, hs) in holders {
        let actives: Vec<&MemberView> = hs
            .iter()
            .filter(|(_, r)| *r == "active")
            .map(|(m, _)| *m)
            .collect();
        if actives.len() > 1 {
            out.push(
                "activeOnce",
                actives.first().map(|m| m.member_id.as_str()),
                || {
                    format!(
                        "task {} is active on {} members: {}",
                        task_name(t),
                        actives.len(),
                        listing(actives.iter().map(|m| quote(&m.member_id)))
                    )
                },
            );
        }
        let mut by_process: BTreeMap<&str, Vec<(&MemberView, &'static str)>> = BTreeMap::new();
        for (m, role) in &hs {
            by_process
                .entry(m.process_id.as_str())
                .or_default()
                .push((*m, *role));
        }
        for (process, list) in &by_process {
            if list.len() > 1 {
                out.push("processOnce", None, || {
                    format!(
                        "process {} holds task {} {} times: {}",
                        quote(process),
                        task_name(t),
                        list.len(),
                        listing(
                            list.iter()
                                .map(|(m, role)| format!("{} as {role}", quote(&m.member_id)))
                        )
                    )
                });
            }
        }
        let active_processes: BTreeSet<&str> =
            actives.iter().map(|m| m.process_id.as_str()).collect();
        for (m, role) in &hs {
            if *role != "active" && active_processes.contains(m.process_id.as_str()) {
                out.push("standbyApart", Some(&m.member_id), || {
                    format!(
                        "member {} holds task {} as {role} on process {}, where the task is active",
                        quote(&m.member_id),
                        task_name(t),
                        quote(&m.process_id)
                    )
                });
            }
        }
    }
}

fn check_target_placement(g: &GroupView, out: &mut Out<'_>) {
    let mut active_on: BTreeMap<&Task, BTreeSet<&str>> = BTreeMap::new();
    for m in &g.members {
        for t in &m.target.active {
            active_on.entry(t).or_default().insert(&m.process_id);
        }
    }
    for m in &g.members {
        for (role, set) in [
            ("standby", &m.target.standby),
            ("warm-up", &m.target.warmup),
        ] {
            for t in set {
                if active_on
                    .get(t)
                    .is_some_and(|p| p.contains(m.process_id.as_str()))
                {
                    out.push("standbyApart", Some(&m.member_id), || {
                        format!(
                            "the target gives member {} task {} as {role} on process {}, where the target has it active",
                            quote(&m.member_id),
                            task_name(t),
                            quote(&m.process_id)
                        )
                    });
                }
            }
        }
    }
}

fn check_epoch_bounds(g: &GroupView, out: &mut Out<'_>) {
    if g.assignment_epoch > g.group_epoch {
        out.push("assignmentEpochBound", None, || {
            format!(
                "assignment epoch {} is ahead of group epoch {}",
                g.assignment_epoch, g.group_epoch
            )
        });
    }
    for m in &g.members {
        if m.member_epoch > g.assignment_epoch {
            out.push("assignmentEpochBound", Some(&m.member_id), || {
                format!(
                    "member {} is at epoch {}, ahead of the assignment epoch {}",
                    quote(&m.member_id),
                    m.member_epoch,
                    g.assignment_epoch
                )
            });
        }
    }
}

fn check_stable_members(g: &GroupView, out: &mut Out<'_>) {
    for m in &g.members {
        if m.member_state != "Stable" || m.member_epoch != g.assignment_epoch {
            continue;
        }
        if m.assignment != m.target || m.pending_revocation != Roles::default() {
            out.push("stableOwnsTarget", Some(&m.member_id), || {
                format!(
                    "member {} is Stable at the assignment epoch {} but holds {} instead of its target {}",
                    quote(&m.member_id),
                    g.assignment_epoch,
                    describe(&m.held()),
                    describe(&m.target)
                )
            });
        }
    }
}

/// A Stable group with a ready topology has every task of it in some member's target
/// (a configuration applied outside a heartbeat must bump the group epoch, PROTOCOL.md).
/// Walks the targeted tasks, never the claimed task counts.
fn check_stable_target(g: &GroupView, out: &mut Out<'_>) {
    if g.state != "Stable" || !g.ready || g.members.iter().all(|m| m.stale) {
        return;
    }
    let mut targeted: BTreeSet<Task> = BTreeSet::new();
    for m in &g.members {
        targeted.extend(m.target.active.iter().cloned());
    }
    let (missing, sample) = take_topology_tasks(&g.subtopologies, &mut targeted);
    if missing > 0 {
        out.push("stableCoversTopology", None, || {
            format!(
                "the group is Stable at group epoch {} but task(s) {} of its ready topology are active in no member's target",
                g.group_epoch,
                sample_and_more(&sample, missing)
            )
        });
    }
}

fn check_progress(p: &GroupView, g: &GroupView, out: &mut Out<'_>) {
    for (what, before, after) in [
        ("group epoch", p.group_epoch, g.group_epoch),
        ("assignment epoch", p.assignment_epoch, g.assignment_epoch),
        (
            "topology epoch",
            p.topology_epoch.unwrap_or(i32::MIN),
            g.topology_epoch.unwrap_or(i32::MIN),
        ),
    ] {
        if after < before {
            out.push("epochsForward", None, || {
                format!("{what} went back from {before} to {after}")
            });
        }
    }
    let before: BTreeMap<&str, &MemberView> = p
        .members
        .iter()
        .map(|m| (m.member_id.as_str(), m))
        .collect();
    for m in &g.members {
        let Some(pm) = before.get(m.member_id.as_str()) else {
            continue;
        };
        if m.member_epoch < pm.member_epoch && m.member_epoch > 0 {
            out.push("epochsForward", Some(&m.member_id), || {
                format!(
                    "member {} went back from epoch {} to {}",
                    quote(&m.member_id),
                    pm.member_epoch,
                    m.member_epoch
                )
            });
        }
        if m.stale {
            let (now, before) = (m.held(), pm.held());
            for ((role, n), (_, b)) in now.all().into_iter().zip(before.all()) {
                if n.difference(b).next().is_some() {
                    out.push("staleGainsNothing", Some(&m.member_id), || {
                        format!(
                            "member {}, whose topology epoch is behind the group's, gained {role} task(s) {}",
                            quote(&m.member_id),
                            listing(n.difference(b).map(task_name))
                        )
                    });
                }
            }
        }
    }
}

fn describe(r: &Roles) -> String {
    let part = |s: &BTreeSet<Task>| format!("[{}]", listing(s.iter().map(task_name)));
    format!(
        "active {} standby {} warm-up {}",
        part(&r.active),
        part(&r.standby),
        part(&r.warmup)
    )
}

/// Liveness, for a snapshot taken after every member kept heartbeating with nothing
/// changing: each group with a ready topology and a non-stale member is Stable, and
/// every task of its topology is active on exactly one member. The work follows the
/// tasks members hold, not the task counts the snapshot claims.
pub fn check_settled(current: &Snapshot) -> Vec<Violation> {
    let current = SnapshotView::of(current);
    let mut found = Found::default();
    for g in current.groups.iter().filter(|g| g.streams) {
        if !g.ready || g.members.iter().all(|m| m.stale) {
            continue;
        }
        let mut out = Out {
            group: &g.group_id,
            found: &mut found,
        };
        if g.state != "Stable" {
            out.push("settled", None, || {
                format!("the group is {} after settling, not Stable", g.state)
            });
        }
        let mut active: BTreeSet<Task> = BTreeSet::new();
        for m in &g.members {
            active.extend(m.assignment.active.iter().cloned());
        }
        let (missing, sample) = take_topology_tasks(&g.subtopologies, &mut active);
        if missing > 0 {
            out.push("settled", None, || {
                format!(
                    "after settling, task(s) {} are active on no member",
                    sample_and_more(&sample, missing)
                )
            });
        }
        if !active.is_empty() {
            out.push("settled", None, || {
                format!(
                    "after settling, task(s) {} that the topology does not have are active",
                    listing(active.iter().map(task_name))
                )
            });
        }
    }
    found.finish()
}

/// The names of `sample`, then how many more of the `total` there are.
fn sample_and_more(sample: &[String], total: u64) -> String {
    let more = total.saturating_sub(sample.len() as u64);
    let head = sample.join(", ");
    if more == 0 {
        head
    } else {
        format!("{head} and {more} more")
    }
}

/// Removes from `active` every task of the topology; returns how many of its tasks
/// were not there and the names of the first ten of them. Walks the active tasks of
/// each subtopology (a range of the set), never the claimed task counts.
fn take_topology_tasks(
    subtopologies: &[(Rc<str>, u32)],
    active: &mut BTreeSet<Task>,
) -> (u64, Vec<String>) {
    let mut missing = 0u64;
    let mut sample = Vec::new();
    for (s, n) in subtopologies {
        let end = i32::try_from(*n).unwrap_or(i32::MAX);
        let present: Vec<i32> = active
            .range((Rc::clone(s), 0)..(Rc::clone(s), end))
            .map(|t| t.1)
            .collect();
        for p in &present {
            active.remove(&(Rc::clone(s), *p));
        }
        missing += u64::from(*n).saturating_sub(present.len() as u64);
        let mut expect = 0i32;
        for next in present.iter().copied().chain(std::iter::once(end)) {
            while expect < next && sample.len() < 10 {
                sample.push(task_name(&(Rc::clone(s), expect)));
                expect += 1;
            }
            if sample.len() >= 10 {
                break;
            }
            expect = next.saturating_add(1);
        }
    }
    (missing, sample)
}
