//! A record log written before the metadata hash became a canonical tuple (issue 12:
//! tests/fixtures/legacy_records.json, made by tests/fixtures/legacy-records.mjs on the
//! commit before) replays to the same epochs: the same heartbeats get the same answers
//! as from the coordinator that wrote it, a group with no bump due bumps nothing, and
//! the group whose bump was due (a source topic grew) still bumps once.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::{Coordinator, RequestContext};
use streams_rebalance::protocol::json::decode;
use streams_rebalance::protocol::StreamsGroupHeartbeatRequest;

const FIXTURE: &str = include_str!("../fixtures/legacy_records.json");

fn epochs(c: &mut Coordinator, groups: &[&str]) -> Vec<(String, i32, i32)> {
    let ids: Vec<String> = groups.iter().map(|g| (*g).to_owned()).collect();
    c.describe(&ids, &RequestContext::default())
        .groups
        .into_iter()
        .map(|g| (g.group_id, g.group_epoch, g.assignment_epoch))
        .collect()
}

#[test]
fn an_old_record_log_replays_to_the_same_epochs() {
    let f: Value = serde_json::from_str(FIXTURE).expect("fixture is JSON");
    let config: CoordinatorConfig = decode(&f["config"], "config").expect("config");
    let records: Vec<Record> = decode(&f["records"], "records").expect("records");
    let mut c = Coordinator::from_records(config, records).expect("replays");
    let groups = ["orders-app", "clicks-app"];
    let at_log: Vec<(String, i32, i32)> = f["epochsAtLog"]
        .as_array()
        .expect("epochs")
        .iter()
        .map(|g| {
            (
                g["groupId"].as_str().expect("id").to_owned(),
                g["groupEpoch"].as_i64().expect("epoch") as i32,
                g["assignmentEpoch"].as_i64().expect("epoch") as i32,
            )
        })
        .collect();
    assert_eq!(epochs(&mut c, &groups), at_log);

    for (i, step) in f["followUps"].as_array().expect("steps").iter().enumerate() {
        let req: StreamsGroupHeartbeatRequest =
            decode(&step["request"], "heartbeat").expect("request");
        let ctx = RequestContext {
            now_ms: step["nowMs"].as_i64(),
            ..Default::default()
        };
        let got = serde_json::to_value(c.heartbeat(&req, &ctx)).expect("json");
        assert_eq!(got, step["response"], "heartbeat {i} of {}", req.member_id);
    }
    let after: Vec<(String, i32, i32)> = f["groupsAfter"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["groupId"].as_str().expect("id").to_owned(),
                g["groupEpoch"].as_i64().expect("epoch") as i32,
                g["assignmentEpoch"].as_i64().expect("epoch") as i32,
            )
        })
        .collect();
    assert_eq!(epochs(&mut c, &groups), after);
    // orders-app had no bump due (epoch 2 before and after); clicks-app bumped once.
    assert_eq!(after[0].1, at_log[0].1);
    assert_eq!(after[1].1, at_log[1].1 + 1);
}
