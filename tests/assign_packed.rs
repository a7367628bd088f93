//! The packed form of `assign()` (src/assignor/packed.rs), natively: a spec packed as
//! the JS fast path packs it decodes to exactly the strict decoder's `GroupSpec` and
//! assigns to exactly its result; hostile buffers (truncated, out-of-range indexes,
//! lengths past the end, duplicates the strict decoder rejects) decode to `None`
//! ("use the strict path"), never to a panic or a different spec.

use serde_json::{json, Value};
use streams_rebalance::assignor::json::{assign_json, decode_config, decode_spec, MAX_TASKS};
use streams_rebalance::assignor::packed::{
    assign_packed, decode, encode, quality_packed, warmup_caught_up_packed, PackedSpec, FORMAT,
};
use streams_rebalance::assignor::quality::{quality, quality_with_config};
use streams_rebalance::assignor::{by_name, warmup_caught_up, AssignmentConfig, GroupSpec};
use streams_rebalance::limits::MAX_STRING_BYTES;

/// A packed spec, owned.
#[derive(Clone, Debug, Default)]
struct Packed {
    strings: String,
    ints: Vec<i32>,
    floats: Vec<f64>,
}

impl Packed {
    fn view(&self) -> PackedSpec<'_> {
        PackedSpec {
            strings: &self.strings,
            ints: &self.ints,
            floats: &self.floats,
        }
    }

    fn string(&mut self, s: &str) {
        self.strings.push_str(s);
        self.ints.push(s.encode_utf16().count() as i32);
    }
}

/// Packs a valid group spec (JSON, as a user writes it) the way pkg/js/fast-assign.mjs
/// does: input order kept, optional fields as given, tags in either form, a task of a
/// subtopology the spec does not hold as -1 and its id.
fn pack(spec: &Value) -> Packed {
    let mut p = Packed::default();
    let subs = spec["subtopologies"].as_array().expect("subtopologies");
    let members = spec["members"].as_array().expect("members");
    p.ints.push(FORMAT);
    p.ints.push(subs.len() as i32);
    p.ints.push(members.len() as i32);
    p.ints
        .push(spec["groupTopologyEpoch"].as_i64().unwrap_or(0) as i32);
    let ids: Vec<&str> = subs
        .iter()
        .map(|s| s["subtopologyId"].as_str().expect("id"))
        .collect();
    let subtopology = |p: &mut Packed, id: &Value| {
        let id = id.as_str().expect("subtopologyId");
        match ids.iter().position(|x| *x == id) {
            Some(i) => p.ints.push(i as i32),
            None => {
                p.ints.push(-1);
                p.string(id);
            }
        }
    };
    for s in subs {
        p.string(s["subtopologyId"].as_str().expect("id"));
        p.ints.push(s["numPartitions"].as_i64().expect("n") as i32);
        p.ints
            .push(i32::from(s["stateful"].as_bool().unwrap_or(false)));
    }
    for m in members {
        p.string(m["memberId"].as_str().expect("memberId"));
        p.string(m["processId"].as_str().expect("processId"));
        match m["topologyEpoch"].as_i64() {
            Some(e) => p.ints.extend([1, e as i32]),
            None => p.ints.push(0),
        }
        match m["rackId"].as_str() {
            Some(r) => {
                p.ints.push(1);
                p.string(r);
            }
            None => p.ints.push(0),
        }
        let tags: Vec<(String, String)> = match &m["clientTags"] {
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("tag").to_owned()))
                .collect(),
            Value::Array(list) => list
                .iter()
                .map(|kv| {
                    (
                        kv["key"].as_str().expect("key").to_owned(),
                        kv["value"].as_str().expect("value").to_owned(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        p.ints.push(tags.len() as i32);
        for (k, v) in &tags {
            p.string(k);
            p.string(v);
        }
        for role in ["activeTasks", "standbyTasks", "warmupTasks"] {
            let list = m[role].as_array().cloned().unwrap_or_default();
            p.ints.push(list.len() as i32);
            for t in &list {
                subtopology(&mut p, &t["subtopologyId"]);
                let parts = t["partitions"].as_array().expect("partitions");
                p.ints.push(parts.len() as i32);
                p.ints
                    .extend(parts.iter().map(|x| x.as_i64().expect("partition") as i32));
            }
        }
        for role in ["taskOffsets", "taskEndOffsets"] {
            let list = m[role].as_array().cloned().unwrap_or_default();
            p.ints.push(list.len() as i32);
            for o in &list {
                subtopology(&mut p, &o["subtopologyId"]);
                p.ints
                    .push(o["partition"].as_i64().expect("partition") as i32);
                p.floats.push(o["offset"].as_f64().expect("offset"));
            }
        }
    }
    p
}

/// The result buffer read back as the JSON `assign()` returns (what the JS side builds).
fn unpack_result(buf: &[u32], spec: &Value) -> Value {
    let subs = spec["subtopologies"].as_array().expect("subtopologies");
    let members = spec["members"].as_array().expect("members");
    let mut out = serde_json::Map::new();
    let mut at = 0;
    let mut next = || {
        let v = buf[at];
        at += 1;
        v as usize
    };
    let mut seen = Vec::new();
    while seen.len() < members.len() {
        let m = next();
        let id = members[m]["memberId"].as_str().expect("id").to_owned();
        let mut roles = Vec::new();
        for _ in 0..3 {
            let runs = next();
            let mut list = Vec::new();
            for _ in 0..runs {
                let s = next();
                let n = next();
                let parts: Vec<usize> = (0..n).map(|_| next()).collect();
                list.push(
                    json!({ "subtopologyId": subs[s]["subtopologyId"], "partitions": parts }),
                );
            }
            roles.push(Value::Array(list));
        }
        out.insert(
            id.clone(),
            json!({ "activeTasks": roles[0], "standbyTasks": roles[1], "warmupTasks": roles[2] }),
        );
        seen.push(id);
    }
    assert_eq!(at, buf.len(), "the whole buffer is read");
    // The buffer is in sorted member order: the order of the strict output.
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted);
    json!({ "members": out })
}

/// The fixtures (two with a task of a removed subtopology) and a few more.
fn cases() -> Vec<Value> {
    let all = all_cases();
    assert!(all.len() >= 6);
    all
}

fn numeric_offsets(spec: &mut Value) {
    let Some(members) = spec["members"].as_array_mut() else {
        return;
    };
    for m in members {
        for role in ["taskOffsets", "taskEndOffsets"] {
            let Some(list) = m[role].as_array_mut() else {
                continue;
            };
            for o in list {
                if let Some(n) = o["offset"].as_str().and_then(|t| t.parse::<i64>().ok()) {
                    o["offset"] = json!(n);
                }
            }
        }
    }
}

fn all_cases() -> Vec<Value> {
    let fixtures: Vec<Value> =
        serde_json::from_str(include_str!("fixtures/assign_cases.json")).expect("fixtures");
    // Offsets given as decimal strings are the strict path's (JS hands them over): here
    // they become numbers, which decode to the same spec.
    let mut out: Vec<Value> = fixtures
        .into_iter()
        .map(|mut c| {
            numeric_offsets(&mut c["groupSpec"]);
            json!({ "assignor": c["assignor"], "config": c["config"], "groupSpec": c["groupSpec"] })
        })
        .collect();
    // Non-ASCII ids (UTF-16 lengths differ from UTF-8 ones), unsorted input, every
    // optional field, a stale member, null where it is allowed.
    let spec = json!({
        "groupTopologyEpoch": 3,
        "subtopologies": [
            { "subtopologyId": "zé", "numPartitions": 5, "stateful": true },
            { "subtopologyId": "a😀", "numPartitions": 3 },
            { "subtopologyId": "0", "numPartitions": 0, "stateful": false }
        ],
        "members": [
            { "memberId": "😀-2", "processId": "p-ü", "rackId": "r1", "topologyEpoch": 3,
              "clientTags": { "zone": "ü", "k": "" },
              "activeTasks": [{ "subtopologyId": "zé", "partitions": [4, 1, 1] }],
              "standbyTasks": [{ "subtopologyId": "zé", "partitions": [] }],
              "warmupTasks": null,
              "taskOffsets": [{ "subtopologyId": "zé", "partition": 2, "offset": 10 }],
              "taskEndOffsets": [{ "subtopologyId": "zé", "partition": 2, "offset": 9007199254740991_i64 }] },
            { "memberId": "10", "processId": "p2", "rackId": null, "topologyEpoch": null, "clientTags": null },
            { "memberId": "9", "processId": "p2", "topologyEpoch": 2,
              "activeTasks": [{ "subtopologyId": "a😀", "partitions": [0, 1, 2] }] },
            { "memberId": "", "processId": "", "clientTags": [{ "key": "zone", "value": "x" }] }
        ]
    });
    for name in ["sticky", "highly_available"] {
        out.push(
            json!({ "assignor": name, "config": { "numStandbyReplicas": 1 }, "groupSpec": spec }),
        );
    }
    out
}

#[test]
fn a_packed_spec_decodes_to_the_strict_decoders_group_spec() {
    for case in cases() {
        let spec = &case["groupSpec"];
        let strict: GroupSpec = decode_spec(spec).expect("valid");
        let packed = pack(spec);
        let d = decode(packed.view()).expect("decodes");
        assert_eq!(d.spec, strict, "{spec}");
    }
}

#[test]
fn assign_packed_gives_the_strict_result() {
    for case in cases() {
        let name = case["assignor"].as_str().expect("name");
        let spec = &case["groupSpec"];
        let config = &case["config"];
        let strict: Value = serde_json::from_str(
            &assign_json(name, &spec.to_string(), Some(&config.to_string())).expect("assigns"),
        )
        .expect("JSON");
        let packed = pack(spec);
        let buf = assign_packed(name, Some(config), packed.view()).expect("fast path");
        assert_eq!(unpack_result(&buf, spec), strict, "{name}: {spec}");
    }
}

/// Appends an assignment (JSON, as `assign()` returns it) as `assignmentQuality()`'s
/// fast path does.
fn pack_assignment(p: &mut Packed, spec: &Value, result: &Value) {
    let ids: Vec<&str> = spec["subtopologies"]
        .as_array()
        .expect("subtopologies")
        .iter()
        .map(|s| s["subtopologyId"].as_str().expect("id"))
        .collect();
    let members = result["members"].as_object().expect("members");
    p.ints.push(members.len() as i32);
    for (id, m) in members {
        p.string(id);
        for role in ["activeTasks", "standbyTasks", "warmupTasks"] {
            let list = m[role].as_array().cloned().unwrap_or_default();
            p.ints.push(list.len() as i32);
            for t in &list {
                let sid = t["subtopologyId"].as_str().expect("id");
                match ids.iter().position(|x| *x == sid) {
                    Some(i) => p.ints.push(i as i32),
                    None => {
                        p.ints.push(-1);
                        p.string(sid);
                    }
                }
                let parts = t["partitions"].as_array().expect("partitions");
                p.ints.push(parts.len() as i32);
                p.ints
                    .extend(parts.iter().map(|x| x.as_i64().expect("partition") as i32));
            }
        }
    }
}

#[test]
fn quality_packed_gives_the_strict_figures() {
    for case in cases() {
        let name = case["assignor"].as_str().expect("name");
        let spec = &case["groupSpec"];
        let result: Value = serde_json::from_str(
            &assign_json(name, &spec.to_string(), Some(&case["config"].to_string()))
                .expect("assigns"),
        )
        .expect("JSON");
        let strict_spec = decode_spec(spec).expect("valid");
        let strict_result: streams_rebalance::assignor::GroupAssignment =
            streams_rebalance::protocol::json::decode(&result, "result").expect("valid");
        let expected = quality(&strict_spec, &strict_result);
        let mut p = pack(spec);
        pack_assignment(&mut p, spec, &result);
        assert_eq!(
            quality_packed(None, p.view()),
            Some(expected),
            "{name}: {spec}"
        );
        // With the config: standbysUnfilled too, as the strict path.
        let config = decode_config(Some(&case["config"])).expect("config");
        let with_config = quality_with_config(&strict_spec, &strict_result, Some(&config));
        assert!(with_config.standbys_unfilled.is_some());
        assert_eq!(
            quality_packed(Some(&case["config"]), p.view()),
            Some(with_config),
            "{name}: {spec}"
        );
        // A config the strict decoder rejects is the strict path's.
        assert_eq!(
            quality_packed(Some(&json!({ "numStandbyReplicas": -1 })), p.view()),
            None
        );
        // The assignment of another group: still figures, the strict path's.
        let mut other = result.clone();
        other["members"]["stranger"] =
            json!({ "activeTasks": [{ "subtopologyId": "nope", "partitions": [0] }] });
        let strict_other: streams_rebalance::assignor::GroupAssignment =
            streams_rebalance::protocol::json::decode(&other, "result").expect("valid");
        let mut p = pack(spec);
        pack_assignment(&mut p, spec, &other);
        assert_eq!(
            quality_packed(None, p.view()),
            Some(quality(&strict_spec, &strict_other))
        );
        // A truncated assignment is the strict path's.
        p.ints.pop();
        assert_eq!(quality_packed(None, p.view()), None);
    }
}

#[test]
fn warmup_caught_up_packed_gives_the_strict_answer() {
    let mut spec = minimal();
    // m2 warms a@1 up; m1 owns it. Caught up when m2's lag is within the config's.
    spec["members"][1]["warmupTasks"] = json!([{ "subtopologyId": "a", "partitions": [1] }]);
    spec["members"][1]["taskOffsets"] =
        json!([{ "subtopologyId": "a", "partition": 1, "offset": 90 }]);
    spec["members"][1]["taskEndOffsets"] =
        json!([{ "subtopologyId": "a", "partition": 1, "offset": 100 }]);
    spec["members"][0]["activeTasks"] = json!([{ "subtopologyId": "a", "partitions": [0, 1] }]);
    let strict_spec = decode_spec(&spec).expect("valid");
    let packed = pack(&spec);
    let mut answers = Vec::new();
    for lag in [5, 10, 20] {
        let config = json!({ "acceptableRecoveryLag": lag });
        let strict = warmup_caught_up(
            &strict_spec,
            &AssignmentConfig {
                acceptable_recovery_lag: lag,
                ..AssignmentConfig::default()
            },
        );
        assert_eq!(
            warmup_caught_up_packed(Some(&config), packed.view()),
            Some(strict),
            "lag {lag}"
        );
        answers.push(strict);
    }
    assert!(
        answers.contains(&true) && answers.contains(&false),
        "{answers:?}"
    );
    let bad = json!({ "acceptableRecoveryLag": "x" });
    assert_eq!(warmup_caught_up_packed(Some(&bad), packed.view()), None);
}

#[test]
fn an_unknown_assignor_or_a_bad_config_means_the_strict_path() {
    let case = &cases()[0];
    let packed = pack(&case["groupSpec"]);
    assert!(assign_packed("sticky", None, packed.view()).is_some());
    assert!(assign_packed("nope", None, packed.view()).is_none());
    let bad = json!({ "numStandbyReplicas": -1 });
    assert!(assign_packed("sticky", Some(&bad), packed.view()).is_none());
    let unknown = json!({ "numStandbyReplica": 1 });
    assert!(assign_packed("sticky", Some(&unknown), packed.view()).is_none());
}

#[test]
fn every_truncation_and_every_extension_means_the_strict_path() {
    for case in cases() {
        let p = pack(&case["groupSpec"]);
        for n in 0..p.ints.len() {
            let mut q = p.clone();
            q.ints.truncate(n);
            assert!(decode(q.view()).is_none(), "ints cut at {n}");
        }
        for n in 0..p.floats.len() {
            let mut q = p.clone();
            q.floats.truncate(n);
            assert!(decode(q.view()).is_none(), "floats cut at {n}");
        }
        for (n, _) in p.strings.char_indices() {
            let mut q = p.clone();
            q.strings.truncate(n);
            assert!(decode(q.view()).is_none(), "strings cut at {n}");
        }
        let mut q = p.clone();
        q.ints.push(0);
        assert!(decode(q.view()).is_none(), "an extra int");
        let mut q = p.clone();
        q.floats.push(0.0);
        assert!(decode(q.view()).is_none(), "an extra float");
        let mut q = p.clone();
        q.strings.push('x');
        assert!(decode(q.view()).is_none(), "an extra character");
    }
}

/// A deterministic generator (no unseeded randomness in tests either).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn random_corruption_never_panics_and_never_decodes_a_different_spec_silently() {
    let mut rng = Lcg(7);
    let specials = [
        -1,
        i32::MIN,
        i32::MAX,
        0,
        1,
        2,
        3,
        1 << 20,
        MAX_STRING_BYTES as i32 + 1,
    ];
    for case in cases() {
        let p = pack(&case["groupSpec"]);
        let strict = decode_spec(&case["groupSpec"]).expect("valid");
        for _ in 0..1500 {
            let mut q = p.clone();
            let hits = 1 + rng.next() % 3;
            for _ in 0..hits {
                let i = (rng.next() as usize) % q.ints.len();
                q.ints[i] = if rng.next() % 2 == 0 {
                    specials[(rng.next() as usize) % specials.len()]
                } else {
                    q.ints[i].wrapping_add(rng.next() as i32 % 5 - 2)
                };
            }
            if let Some(d) = decode(q.view()) {
                // A corruption can still be a valid buffer (another partition, another
                // epoch); then it decodes to a spec the encoder handles.
                let a = by_name("sticky")
                    .expect("sticky")
                    .assign(&d.spec, &AssignmentConfig::default());
                assert!(encode(&d, &a).is_some());
                if q.ints == p.ints {
                    assert_eq!(d.spec, strict);
                }
            }
        }
    }
}

fn minimal() -> Value {
    json!({
        "subtopologies": [
            { "subtopologyId": "a", "numPartitions": 2, "stateful": true },
            { "subtopologyId": "b", "numPartitions": 2 }
        ],
        "members": [
            { "memberId": "m1", "processId": "p1",
              "clientTags": [{ "key": "zone", "value": "z1" }, { "key": "rack", "value": "r1" }],
              "taskOffsets": [
                  { "subtopologyId": "a", "partition": 0, "offset": 1 },
                  { "subtopologyId": "a", "partition": 1, "offset": 1 }
              ] },
            { "memberId": "m2", "processId": "p2" }
        ]
    })
}

/// The strict decoder rejects these; the packed decoder must say "strict path".
#[test]
fn what_the_strict_decoder_rejects_decodes_to_none() {
    let base = minimal();
    assert!(decode(pack(&base).view()).is_some());

    let mut s = base.clone();
    s["members"][1]["memberId"] = json!("m1");
    assert!(decode_spec(&s).is_err());
    assert!(decode(pack(&s).view()).is_none(), "duplicate member");

    let mut s = base.clone();
    s["subtopologies"][1]["subtopologyId"] = json!("a");
    assert!(decode_spec(&s).is_err());
    let mut p = pack(&s);
    assert!(decode(p.view()).is_none(), "duplicate subtopology");
    // Packed offsets naming the second "a" by index: still the strict path.
    p.ints[1] = 2;
    assert!(decode(p.view()).is_none());

    let mut s = base.clone();
    s["members"][0]["taskOffsets"][1]["partition"] = json!(0);
    assert!(decode_spec(&s).is_err());
    assert!(decode(pack(&s).view()).is_none(), "duplicate offset");

    let mut s = base.clone();
    s["members"][0]["clientTags"][1]["key"] = json!("zone");
    assert!(decode_spec(&s).is_err());
    assert!(decode(pack(&s).view()).is_none(), "duplicate client tag");

    let mut s = base.clone();
    let half = (MAX_TASKS / 2 + 1) as i64;
    s["subtopologies"][0]["numPartitions"] = json!(half);
    s["subtopologies"][1]["numPartitions"] = json!(half);
    assert!(decode_spec(&s).is_err());
    assert!(decode(pack(&s).view()).is_none(), "more than MAX_TASKS");

    let mut s = base.clone();
    s["members"][1]["processId"] = json!("x".repeat(MAX_STRING_BYTES + 1));
    assert!(decode_spec(&s).is_err());
    assert!(
        decode(pack(&s).view()).is_none(),
        "a string beyond the limit"
    );
    // The limit is in UTF-8 bytes: 2-byte characters reach it at half the length.
    let mut s = base.clone();
    s["members"][1]["processId"] = json!("é".repeat(MAX_STRING_BYTES / 2 + 1));
    assert!(decode_spec(&s).is_err());
    assert!(
        decode(pack(&s).view()).is_none(),
        "a UTF-8 string beyond the limit"
    );
}

#[test]
fn out_of_range_values_in_the_buffer_decode_to_none() {
    let base = pack(&minimal());
    // Layout of `minimal()`: FORMAT, 2, 2, 0, then "a": [4] len, [5] 2, [6] 1.
    let edit = |i: usize, v: i32| {
        let mut q = base.clone();
        q.ints[i] = v;
        decode(q.view())
    };
    assert!(edit(0, FORMAT + 1).is_none(), "another format");
    assert!(edit(1, -1).is_none(), "negative count");
    assert!(edit(1, i32::MAX).is_none(), "a count past the end");
    assert!(edit(2, i32::MAX).is_none(), "a member count past the end");
    assert!(edit(4, 50).is_none(), "a string length past the end");
    assert!(edit(5, -2).is_none(), "negative numPartitions");
    assert!(edit(6, 2).is_none(), "stateful neither 0 nor 1");

    // Offsets: non-integers, NaN, infinities and unsafe integers are the strict path's.
    for bad in [
        0.5,
        f64::NAN,
        f64::INFINITY,
        -f64::INFINITY,
        9_007_199_254_740_992.0,
    ] {
        let mut q = base.clone();
        q.floats[0] = bad;
        assert!(decode(q.view()).is_none(), "offset {bad}");
    }
    let mut q = base.clone();
    q.floats[0] = -9_007_199_254_740_991.0;
    let d = decode(q.view()).expect("a safe integer is fine");
    assert_eq!(
        d.spec.members[0].task_offsets.values().next(),
        Some(&-9_007_199_254_740_991)
    );

    // A subtopology index past the spec's, a negative partition in a task run.
    let mut s = minimal();
    s["members"][1]["activeTasks"] = json!([{ "subtopologyId": "b", "partitions": [1] }]);
    let p = pack(&s);
    let run = p.ints.len() - 2 - 2 - 3; // member 2: ... active runs, sub, count, part, 0, 0, 0, 0
    assert_eq!(&p.ints[run..run + 3], &[1, 1, 1]);
    let mut q = p.clone();
    q.ints[run] = 2;
    assert!(decode(q.view()).is_none(), "subtopology index out of range");
    let mut q = p.clone();
    q.ints[run + 2] = -1;
    assert!(decode(q.view()).is_none(), "negative partition");
    let mut q = p.clone();
    q.ints[run + 1] = 1 << 30;
    assert!(decode(q.view()).is_none(), "a run past the end");
}

#[test]
fn a_string_length_in_utf16_units_splits_between_surrogate_pairs_never() {
    let spec = json!({
        "subtopologies": [{ "subtopologyId": "😀", "numPartitions": 1 }],
        "members": [{ "memberId": "é😀é", "processId": "p" }]
    });
    let p = pack(&spec);
    let d = decode(p.view()).expect("decodes");
    assert_eq!(d.spec.subtopologies[0].id, "😀");
    assert_eq!(d.spec.members[0].member_id, "é😀é");
    // A length that ends inside the pair (1 of its 2 units) cannot be honoured.
    let mut q = p.clone();
    q.ints[4] = 1;
    assert!(decode(q.view()).is_none());
}

#[test]
fn the_encoder_refuses_an_assignment_of_another_group() {
    let spec = minimal();
    let d = decode(pack(&spec).view()).expect("decodes");
    let other = json!({
        "subtopologies": [{ "subtopologyId": "zz", "numPartitions": 1 }],
        "members": [{ "memberId": "m1", "processId": "p" }]
    });
    let a = by_name("sticky").expect("sticky").assign(
        &decode_spec(&other).expect("valid"),
        &AssignmentConfig::default(),
    );
    assert!(encode(&d, &a).is_none(), "unknown subtopology");
    let stranger = json!({
        "subtopologies": [{ "subtopologyId": "a", "numPartitions": 1 }],
        "members": [{ "memberId": "m9", "processId": "p" }]
    });
    let a = by_name("sticky").expect("sticky").assign(
        &decode_spec(&stranger).expect("valid"),
        &AssignmentConfig::default(),
    );
    assert!(encode(&d, &a).is_none(), "unknown member");
}
