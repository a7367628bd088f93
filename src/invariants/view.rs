//! What the invariant checker reads of a snapshot: decoded from the snapshot's JSON
//! (`Coordinator.snapshot()`, or a `Simulation.snapshot()` whose `coordinator` key holds
//! one), so Rust tests and the playground check exactly the same data. Keys the
//! checker does not need are ignored; a missing or mistyped one is an error naming it.

use crate::coordinator::snapshot::Snapshot;
use serde_json::Value;
use std::collections::BTreeSet;

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

    pub fn from_snapshot(s: &Snapshot) -> Result<SnapshotView, String> {
        let v = serde_json::to_value(s).map_err(|e| format!("snapshot: {e}"))?;
        SnapshotView::from_json(&v, "snapshot")
    }

    /// A coordinator snapshot, or a simulation snapshot (its `coordinator` key).
    pub fn from_json(v: &Value, what: &str) -> Result<SnapshotView, String> {
        let r = Reader { what };
        let root = match v.get("coordinator") {
            Some(c) if v.get("groups").is_none() => c,
            _ => v,
        };
        let root_path = if std::ptr::eq(root, v) {
            String::new()
        } else {
            "coordinator".to_owned()
        };
        let groups = r.array(root, &root_path, "groups")?;
        let mut out = Vec::with_capacity(groups.len());
        for (i, g) in groups.iter().enumerate() {
            out.push(r.group(g, &join(&root_path, &format!("groups[{i}]")))?);
        }
        Ok(SnapshotView { groups: out })
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else if key.starts_with('[') {
        format!("{path}{key}")
    } else {
        format!("{path}.{key}")
    }
}

struct Reader<'a> {
    what: &'a str,
}

impl Reader<'_> {
    fn err(&self, path: &str, msg: &str) -> String {
        if path.is_empty() {
            format!("invalid {}: {msg}", self.what)
        } else {
            format!("invalid {}: {path}: {msg}", self.what)
        }
    }

    fn field<'v>(&self, v: &'v Value, path: &str, key: &str) -> Result<&'v Value, String> {
        match v {
            Value::Object(m) => m
                .get(key)
                .ok_or_else(|| self.err(&join(path, key), "missing required field")),
            _ => Err(self.err(path, "expected an object")),
        }
    }

    fn array<'v>(&self, v: &'v Value, path: &str, key: &str) -> Result<&'v Vec<Value>, String> {
        match self.field(v, path, key)? {
            Value::Array(a) => Ok(a),
            _ => Err(self.err(&join(path, key), "expected an array")),
        }
    }

    fn string(&self, v: &Value, path: &str, key: &str) -> Result<String, String> {
        match self.field(v, path, key)? {
            Value::String(s) => Ok(s.clone()),
            _ => Err(self.err(&join(path, key), "expected a string")),
        }
    }

    fn boolean(&self, v: &Value, path: &str, key: &str) -> Result<bool, String> {
        match self.field(v, path, key)? {
            Value::Bool(b) => Ok(*b),
            _ => Err(self.err(&join(path, key), "expected a boolean")),
        }
    }

    fn int(&self, v: &Value, path: &str, key: &str) -> Result<i32, String> {
        let x = self.field(v, path, key)?;
        x.as_i64()
            .and_then(|i| i32::try_from(i).ok())
            .ok_or_else(|| self.err(&join(path, key), "expected an int32"))
    }

    fn opt_int(&self, v: &Value, path: &str, key: &str) -> Result<Option<i32>, String> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.int(v, path, key).map(Some),
        }
    }

    fn roles(&self, v: &Value, path: &str, key: &str) -> Result<Roles, String> {
        let t = self.field(v, path, key)?;
        let p = join(path, key);
        Ok(Roles {
            active: self.tasks(t, &p, "activeTasks")?,
            standby: self.tasks(t, &p, "standbyTasks")?,
            warmup: self.tasks(t, &p, "warmupTasks")?,
        })
    }

    fn tasks(&self, v: &Value, path: &str, key: &str) -> Result<BTreeSet<Task>, String> {
        let mut out = BTreeSet::new();
        let list = self.array(v, path, key)?;
        for (i, t) in list.iter().enumerate() {
            let p = join(&join(path, key), &format!("[{i}]"));
            let s = self.string(t, &p, "subtopologyId")?;
            let parts = self.array(t, &p, "partitions")?;
            for (j, x) in parts.iter().enumerate() {
                let part = x
                    .as_i64()
                    .and_then(|i| i32::try_from(i).ok())
                    .ok_or_else(|| {
                        self.err(&format!("{p}.partitions[{j}]"), "expected an int32")
                    })?;
                out.insert((s.clone(), part));
            }
        }
        Ok(out)
    }

    fn member(&self, v: &Value, path: &str) -> Result<MemberView, String> {
        Ok(MemberView {
            member_id: self.string(v, path, "memberId")?,
            process_id: self.string(v, path, "processId")?,
            stale: self.boolean(v, path, "stale")?,
            member_epoch: self.int(v, path, "memberEpoch")?,
            previous_member_epoch: self.int(v, path, "previousMemberEpoch")?,
            member_state: self.string(v, path, "memberState")?,
            assignment: self.roles(v, path, "assignment")?,
            pending_revocation: self.roles(v, path, "pendingRevocation")?,
            target: self.roles(v, path, "targetAssignment")?,
        })
    }

    fn group(&self, v: &Value, path: &str) -> Result<GroupView, String> {
        let group_type = self.string(v, path, "groupType")?;
        let streams = group_type == "streams";
        let mut ready = false;
        let mut subtopologies = Vec::new();
        if let Some(c) = v.get("configuredTopology").filter(|c| !c.is_null()) {
            let cp = join(path, "configuredTopology");
            ready = self.boolean(c, &cp, "ready")?;
            for (i, s) in self.array(c, &cp, "subtopologies")?.iter().enumerate() {
                let sp = join(&cp, &format!("subtopologies[{i}]"));
                let n = self.field(s, &sp, "numTasks")?;
                let n = n
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| self.err(&join(&sp, "numTasks"), "expected a uint32"))?;
                subtopologies.push((self.string(s, &sp, "subtopologyId")?, n));
            }
        }
        let mut members = Vec::new();
        if streams {
            for (i, m) in self.array(v, path, "members")?.iter().enumerate() {
                members.push(self.member(m, &join(path, &format!("members[{i}]")))?);
            }
        }
        let group_id = self.string(v, path, "groupId")?;
        Ok(GroupView {
            group_id,
            streams,
            state: self.string(v, path, "groupState")?,
            group_epoch: self.int(v, path, "groupEpoch")?,
            assignment_epoch: self.int(v, path, "assignmentEpoch")?,
            topology_epoch: self.opt_int(v, path, "topologyEpoch")?,
            ready,
            subtopologies,
            members,
        })
    }
}
