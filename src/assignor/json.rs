//! The JSON form of `assign()` (API.md "Stand-alone assignment"): strict decoding of a
//! group spec and an assignment config, encoding of the result. Also used natively
//! (`assign_json`) so tests and benchmarks measure the same path as JavaScript does,
//! and the I/O floor (`io_floor_json`: decode + encode, no assignment).

use super::{by_name, AssignmentConfig, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec};
use crate::compare::cmp_id;
use crate::config::CoordinatorConfig;
use crate::protocol::common::unique;
use crate::protocol::json::{
    decode_str, key_values_opt, list, partition, unique_map, InputError, Invalid, Validate,
};
use crate::protocol::{KeyValue, TaskIds, TaskList, TaskOffset};
use crate::task::{SharedIds, TaskId, TaskSet};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;
use ts_rs::TS;

/// Most tasks one `assign()` call accepts: bounds memory, whatever the input says.
pub const MAX_TASKS: u64 = 1 << 22;

/// `assign()`'s group spec as JSON carries it (API.md "Stand-alone assignment").
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "GroupSpec")]
pub struct GroupSpecJson {
    pub subtopologies: Vec<SubtopologyJson>,
    pub members: Vec<MemberJson>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub group_topology_epoch: i32,
}

#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "SubtopologySpec")]
pub struct SubtopologyJson {
    pub subtopology_id: String,
    #[serde(deserialize_with = "partition::deserialize")]
    pub num_partitions: i32,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub stateful: bool,
}

impl SubtopologyJson {
    /// Its tasks: partitions 0..num_partitions (a negative count is refused when
    /// decoded).
    pub fn num_tasks(&self) -> u32 {
        self.num_partitions.unsigned_abs()
    }
}

#[derive(Debug, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "MemberSpec")]
pub struct MemberJson {
    pub member_id: String,
    pub process_id: String,
    /// Default: the group's topology epoch.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub topology_epoch: Option<i32>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub rack_id: Option<String>,
    /// `[{ key, value }]` (an object is an input error).
    #[serde(default, deserialize_with = "key_values_opt")]
    #[ts(type = "Array<KeyValue> | null")]
    #[ts(optional = nullable)]
    pub client_tags: Option<Vec<KeyValue>>,
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>", optional = nullable)]
    pub active_tasks: TaskList,
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>", optional = nullable)]
    pub standby_tasks: TaskList,
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>", optional = nullable)]
    pub warmup_tasks: TaskList,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub task_offsets: Vec<TaskOffset>,
    #[serde(default, deserialize_with = "list")]
    #[ts(optional = nullable)]
    pub task_end_offsets: Vec<TaskOffset>,
}

impl Validate for GroupSpecJson {
    fn validate(&self) -> Result<(), Invalid> {
        unique(
            self.subtopologies.iter().map(|s| s.subtopology_id.as_str()),
            |i| format!("subtopologies[{i}].subtopologyId"),
            "subtopology",
        )?;
        let mut total: u64 = 0;
        for (i, s) in self.subtopologies.iter().enumerate() {
            total += s.num_partitions.unsigned_abs() as u64;
            if total > MAX_TASKS {
                return Err(Invalid::new(
                    format!("subtopologies[{i}].numPartitions"),
                    format!("more than {MAX_TASKS} tasks in the group"),
                ));
            }
        }
        unique(
            self.members.iter().map(|m| m.member_id.as_str()),
            |i| format!("members[{i}].memberId"),
            "member",
        )?;
        for (i, m) in self.members.iter().enumerate() {
            m.validate()
                .map_err(|e| e.under(&format!("members[{i}]")))?;
        }
        Ok(())
    }
}

/// The owned task lists have no rule here, and must not get one without the packed
/// path of src/wasm/packed.rs, which builds their sets after `validate()`.
impl Validate for MemberJson {
    fn validate(&self) -> Result<(), Invalid> {
        if let Some(tags) = &self.client_tags {
            unique(
                tags.iter().map(|t| t.key.as_str()),
                |i| format!("clientTags[{i}]"),
                "client tag",
            )?;
        }
        for (key, list) in [
            ("taskOffsets", &self.task_offsets),
            ("taskEndOffsets", &self.task_end_offsets),
        ] {
            let mut seen = std::collections::BTreeSet::new();
            for (i, o) in list.iter().enumerate() {
                if !seen.insert((o.subtopology_id.as_str(), o.partition)) {
                    return Err(Invalid::new(
                        format!("{key}[{i}]"),
                        format!(
                            "duplicate offset for task {}",
                            TaskId::new(o.subtopology_id.clone(), o.partition)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn offsets(list: Vec<TaskOffset>) -> BTreeMap<TaskId, i64> {
    list.into_iter()
        .map(|o| (TaskId::new(o.subtopology_id, o.partition), o.offset))
        .collect()
}

/// What a member owns, made apart from its JSON (the binding's packed lists become
/// sets and maps without a `TaskList` or a `TaskOffset`, src/wasm/packed.rs).
/// Boxed, and only when there is something: a packed spec's members own nothing here
/// (their lists go to the assignor as they are), and per member of 10 000 its sets and
/// maps took about 200 bytes to write, move and drop.
#[derive(Default)]
pub struct Owned {
    /// Active, standby, warm-up; `None`: all three empty.
    sets: Option<Box<[TaskSet; 3]>>,
    /// Task offsets and end offsets; `None`: the member's own (from its JSON).
    offsets: Option<Box<[BTreeMap<TaskId, i64>; 2]>>,
}

impl Owned {
    /// `sets`: `None` for none (the lists went elsewhere).
    pub fn new(sets: Option<[TaskSet; 3]>, offsets: Option<[BTreeMap<TaskId, i64>; 2]>) -> Self {
        Owned {
            sets: sets
                .filter(|sets| !sets.iter().all(TaskSet::is_empty))
                .map(Box::new),
            offsets: offsets.map(Box::new),
        }
    }

    /// Active, standby and warm-up, and the offsets if given apart.
    pub fn into_parts(self) -> ([TaskSet; 3], Option<[BTreeMap<TaskId, i64>; 2]>) {
        (
            self.sets.map(|s| *s).unwrap_or_default(),
            self.offsets.map(|o| *o),
        )
    }
}

/// A spec member as the binding's packed input carries it (src/wasm/packed.rs): its
/// two ids alone, when it had nothing else (no `MemberJson` and no copy of it on the
/// way: 1 000 x 10 000 after a leave spent about 60 us of its 1.4 ms making them), or
/// its JSON. The ids are strings the binding made (it reuses their buffers).
pub enum MemberIn {
    Ids {
        member_id: String,
        process_id: String,
    },
    Json(Box<MemberJson>),
}

/// A member of the input, as `GroupSpecJson::into_spec_from` builds it.
pub trait SpecMember {
    fn member_id(&self) -> &str;
    /// Its `MemberSpec`, owning what `owned` says; `epoch`: the group's topology epoch.
    fn into_member(self, owned: Owned, epoch: i32) -> MemberSpec;
}

impl SpecMember for MemberJson {
    fn member_id(&self) -> &str {
        &self.member_id
    }

    fn into_member(self, owned: Owned, epoch: i32) -> MemberSpec {
        let ([active, standby, warmup], reported) = owned.into_parts();
        let [task_offsets, task_end_offsets] = reported
            .unwrap_or_else(|| [offsets(self.task_offsets), offsets(self.task_end_offsets)]);
        MemberSpec {
            member_id: self.member_id,
            process_id: self.process_id,
            topology_epoch: self.topology_epoch.unwrap_or(epoch),
            rack_id: self.rack_id,
            client_tags: self
                .client_tags
                .unwrap_or_default()
                .into_iter()
                .map(|t| (t.key, t.value))
                .collect(),
            active,
            standby,
            warmup,
            task_offsets,
            task_end_offsets,
        }
    }
}

impl SpecMember for MemberIn {
    fn member_id(&self) -> &str {
        match self {
            MemberIn::Ids { member_id, .. } => member_id,
            MemberIn::Json(m) => &m.member_id,
        }
    }

    fn into_member(self, owned: Owned, epoch: i32) -> MemberSpec {
        match self {
            MemberIn::Ids {
                member_id,
                process_id,
            } => {
                let ([active, standby, warmup], offsets) = owned.into_parts();
                let [task_offsets, task_end_offsets] = offsets.unwrap_or_default();
                MemberSpec {
                    member_id,
                    process_id,
                    topology_epoch: epoch,
                    rack_id: None,
                    client_tags: BTreeMap::new(),
                    active,
                    standby,
                    warmup,
                    task_offsets,
                    task_end_offsets,
                }
            }
            MemberIn::Json(m) => m.into_member(owned, epoch),
        }
    }
}

impl GroupSpecJson {
    /// The assignor's input: subtopologies and members sorted by id.
    pub fn into_spec(mut self) -> GroupSpec {
        let mut ids = SharedIds::default();
        let members = std::mem::take(&mut self.members);
        self.into_spec_from(members, |_, m| {
            let sets = [&m.active_tasks, &m.standby_tasks, &m.warmup_tasks]
                .map(|l| TaskSet::from_task_list(l, &mut ids));
            Owned::new(Some(sets), None)
        })
        .0
    }

    /// The same with the members given apart (the spec's own are ignored), what each
    /// owns made by `owned` (called with its place in the input); with it, each spec
    /// member's place in the input. Members are built straight in id order (built in
    /// input order and then sorted, each moved twice).
    pub fn into_spec_from<M: SpecMember>(
        self,
        members: Vec<M>,
        mut owned: impl FnMut(usize, &M) -> Owned,
    ) -> (GroupSpec, Vec<usize>) {
        let topology_epoch = self.group_topology_epoch;
        let mut subtopologies: Vec<SubtopologySpec> = self
            .subtopologies
            .into_iter()
            .map(|s| SubtopologySpec {
                num_tasks: s.num_tasks(),
                id: s.subtopology_id,
                stateful: s.stateful,
            })
            .collect();
        subtopologies.sort_by(|a, b| cmp_id(&a.id, &b.id));
        // Sorted as (id, place) pairs, then taken in that order.
        let mut order: Vec<(&str, usize)> =
            members.iter().map(|m| m.member_id()).zip(0..).collect();
        order.sort_unstable_by(|a, b| cmp_id(a.0, b.0).then(a.1.cmp(&b.1)));
        let order: Vec<usize> = order.into_iter().map(|(_, i)| i).collect();
        let mut members: Vec<Option<M>> = members.into_iter().map(Some).collect();
        let members: Vec<MemberSpec> = order
            .iter()
            .filter_map(|&i| {
                let m = members.get_mut(i)?.take()?;
                let owned = owned(i, &m);
                Some(m.into_member(owned, topology_epoch))
            })
            .collect();
        let spec = GroupSpec {
            subtopologies,
            members,
            topology_epoch,
        };
        (spec, order)
    }
}

/// An assignment as `assign()` returns it, read back (for `assignmentQuality`).
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GroupAssignment")]
pub struct AssignmentJsonIn {
    /// Keyed by member id.
    #[serde(deserialize_with = "unique_map")]
    pub members: BTreeMap<String, MemberAssignmentJsonIn>,
}

#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "MemberAssignment")]
pub struct MemberAssignmentJsonIn {
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>")]
    pub active_tasks: TaskList,
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>")]
    pub standby_tasks: TaskList,
    #[serde(default)]
    #[ts(as = "Vec<TaskIds>")]
    pub warmup_tasks: TaskList,
}

impl Validate for AssignmentJsonIn {}

impl AssignmentJsonIn {
    pub fn into_assignment(self) -> GroupAssignment {
        let mut ids = SharedIds::default();
        GroupAssignment {
            members: self
                .members
                .into_iter()
                .map(|(id, m)| {
                    let a = super::MemberAssignment {
                        active: TaskSet::from_task_list(&m.active_tasks, &mut ids),
                        standby: TaskSet::from_task_list(&m.standby_tasks, &mut ids),
                        warmup: TaskSet::from_task_list(&m.warmup_tasks, &mut ids),
                    };
                    (id, a)
                })
                .collect(),
        }
    }
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
pub fn assignor(name: &str) -> Result<&'static dyn super::TaskAssignor, InputError> {
    by_name(name).ok_or_else(|| InputError::Invalid {
        what: "assignorName".to_owned(),
        path: String::new(),
        message: crate::config::unknown_assignor(name),
    })
}

/// A group spec from JSON text.
pub fn decode_spec(text: &str) -> Result<GroupSpec, InputError> {
    decode_str::<GroupSpecJson>(text, "groupSpec").map(GroupSpecJson::into_spec)
}

/// An assignment from JSON text (what `assign()` returns).
pub fn decode_assignment(text: &str) -> Result<GroupAssignment, InputError> {
    decode_str::<AssignmentJsonIn>(text, "result").map(AssignmentJsonIn::into_assignment)
}

/// The config of `assign()` is the Coordinator's (API.md): the same object works for
/// both, and only its assignment fields matter here.
pub fn assignment_config(c: &CoordinatorConfig) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: c.num_standby_replicas,
        acceptable_recovery_lag: c.acceptable_recovery_lag,
        max_warmup_replicas: c.max_warmup_replicas,
    }
}

/// `assign()`'s config from JSON text (none: the defaults).
pub fn decode_config(text: Option<&str>) -> Result<AssignmentConfig, InputError> {
    match text {
        None => Ok(AssignmentConfig::default()),
        Some(t) => decode_str::<Option<CoordinatorConfig>>(t, "config")
            .map(|c| c.map(|c| assignment_config(&c)).unwrap_or_default()),
    }
}

/// `assign()` on JSON text: decode, assign, encode.
pub fn assign_json(name: &str, spec: &str, config: Option<&str>) -> Result<String, InputError> {
    let assignor = assignor(name)?;
    let spec = decode_spec(spec)?;
    let config = decode_config(config)?;
    Ok(encode_assignment(&assignor.assign(&spec, &config)))
}

/// The I/O floor of `assign_json`: the same decoding and encoding of a given result,
/// without the assignment. Benchmarks compare against it.
pub fn io_floor_json(spec: &str, result: &GroupAssignment) -> Result<String, InputError> {
    let spec = decode_spec(spec)?;
    std::hint::black_box(&spec);
    Ok(encode_assignment(result))
}
