//! Every JSON entry point of the JS API, natively: the first byte picks one, the rest
//! is the JSON text. Decoding must never panic; what decodes is fed to the coordinator
//! (a live group of two members), the assignors, fail-over or the simulation, which
//! must never panic either, and a refused heartbeat must change nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use streams_rebalance::assignor::json::{assignor, decode_config, decode_spec};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::invariants;
use streams_rebalance::protocol::json::decode_str;
use streams_rebalance::protocol::*;
use streams_rebalance::sim::scenario::Scenario;
use streams_rebalance::sim::Simulation;

const JOIN: &str = r#"{"groupId":"app","memberId":"MEMBER","memberEpoch":0,"rebalanceTimeoutMs":30000,
"topology":{"epoch":0,"subtopologies":[{"subtopologyId":"0","sourceTopics":["in"],
"stateChangelogTopics":[{"name":"app-s-changelog","partitions":0}]}]},
"activeTasks":[],"standbyTasks":[],"warmupTasks":[],"processId":"PROCESS"}"#;

fn live() -> Coordinator {
    let mut c = Coordinator::new(CoordinatorConfig {
        num_standby_replicas: 1,
        ..Default::default()
    });
    c.create_topics(&[("in".into(), 4)]);
    for (m, p) in [("m1", "p1"), ("m2", "p2")] {
        let text = JOIN.replace("MEMBER", m).replace("PROCESS", p);
        let req: StreamsGroupHeartbeatRequest = decode_str(&text, "heartbeat").expect("valid");
        c.heartbeat(&req, &RequestContext::default());
    }
    c
}

fn state(c: &Coordinator) -> String {
    format!(
        "{}{}",
        serde_json::to_string(&c.snapshot()).unwrap_or_default(),
        serde_json::to_string(&c.records()).unwrap_or_default()
    )
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let v = String::from_utf8_lossy(rest);
    let v = v.as_ref();
    match which % 6 {
        0 => {
            if let Ok(req) = decode_str::<StreamsGroupHeartbeatRequest>(v, "heartbeat") {
                let mut c = live();
                let before = state(&c);
                let prev = c.snapshot();
                let r = c.heartbeat(&req, &RequestContext::default());
                if r.error_code != 0 && r.error_code != ErrorCode::FENCED_MEMBER_EPOCH.code() {
                    assert_eq!(
                        state(&c),
                        before,
                        "a refused heartbeat changed the coordinator"
                    );
                }
                let cur = c.snapshot();
                let broken = invariants::check(Some(&prev), &cur);
                assert!(broken.is_empty(), "{broken:?}");
            }
        }
        1 => {
            if let Ok(records) = decode_str::<Vec<Record>>(v, "records") {
                if let Ok(mut c) = Coordinator::from_records(CoordinatorConfig::default(), records)
                {
                    let _ = c.snapshot();
                    let _ = c.describe(&["app".to_owned()], &RequestContext::default());
                    let _ = c.advance_time(60_000);
                }
            }
        }
        2 => {
            if let Ok(cfg) = decode_str::<CoordinatorConfig>(v, "config") {
                let mut c = Coordinator::new(cfg);
                c.create_topics(&[("in".into(), 4)]);
                let _ = c.advance_time(1);
            }
        }
        3 => {
            if let Ok(spec) = decode_spec(v) {
                for name in ["sticky", "highly_available"] {
                    if let (Ok(a), Ok(cfg)) = (assignor(name), decode_config(None)) {
                        let _ = a.assign(&spec, &cfg);
                    }
                }
            }
        }
        4 => {
            if let Ok(s) = decode_str::<Scenario>(v, "scenario") {
                let mut sim = Simulation::from_scenario(s);
                let _ = sim.step(30_000);
                let _ = sim.snapshot();
            }
        }
        _ => {
            let _ = decode_str::<StreamsGroupDescribeRequest>(v, "describe");
            let _ = decode_str::<ListGroupsRequest>(v, "listGroups");
            let _ = decode_str::<RequestContext>(v, "context");
            let _ = invariants::decode_snapshot(v, "snapshot");
        }
    }
});
