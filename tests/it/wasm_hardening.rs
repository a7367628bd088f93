//! Malformed input through the JavaScript boundary (issue 6; wasm-bindgen-test, run in
//! Node and in headless Chrome by `make test`): more than a thousand malformed inputs in
//! a row at every entry point of the JS API (Coordinator, assign, invariants,
//! Simulation): random text, truncated JSON, wrong types, NaN and Infinity, huge and
//! negative numbers, deep nesting, circular objects, very long strings and lists,
//! duplicate keys, unknown assignor names. Each throws an `Error` saying what was
//! invalid; the coordinator's snapshot and records are exactly as before; nothing
//! traps; and then good requests answer exactly as on a fresh coordinator.
#![cfg(target_arch = "wasm32")]

use streams_rebalance::wasm::assign::{assign, assignment_quality, warmup_caught_up};
use streams_rebalance::wasm::invariants::{check_invariants, check_settled};
use streams_rebalance::wasm::simulation::Simulation;
use streams_rebalance::wasm::Coordinator;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::wasm_support::{js, stringify, thrown};

fn set(v: &JsValue, key: &str, x: &JsValue) {
    js_sys::Reflect::set(v, &JsValue::from_str(key), x).expect("an object");
}

/// xorshift64*: a fixed sequence of "random" choices, the same in every runtime.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const JOIN: &str = r#"{"groupId":"app","memberId":"m1","memberEpoch":0,"rebalanceTimeoutMs":30000,
"topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"],
"stateChangelogTopics":[{"name":"app-store-changelog","partitions":0}]}]},
"activeTasks":[],"standbyTasks":[],"warmupTasks":[],"processId":"p1"}"#;

/// A malformed value of some kind, as a JS object or as JSON text.
fn malformed(r: &mut Rng) -> JsValue {
    match r.below(16) {
        0 => {
            let bytes: Vec<u8> = (0..r.below(40)).map(|_| r.next() as u8).collect();
            JsValue::from_str(&String::from_utf8_lossy(&bytes))
        }
        1 => {
            let cut = 1 + r.below(JOIN.len() - 2);
            JsValue::from_str(&JOIN[..cut])
        }
        2 => JsValue::from_f64(f64::NAN),
        3 => JsValue::from_f64(f64::INFINITY),
        4 => js(r#"{"groupId":"app","memberId":"m1","memberEpoch":1e300}"#),
        5 => {
            let o = js(JOIN);
            set(&o, "memberEpoch", &JsValue::from_f64(f64::NAN));
            o
        }
        6 => JsValue::from_str(&format!("{}1{}", "[".repeat(5000), "]".repeat(5000))),
        7 => {
            let o = js_sys::Object::new();
            set(&o, "self", &o);
            o.into()
        }
        8 => JsValue::from_str(&format!("\"{}\"", "x".repeat(40_000))),
        9 => {
            let list = js_sys::Array::new();
            for i in 0..20_000 {
                list.push(&JsValue::from_f64(-(i as f64)));
            }
            list.into()
        }
        10 => {
            JsValue::from_str(r#"{"groupId":"app","groupId":"app2","memberId":"","memberEpoch":0}"#)
        }
        11 => JsValue::from_bool(true),
        12 => js(r#"[{"name":"t","numPartitions":-5}, {"subtopologyId":"0","partitions":[-1]}]"#),
        13 => js(r#"{"nowMs":"soon","principal":7}"#),
        14 => JsValue::from_str("9223372036854775808"),
        _ => js(r#"{"unknownField":{"deeper":[null,{"x":-1}]}}"#),
    }
}

fn state(c: &Coordinator) -> String {
    let s = c.snapshot().expect("snapshot");
    let r = c.records().expect("records");
    format!("{}\n{}", stringify(&s), stringify(&r))
}

/// A string that `describe` and `deleteTopics` take as one id (not JSON text).
fn bare_id(v: &JsValue) -> bool {
    v.as_string().is_some_and(|s| {
        let head = s.trim_start();
        !(head.starts_with('[') || head.starts_with('{') || head.starts_with('"'))
    })
}

fn must_throw(what: &str, out: Result<JsValue, JsValue>, seen: &mut usize) {
    match out {
        Ok(v) => panic!(
            "{what}: malformed input accepted: {}",
            stringify(&v).chars().take(200).collect::<String>()
        ),
        Err(e) => {
            let m = thrown(e);
            assert!(m.starts_with("invalid "), "{what}: unclear error: {m}");
            *seen += 1;
        }
    }
}

/// A coordinator with a topic and one joined member, built through the JS API.
fn seeded() -> Coordinator {
    let mut c = Coordinator::new(js(r#"{"seed":5,"numStandbyReplicas":1}"#)).expect("coordinator");
    c.create_topics(js(r#"[{"name":"in","numPartitions":4}]"#))
        .expect("topics");
    c.heartbeat(JsValue::from_str(JOIN), JsValue::UNDEFINED)
        .expect("join");
    c
}

#[wasm_bindgen_test]
fn a_thousand_malformed_inputs_then_good_requests_answer_as_on_a_fresh_coordinator() {
    let mut c = seeded();
    let before = state(&c);
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut thrown_count = 0usize;
    let good_ctx = JsValue::UNDEFINED;
    for i in 0..1100 {
        let bad = malformed(&mut r);
        // Inputs in positions where they are always wrong.
        match i % 12 {
            0 => must_throw(
                "heartbeat",
                c.heartbeat(bad, good_ctx.clone()),
                &mut thrown_count,
            ),
            1 => must_throw(
                "heartbeat context",
                c.heartbeat(JsValue::from_str(JOIN), js(r#"{"nowMs":-1}"#)),
                &mut thrown_count,
            ),
            // A bare string is one group id or topic name there, not JSON text.
            2 | 4 if bare_id(&bad) => {
                let out = if i % 12 == 2 {
                    c.describe(bad, good_ctx.clone())
                } else {
                    c.delete_topics(bad)
                };
                assert!(out.is_ok(), "a bare id is accepted");
            }
            2 => must_throw(
                "describe",
                c.describe(bad, good_ctx.clone()),
                &mut thrown_count,
            ),
            3 => must_throw("createTopics", c.create_topics(bad), &mut thrown_count),
            4 => must_throw("deleteTopics", c.delete_topics(bad), &mut thrown_count),
            5 => must_throw(
                "setAcls",
                c.set_acls(bad).map(|_| JsValue::UNDEFINED),
                &mut thrown_count,
            ),
            6 => must_throw("advanceTime", c.advance_time(bad), &mut thrown_count),
            7 => must_throw("listGroups", c.list_groups(bad), &mut thrown_count),
            8 => must_throw(
                "fromRecords",
                Coordinator::from_records(JsValue::UNDEFINED, bad).map(|_| JsValue::NULL),
                &mut thrown_count,
            ),
            9 => must_throw(
                "assign",
                assign(JsValue::from_str("sticky"), bad, JsValue::UNDEFINED),
                &mut thrown_count,
            ),
            10 => must_throw(
                "checkInvariants",
                check_invariants(bad, JsValue::UNDEFINED),
                &mut thrown_count,
            ),
            _ => must_throw(
                "createPartitions",
                c.create_partitions(bad),
                &mut thrown_count,
            ),
        }
    }
    assert!(
        thrown_count >= 1000,
        "only {thrown_count} inputs were refused"
    );
    assert_eq!(state(&c), before, "malformed input changed the coordinator");

    // Good requests answer exactly as on a coordinator that never saw the garbage.
    let mut fresh = seeded();
    let hb = r#"{"groupId":"app","memberId":"m2","memberEpoch":0,"rebalanceTimeoutMs":30000,
        "topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"],
        "stateChangelogTopics":[{"name":"app-store-changelog","partitions":0}]}]},
        "activeTasks":[],"standbyTasks":[],"warmupTasks":[],"processId":"p2"}"#;
    for coordinator in [&mut c, &mut fresh] {
        coordinator
            .advance_time(JsValue::from_f64(1000.0))
            .expect("time");
    }
    let a = c
        .heartbeat(JsValue::from_str(hb), JsValue::UNDEFINED)
        .expect("good");
    let b = fresh
        .heartbeat(JsValue::from_str(hb), JsValue::UNDEFINED)
        .expect("good");
    assert_eq!(stringify(&a), stringify(&b));
    assert!(
        stringify(&a).contains("\"errorCode\":0"),
        "{}",
        stringify(&a)
    );
    assert_eq!(state(&c), state(&fresh));
    let v = check_invariants(c.snapshot().unwrap(), JsValue::UNDEFINED).expect("checks");
    assert_eq!(stringify(&v), "[]");
}

#[wasm_bindgen_test]
fn unknown_assignors_and_bad_configs_throw() {
    let e = Coordinator::new(js(r#"{"assignor":"round_robin"}"#))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        thrown(e),
        "invalid config: assignor: unknown assignor \"round_robin\"; known: sticky, highly_available"
    );
    let e = assign(
        JsValue::from_str("nope"),
        js(r#"{"subtopologies":[],"members":[]}"#),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert!(thrown(e).starts_with("invalid assignorName: unknown assignor \"nope\""));
    let e = Coordinator::new(js(r#"{"sessionTimeoutMs":-5}"#))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        thrown(e),
        "invalid config: sessionTimeoutMs: -5 is below the minimum 1"
    );
    let spec = js(
        r#"{"subtopologies":[{"subtopologyId":"0","numPartitions":-3,"stateful":false}],"members":[]}"#,
    );
    assert!(assign(
        JsValue::from_str("sticky"),
        spec.clone(),
        JsValue::UNDEFINED
    )
    .is_err());
    assert!(assignment_quality(spec.clone(), js(r#"{"members":{}}"#), JsValue::UNDEFINED).is_err());
    let fine = js(r#"{"subtopologies":[],"members":[]}"#);
    let e = assignment_quality(
        fine,
        js(r#"{"members":{}}"#),
        js(r#"{"numStandbyReplicas":-1}"#),
    )
    .unwrap_err();
    assert!(thrown(e).contains("numStandbyReplicas"));
    assert!(warmup_caught_up(spec, JsValue::UNDEFINED).is_err());
    let e = check_settled(js(r#"{"groups":[{"groupId":"g"}]}"#)).unwrap_err();
    assert_eq!(
        thrown(e),
        "invalid snapshot: groups[0].groupType: missing field `groupType`"
    );
}

#[wasm_bindgen_test]
fn a_simulation_survives_malformed_scenarios_and_actions() {
    let mut r = Rng(42);
    let mut refused = 0usize;
    for _ in 0..200 {
        let bad = malformed(&mut r);
        if Simulation::from_scenario(bad.clone()).is_err() {
            refused += 1;
        }
        assert!(Simulation::check_scenario(bad.clone()).is_err());
        assert!(Simulation::new(bad).is_err());
    }
    assert_eq!(refused, 200);
    let mut sim = Simulation::from_scenario(JsValue::from_str(include_str!(
        "../../www/presets/scale-out.json"
    )))
    .expect("sim");
    sim.step(1000.0).expect("steps");
    let id = "A".to_owned();
    let before = stringify(&sim.snapshot().unwrap());
    for _ in 0..300 {
        let bad = malformed(&mut r);
        assert!(sim.add_process(bad.clone()).is_err());
        assert!(sim.stop_process("no-such-process".into()).is_err());
        assert!(sim.restart_process(id.clone(), js("[1,2]")).is_err());
        assert!(sim.step(f64::NAN).is_err());
        assert!(sim.run_until_stable(f64::INFINITY).is_err());
        assert!(sim.set_standby_replicas(-1.0).is_err());
        assert!(sim.set_assignor("nope".into()).is_err());
        assert!(sim.send_heartbeat(bad).is_err());
    }
    assert_eq!(stringify(&sim.snapshot().unwrap()), before);
    let events = sim.run_until_stable(120_000.0).expect("runs");
    assert!(js_sys::Array::from(&events).length() > 0);
    assert!(sim.is_stable(), "the simulation still reaches Stable");
    let v = check_invariants(sim.snapshot().unwrap(), JsValue::UNDEFINED).expect("checks");
    assert_eq!(stringify(&v), "[]");
}
