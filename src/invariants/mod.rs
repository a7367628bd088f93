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
use crate::protocol::json::{decode_str, Ignored, InputError};
use crate::protocol::TaskIds;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::TS;

/// A task: (subtopology id, partition).
pub type Task = (String, i32);

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
    pub subtopologies: Vec<(String, u32)>,
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
    list.iter()
        .flat_map(|t| t.partitions.iter().map(|p| (t.subtopology_id.clone(), *p)))
        .collect()
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
                .map(|s| (s.subtopology_id.clone(), s.num_tasks))
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
        impl crate::protocol::json::Validate for SimulationPart {}
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
    format!("{}_{}", t.0, t.1)
}

struct Out<'a> {
    group: &'a str,
    list: Vec<Violation>,
}

impl Out<'_> {
    fn push(&mut self, rule: &'static str, member: Option<&str>, message: String) {
        self.list.push(Violation {
            rule,
            group_id: self.group.to_owned(),
            member_id: member.map(str::to_owned),
            message,
        });
    }
}

/// Every safety violation in `current`, and in the change from `previous` to it.
pub fn check(previous: Option<&Snapshot>, current: &Snapshot) -> Vec<Violation> {
    let previous = previous.map(SnapshotView::of);
    let current = SnapshotView::of(current);
    let previous = previous.as_ref();
    let mut all = Vec::new();
    for g in current.groups.iter().filter(|g| g.streams) {
        let mut out = Out {
            group: &g.group_id,
            list: Vec::new(),
        };
        check_ownership(g, &mut out);
        check_target_placement(g, &mut out);
        check_epoch_bounds(g, &mut out);
        check_stable_members(g, &mut out);
        check_stable_target(g, &mut out);
        if let Some(p) = previous
            .and_then(|p| p.group(&g.group_id))
            .filter(|p| p.streams)
        {
            check_progress(p, g, &mut out);
        }
        all.extend(out.list);
    }
    all
}

fn check_ownership(g: &GroupView, out: &mut Out<'_>) {
    // task -> (member, process, role) of every holding.
    let mut holders: BTreeMap<&Task, Vec<(&MemberView, &'static str)>> = BTreeMap::new();
    let held: Vec<(&MemberView, Roles)> = g.members.iter().map(|m| (m, m.held())).collect();
    for (m, h) in &held {
        for (role, set) in h.all() {
            for t in set {
                holders.entry(t).or_default().push((m, role));
            }
        }
    }
    for (t, hs) in holders {
        let actives: Vec<&str> = hs
            .iter()
            .filter(|(_, r)| *r == "active")
            .map(|(m, _)| m.member_id.as_str())
            .collect();
        if actives.len() > 1 {
            out.push(
                "activeOnce",
                actives.first().copied(),
                format!(
                    "task {} is active on {} members: {}",
                    task_name(t),
                    actives.len(),
                    actives.join(", ")
                ),
            );
        }
        let mut by_process: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (m, role) in &hs {
            by_process
                .entry(m.process_id.as_str())
                .or_default()
                .push(format!("{} as {role}", m.member_id));
        }
        for (process, list) in by_process {
            if list.len() > 1 {
                out.push(
                    "processOnce",
                    None,
                    format!(
                        "process {process} holds task {} {} times: {}",
                        task_name(t),
                        list.len(),
                        list.join(", ")
                    ),
                );
            }
        }
        let active_processes: BTreeSet<&str> = hs
            .iter()
            .filter(|(_, r)| *r == "active")
            .map(|(m, _)| m.process_id.as_str())
            .collect();
        for (m, role) in &hs {
            if *role != "active" && active_processes.contains(m.process_id.as_str()) {
                out.push(
                    "standbyApart",
                    Some(&m.member_id),
                    format!(
                        "member {} holds task {} as {role} on process {}, where the task is active",
                        m.member_id,
                        task_name(t),
                        m.process_id
                    ),
                );
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
                    out.push(
                        "standbyApart",
                        Some(&m.member_id),
                        format!(
                            "the target gives member {} task {} as {role} on process {}, where the target has it active",
                            m.member_id,
                            task_name(t),
                            m.process_id
                        ),
                    );
                }
            }
        }
    }
}

fn check_epoch_bounds(g: &GroupView, out: &mut Out<'_>) {
    if g.assignment_epoch > g.group_epoch {
        out.push(
            "assignmentEpochBound",
            None,
            format!(
                "assignment epoch {} is ahead of group epoch {}",
                g.assignment_epoch, g.group_epoch
            ),
        );
    }
    for m in &g.members {
        if m.member_epoch > g.assignment_epoch {
            out.push(
                "assignmentEpochBound",
                Some(&m.member_id),
                format!(
                    "member {} is at epoch {}, ahead of the assignment epoch {}",
                    m.member_id, m.member_epoch, g.assignment_epoch
                ),
            );
        }
    }
}

fn check_stable_members(g: &GroupView, out: &mut Out<'_>) {
    for m in &g.members {
        if m.member_state != "Stable" || m.member_epoch != g.assignment_epoch {
            continue;
        }
        if m.assignment != m.target || m.pending_revocation != Roles::default() {
            out.push(
                "stableOwnsTarget",
                Some(&m.member_id),
                format!(
                    "member {} is Stable at the assignment epoch {} but holds {} instead of its target {}",
                    m.member_id,
                    g.assignment_epoch,
                    describe(&m.held()),
                    describe(&m.target)
                ),
            );
        }
    }
}

/// Every task of the topology, in subtopology order.
fn topology_tasks(g: &GroupView) -> Vec<Task> {
    g.subtopologies
        .iter()
        .flat_map(|(s, n)| (0..*n).map(move |p| (s.clone(), i32::try_from(p).unwrap_or(i32::MAX))))
        .collect()
}

fn check_stable_target(g: &GroupView, out: &mut Out<'_>) {
    if g.state != "Stable" || !g.ready || g.members.iter().all(|m| m.stale) {
        return;
    }
    let targeted: BTreeSet<&Task> = g.members.iter().flat_map(|m| &m.target.active).collect();
    let missing: Vec<String> = topology_tasks(g)
        .iter()
        .filter(|t| !targeted.contains(t))
        .map(task_name)
        .collect();
    if !missing.is_empty() {
        out.push(
            "stableCoversTopology",
            None,
            format!(
                "the group is Stable at group epoch {} but task(s) {} of its ready topology are active in no member's target",
                g.group_epoch,
                abbreviate(&missing)
            ),
        );
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
            out.push(
                "epochsForward",
                None,
                format!("{what} went back from {before} to {after}"),
            );
        }
    }
    for m in &g.members {
        let Some(pm) = p.members.iter().find(|x| x.member_id == m.member_id) else {
            continue;
        };
        if m.member_epoch < pm.member_epoch && m.member_epoch > 0 {
            out.push(
                "epochsForward",
                Some(&m.member_id),
                format!(
                    "member {} went back from epoch {} to {}",
                    m.member_id, pm.member_epoch, m.member_epoch
                ),
            );
        }
        if m.stale {
            let (now, before) = (m.held(), pm.held());
            for ((role, n), (_, b)) in now.all().into_iter().zip(before.all()) {
                let gained: Vec<String> = n.difference(b).map(task_name).collect();
                if !gained.is_empty() {
                    out.push(
                        "staleGainsNothing",
                        Some(&m.member_id),
                        format!(
                            "member {}, whose topology epoch is behind the group's, gained {role} task(s) {}",
                            m.member_id,
                            gained.join(", ")
                        ),
                    );
                }
            }
        }
    }
}

fn describe(r: &Roles) -> String {
    let part = |s: &BTreeSet<Task>| {
        let v: Vec<String> = s.iter().map(task_name).collect();
        format!("[{}]", v.join(", "))
    };
    format!(
        "active {} standby {} warm-up {}",
        part(&r.active),
        part(&r.standby),
        part(&r.warmup)
    )
}

/// Liveness, for a snapshot taken after every member kept heartbeating with nothing
/// changing: each group with a ready topology and a non-stale member is Stable, and
/// every task of its topology is active on exactly one member.
pub fn check_settled(current: &Snapshot) -> Vec<Violation> {
    let current = SnapshotView::of(current);
    let mut all = Vec::new();
    for g in current.groups.iter().filter(|g| g.streams) {
        if !g.ready || g.members.iter().all(|m| m.stale) {
            continue;
        }
        let mut out = Out {
            group: &g.group_id,
            list: Vec::new(),
        };
        if g.state != "Stable" {
            out.push(
                "settled",
                None,
                format!("the group is {} after settling, not Stable", g.state),
            );
        }
        let mut count: BTreeMap<Task, usize> = BTreeMap::new();
        for m in &g.members {
            for t in &m.assignment.active {
                *count.entry(t.clone()).or_default() += 1;
            }
        }
        let mut missing = Vec::new();
        for t in topology_tasks(g) {
            if count.remove(&t).is_none() {
                missing.push(task_name(&t));
            }
        }
        if !missing.is_empty() {
            out.push(
                "settled",
                None,
                format!(
                    "after settling, task(s) {} are active on no member",
                    abbreviate(&missing)
                ),
            );
        }
        let extra: Vec<String> = count.keys().map(task_name).collect();
        if !extra.is_empty() {
            out.push(
                "settled",
                None,
                format!(
                    "after settling, task(s) {} that the topology does not have are active",
                    abbreviate(&extra)
                ),
            );
        }
        all.extend(out.list);
    }
    all
}

fn abbreviate(list: &[String]) -> String {
    if list.len() <= 10 {
        list.join(", ")
    } else {
        let head: Vec<&str> = list.iter().take(10).map(String::as_str).collect();
        format!("{} and {} more", head.join(", "), list.len() - 10)
    }
}
