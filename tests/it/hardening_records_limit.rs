//! Issue 16 item 6, first bullet: a state the coordinator accepted always writes a
//! `records()` that `fromRecords` reads. The record log's limit follows from the
//! budget (`limits::records_limit`), not from one request's; the coordinator keeps
//! its log within it (byte compaction, the budget counting live records).
#![cfg(not(target_arch = "wasm32"))]

use crate::common::*;
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::compaction::SLACK_BYTES;
use streams_rebalance::coordinator::records::Record;
use streams_rebalance::coordinator::Coordinator;
use streams_rebalance::limits::{records_limit, MAX_INPUT_BYTES};
use streams_rebalance::protocol::json::{decode_str, decode_str_within};
use streams_rebalance::protocol::*;

fn tags(n: usize, bytes: usize, round: usize) -> Vec<KeyValue> {
    (0..n)
        .map(|i| KeyValue {
            key: format!("k{i}"),
            value: format!("{round:06}{}", "v".repeat(bytes - 6)),
        })
        .collect()
}

/// The records as JSON text, after checking that the coordinator counted them exactly.
fn text_of(c: &Coordinator) -> String {
    let text = serde_json::to_string(c.records()).unwrap();
    assert_eq!(c.records_bytes(), text.len() as u64, "bytes counted");
    text
}

fn rebuilt(c: &Coordinator, text: &str) -> Coordinator {
    let max = records_limit(c.config.max_state_bytes);
    let records: Vec<Record> = decode_str_within(text, "records", max).unwrap();
    Coordinator::from_records(c.config.clone(), records).unwrap()
}

/// The issue's reproduction: two joins with 1 000 client tags of 17 KB each make a log
/// of 34 MB, more than one input (32 MiB); the default budget reads it back, a budget
/// of one input refuses it.
#[test]
fn a_log_longer_than_one_input_loads_under_the_default_budget() {
    let mut c = coordinator_with_topic(CoordinatorConfig::default(), "in", 4);
    for id in ["a", "b"] {
        let req = StreamsGroupHeartbeatRequest {
            client_tags: Some(tags(1_000, 17_000, 0)),
            ..join_request("g", id, topology(0, "in"))
        };
        let r = c.heartbeat(&req, &ctx());
        assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    }
    let text = text_of(&c);
    assert!(text.len() > MAX_INPUT_BYTES, "{} bytes", text.len());
    // One input's limit refuses it, the records' limit reads it.
    let e = decode_str::<Vec<Record>>(&text, "records").unwrap_err();
    assert!(e.to_string().contains("bytes of JSON"), "{e}");
    let d = rebuilt(&c, &text);
    assert_eq!(
        serde_json::to_value(d.snapshot()).unwrap(),
        serde_json::to_value(c.snapshot()).unwrap()
    );
    assert_eq!(text_of(&d), text);
    // A log longer than a budget allows was not written under it: refused, with the
    // sizes (a budget below one input reads one input's worth, 32 MiB).
    let small = CoordinatorConfig {
        max_state_bytes: 1 << 20,
        ..Default::default()
    };
    let records: Vec<Record> = decode_str_within(&text, "records", text.len()).unwrap();
    let e = Coordinator::from_records(small, records)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains(&format!("the records are {} bytes of JSON", text.len()))
            && e.contains(&format!("at most {MAX_INPUT_BYTES} are read")),
        "{e}"
    );
}

/// Members rewriting 1 MB of tags on every heartbeat: the replaced records are
/// compacted by bytes, the budget counts the live records, and after every answer the
/// log is within what `fromRecords` reads under the same config; a twin rebuilt at the
/// end answers the next requests as the original.
#[test]
fn the_log_stays_within_what_from_records_reads() {
    let budget = 40 << 20;
    let config = CoordinatorConfig {
        max_state_bytes: budget,
        ..Default::default()
    };
    let limit = records_limit(budget) as u64;
    assert_eq!(limit, budget as u64);
    let mut c = coordinator_with_topic(config, "in", 8);
    let mut clients: Vec<Client> = Vec::new();
    let (mut refused, mut compacted) = (0, false);
    for round in 0..60 {
        // A new member every third round, else the next member rewrites its tags.
        let mut req = if round % 3 == 0 {
            let client = Client::new("g", &format!("m{round}"), topology(0, "in"));
            let req = client.request();
            clients.push(client);
            req
        } else {
            let i = round % clients.len();
            clients[i].request()
        };
        req.client_tags = Some(tags(1_000, 1_000, round));
        let before = c.records_bytes();
        let r = c.heartbeat(&req, &ctx());
        if r.error_code == ErrorCode::GROUP_MAX_SIZE_REACHED.code() {
            refused += 1;
            assert_eq!(c.records_bytes(), before, "a refusal changes nothing");
            if round % 3 == 0 {
                clients.pop();
            }
        } else {
            assert_eq!(r.error_code, 0, "{:?}", r.error_message);
            let i = if round % 3 == 0 {
                clients.len() - 1
            } else {
                round % clients.len()
            };
            clients[i].absorb(&r);
        }
        compacted |= c.records_bytes() < before;
        assert!(
            c.records_bytes() <= limit,
            "round {round}: {}",
            c.records_bytes()
        );
        assert!(
            c.records_bytes() <= 2 * c.live_records_bytes() + SLACK_BYTES + 1_000,
            "round {round}: {} bytes, {} live",
            c.records_bytes(),
            c.live_records_bytes()
        );
    }
    assert!(refused > 0, "the budget never bound");
    assert!(compacted, "the log was never compacted");
    let text = text_of(&c);
    let mut d = rebuilt(&c, &text);
    for client in &mut clients {
        let mut req = client.request();
        req.client_tags = Some(tags(1_000, 1_000, 99));
        let (a, b) = (c.heartbeat(&req, &ctx()), d.heartbeat(&req, &ctx()));
        assert_eq!(a, b);
    }
    assert_eq!(text_of(&d), text_of(&c));
}

/// A budget above the largest (256 MiB) is refused, naming the field: its log would
/// not go through `records()` and `fromRecords` in one wasm instance.
#[test]
fn a_budget_above_the_largest_is_refused() {
    use streams_rebalance::limits::MAX_STATE_BYTES;
    let e =
        decode_str::<CoordinatorConfig>(r#"{"maxStateBytes":1073741824}"#, "config").unwrap_err();
    assert_eq!(e.path(), "maxStateBytes", "{e}");
    assert!(
        e.to_string().contains("is above the maximum 268435456"),
        "{e}"
    );
    let ok = format!(r#"{{"maxStateBytes":{MAX_STATE_BYTES}}}"#);
    let c: CoordinatorConfig = decode_str(&ok, "config").unwrap();
    assert_eq!(records_limit(c.max_state_bytes), MAX_STATE_BYTES as usize);
}
