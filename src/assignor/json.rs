//! The JSON form of `assign()` (API.md "Stand-alone assignment"): strict decoding of a
//! group spec and an assignment config, encoding of the result. Also used natively
//! (`assign_json`) so tests and benchmarks measure the same path as JavaScript does,
//! and the I/O floor (`io_floor_json`: decode + encode, no assignment).

use super::{by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec};
use crate::config::CoordinatorConfig;
use crate::from_json_struct;
use crate::protocol::json::{decode, parse, DecodeError, FromJson, Path};
use crate::protocol::{KeyValue, Partition, TaskIds, TaskOffset};
use crate::task::{TaskId, TaskSet};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Most tasks one `assign()` call accepts: bounds memory, whatever the input says.
pub const MAX_TASKS: u64 = 1 << 22;

struct SubtopologyJson(SubtopologySpec);

from_json_struct!(
    SubtopologyJson,
    "a {subtopologyId, numPartitions, stateful} object",
    "{subtopologyId, numPartitions, stateful} objects",
    |f| {
        let num: Partition = f.required("numPartitions")?;
        Ok(SubtopologyJson(SubtopologySpec {
            id: f.required("subtopologyId")?,
            num_tasks: num.0 as u32,
            stateful: f.or("stateful", false)?,
        }))
    }
);

struct MemberJson {
    spec: MemberSpec,
    topology_epoch: Option<i32>,
}

fn offsets(list: Vec<TaskOffset>, path: &Path<'_>) -> Result<BTreeMap<TaskId, i64>, DecodeError> {
    let mut out = BTreeMap::new();
    for (i, o) in list.into_iter().enumerate() {
        let task = TaskId::new(o.subtopology_id, o.partition);
        if out.contains_key(&task) {
            return Err(DecodeError::new(
                &path.index(i),
                format!("duplicate offset for task {task}"),
            ));
        }
        out.insert(task, o.offset);
    }
    Ok(out)
}

/// Client tags as the protocol writes them (`[{key, value}]`) or as a plain object.
fn client_tags(v: &Value, path: &Path<'_>) -> Result<BTreeMap<String, String>, DecodeError> {
    let mut out = BTreeMap::new();
    match v {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone(), String::from_json(v, &path.key(k))?);
            }
        }
        _ => {
            let list: Vec<KeyValue> = Vec::from_json(v, path)?;
            for (i, kv) in list.into_iter().enumerate() {
                if out.contains_key(&kv.key) {
                    return Err(DecodeError::new(
                        &path.index(i),
                        format!("duplicate client tag {:?}", kv.key),
                    ));
                }
                out.insert(kv.key, kv.value);
            }
        }
    }
    Ok(out)
}

from_json_struct!(MemberJson, "a member object", "member objects", |f| {
    let tags: Value = f.or("clientTags", Value::Null)?;
    let client_tags = client_tags(&tags, &f.path().key("clientTags"))?;
    let active: Vec<TaskIds> = f.list("activeTasks")?;
    let standby: Vec<TaskIds> = f.list("standbyTasks")?;
    let warmup: Vec<TaskIds> = f.list("warmupTasks")?;
    let task_offsets = offsets(f.list("taskOffsets")?, &f.path().key("taskOffsets"))?;
    let task_end_offsets = offsets(f.list("taskEndOffsets")?, &f.path().key("taskEndOffsets"))?;
    Ok(MemberJson {
        topology_epoch: f.or("topologyEpoch", None)?,
        spec: MemberSpec {
            member_id: f.required("memberId")?,
            process_id: f.required("processId")?,
            topology_epoch: 0,
            rack_id: f.or("rackId", None)?,
            client_tags,
            active: TaskSet::from_task_ids(&active),
            standby: TaskSet::from_task_ids(&standby),
            warmup: TaskSet::from_task_ids(&warmup),
            task_offsets,
            task_end_offsets,
        },
    })
});

from_json_struct!(
    GroupSpec,
    "a group spec object",
    "group spec objects",
    |f| {
        let subs: Vec<SubtopologyJson> = f.required("subtopologies")?;
        let members: Vec<MemberJson> = f.required("members")?;
        let topology_epoch: i32 = f.or("groupTopologyEpoch", 0)?;
        let mut total: u64 = 0;
        let mut seen = BTreeSet::new();
        for (i, s) in subs.iter().enumerate() {
            let p = f.path().key("subtopologies");
            let p = p.index(i);
            if !seen.insert(s.0.id.as_str()) {
                return Err(DecodeError::new(
                    &p.key("subtopologyId"),
                    format!("duplicate subtopology {:?}", s.0.id),
                ));
            }
            total += u64::from(s.0.num_tasks);
            if total > MAX_TASKS {
                return Err(DecodeError::new(
                    &p.key("numPartitions"),
                    format!("more than {MAX_TASKS} tasks in the group"),
                ));
            }
        }
        let mut ids = BTreeSet::new();
        for (i, m) in members.iter().enumerate() {
            if !ids.insert(m.spec.member_id.as_str()) {
                let p = f.path().key("members");
                return Err(DecodeError::new(
                    &p.index(i).key("memberId"),
                    format!("duplicate member {:?}", m.spec.member_id),
                ));
            }
        }
        let mut subtopologies: Vec<SubtopologySpec> = subs.into_iter().map(|s| s.0).collect();
        subtopologies.sort_by(|a, b| a.id.cmp(&b.id));
        let mut members: Vec<MemberSpec> = members
            .into_iter()
            .map(|m| MemberSpec {
                topology_epoch: m.topology_epoch.unwrap_or(topology_epoch),
                ..m.spec
            })
            .collect();
        members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        Ok(GroupSpec {
            subtopologies,
            members,
            topology_epoch,
        })
    }
);

// An assignment as `assign()` returns it, read back (for `assignmentQuality`).
from_json_struct!(
    GroupAssignment,
    "an assignment object ({ members: { [memberId]: {...} } })",
    "assignment objects",
    |f| {
        let raw: Value = f.required("members")?;
        let path = f.path().key("members");
        let Value::Object(map) = &raw else {
            return Err(crate::protocol::json::mismatch(
                &raw,
                &path,
                "an object keyed by member id",
            ));
        };
        let mut members = BTreeMap::new();
        for (id, v) in map {
            let a = decode_member_assignment(v, &path.key(id))?;
            members.insert(id.clone(), a);
        }
        Ok(GroupAssignment { members })
    }
);

struct MemberAssignmentJson(super::MemberAssignment);

from_json_struct!(
    MemberAssignmentJson,
    "an {activeTasks, standbyTasks, warmupTasks} object",
    "{activeTasks, standbyTasks, warmupTasks} objects",
    |f| {
        let a: Vec<TaskIds> = f.list("activeTasks")?;
        let s: Vec<TaskIds> = f.list("standbyTasks")?;
        let w: Vec<TaskIds> = f.list("warmupTasks")?;
        Ok(MemberAssignmentJson(super::MemberAssignment {
            active: TaskSet::from_task_ids(&a),
            standby: TaskSet::from_task_ids(&s),
            warmup: TaskSet::from_task_ids(&w),
        }))
    }
);

fn decode_member_assignment(
    v: &Value,
    path: &Path<'_>,
) -> Result<super::MemberAssignment, DecodeError> {
    MemberAssignmentJson::from_json(v, path).map(|m| m.0)
}

/// Serializes a task set in the protocol's form without copying it.
struct TaskSetJson<'a>(&'a TaskSet);

impl Serialize for TaskSetJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.subtopologies().count()))?;
        for (id, parts) in self.0.subtopologies() {
            seq.serialize_element(&TaskIdsJson { id, parts })?;
        }
        seq.end()
    }
}

struct TaskIdsJson<'a> {
    id: &'a str,
    parts: &'a [i32],
}

impl Serialize for TaskIdsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("TaskIds", 2)?;
        st.serialize_field("subtopologyId", self.id)?;
        st.serialize_field("partitions", self.parts)?;
        st.end()
    }
}

/// `{ members: { [memberId]: { activeTasks, standbyTasks, warmupTasks } } }`.
pub struct AssignmentJson<'a>(pub &'a GroupAssignment);

impl Serialize for AssignmentJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Members<'a>(&'a BTreeMap<String, super::MemberAssignment>);
        impl Serialize for Members<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(self.0.len()))?;
                for (id, a) in self.0 {
                    map.serialize_entry(id, &MemberJsonOut(a))?;
                }
                map.end()
            }
        }
        let mut st = s.serialize_struct("GroupAssignment", 1)?;
        st.serialize_field("members", &Members(&self.0.members))?;
        st.end()
    }
}

struct MemberJsonOut<'a>(&'a super::MemberAssignment);

impl Serialize for MemberJsonOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("MemberAssignment", 3)?;
        st.serialize_field("activeTasks", &TaskSetJson(&self.0.active))?;
        st.serialize_field("standbyTasks", &TaskSetJson(&self.0.standby))?;
        st.serialize_field("warmupTasks", &TaskSetJson(&self.0.warmup))?;
        st.end()
    }
}

/// The JSON text of an assignment.
pub fn encode_assignment(a: &GroupAssignment) -> String {
    serde_json::to_string(&AssignmentJson(a)).unwrap_or_default()
}

/// Looks an assignor up, with the error `assign()` throws for an unknown name.
pub fn assignor(name: &str) -> Result<&'static dyn super::TaskAssignor, String> {
    by_name(name).ok_or_else(|| {
        format!(
            "invalid assignorName: unknown assignor {:?}; known: {}",
            crate::protocol::json::truncate(name, 60),
            super::NAMES.join(", ")
        )
    })
}

pub fn decode_spec(v: &Value) -> Result<GroupSpec, String> {
    decode(v, "groupSpec")
}

/// The config of `assign()` is the Coordinator's (API.md): the same object works for
/// both, and only its assignment fields matter here.
pub fn decode_config(v: Option<&Value>) -> Result<AssignmentConfig, String> {
    match v {
        None | Some(Value::Null) => Ok(AssignmentConfig::default()),
        Some(v) => {
            let c: CoordinatorConfig = decode(v, "config")?;
            Ok(AssignmentConfig {
                num_standby_replicas: c.num_standby_replicas,
                acceptable_recovery_lag: c.acceptable_recovery_lag,
                max_warmup_replicas: c.max_warmup_replicas,
            })
        }
    }
}

/// `assign()` on JSON text: parse, decode, assign, encode.
pub fn assign_json(name: &str, spec: &str, config: Option<&str>) -> Result<String, String> {
    let assignor = assignor(name)?;
    let spec = parse(spec).map_err(|e| e.context("groupSpec"))?;
    let config = match config {
        None => None,
        Some(text) => Some(parse(text).map_err(|e| e.context("config"))?),
    };
    let spec = decode_spec(&spec)?;
    let config = decode_config(config.as_ref())?;
    Ok(encode_assignment(&assignor.assign(&spec, &config)))
}

/// The I/O floor of `assign_json`: the same parsing, decoding and encoding of a given
/// result, without the assignment. Benchmarks compare against it.
pub fn io_floor_json(spec: &str, result: &GroupAssignment) -> Result<String, String> {
    let v = parse(spec).map_err(|e| e.context("groupSpec"))?;
    let spec = decode_spec(&v)?;
    std::hint::black_box(&spec);
    Ok(encode_assignment(result))
}
