//! `TaskList` (the flat task list of `assign()`'s specs) accepts exactly what
//! `Vec<TaskIds>` read through the `list` helper accepts, with the same values and the
//! same errors (message and path), input by input: a table of hand-picked inputs and
//! random JSON values shaped like task lists.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{json, Value};
use streams_rebalance::protocol::json::{decode_str, list, Validate};
use streams_rebalance::protocol::{TaskIds, TaskList};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Old {
    #[serde(default, deserialize_with = "list")]
    active_tasks: Vec<TaskIds>,
}
impl Validate for Old {}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct New {
    #[serde(default)]
    active_tasks: TaskList,
}
impl Validate for New {}

/// A decode's entries, or its error's text.
type Outcome = Result<Vec<(String, Vec<i32>)>, String>;

/// Both decodes of `{ "activeTasks": <value> }` (or of `text` as it is).
fn both(text: &str) -> (Outcome, Outcome) {
    let old = decode_str::<Old>(text, "probe")
        .map(|o| {
            o.active_tasks
                .into_iter()
                .map(|t| (t.subtopology_id, t.partitions))
                .collect()
        })
        .map_err(|e| e.to_string());
    let new = decode_str::<New>(text, "probe")
        .map(|n| {
            n.active_tasks
                .iter()
                .map(|(s, ps)| (s.to_owned(), ps.to_vec()))
                .collect()
        })
        .map_err(|e| e.to_string());
    (old, new)
}

fn check(text: &str) {
    let (old, new) = both(text);
    assert_eq!(old, new, "input {text}");
}

#[test]
fn a_table_of_inputs_decodes_alike() {
    let cases = [
        r#"{}"#,
        r#"{"activeTasks":null}"#,
        r#"{"activeTasks":[]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[0,1,2]}]}"#,
        r#"{"activeTasks":[{"partitions":[3],"subtopologyId":"b"},{"subtopologyId":"a","partitions":[]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1]},{"subtopologyId":"0","partitions":[1]}]}"#,
        r#"{"activeTasks":[["0",[1,2]]]}"#,
        r#"{"activeTasks":[["0"]]}"#,
        r#"{"activeTasks":[[]]}"#,
        r#"{"activeTasks":[["0",[1],3]]}"#,
        r#"{"activeTasks":5}"#,
        r#"{"activeTasks":"x"}"#,
        r#"{"activeTasks":{}}"#,
        r#"{"activeTasks":[5]}"#,
        r#"{"activeTasks":[null]}"#,
        r#"{"activeTasks":[{}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0"}]}"#,
        r#"{"activeTasks":[{"partitions":[]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1],"x":1}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","subtopologyId":"1","partitions":[1]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1],"partitions":[2]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":0,"partitions":[1]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":null,"partitions":[1]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":null}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":1}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[-1]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[2147483648]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1.5]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":["1"]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[null]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"\u00e9\n\"","partitions":[7]}]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1]},]}"#,
        r#"{"activeTasks":[{"subtopologyId":"0","partitions":[1]}"#,
        r#"{"activeTasks":[],"other":1}"#,
    ];
    for c in cases {
        check(c);
    }
    let long = format!(
        r#"{{"activeTasks":[{{"subtopologyId":"{}","partitions":[1]}}]}}"#,
        "x".repeat(40_000)
    );
    check(&long);
}

#[test]
fn serializing_gives_the_protocol_form_back() {
    let text = r#"{"activeTasks":[{"subtopologyId":"b","partitions":[2,1]},{"subtopologyId":"a","partitions":[]}]}"#;
    let n = decode_str::<New>(text, "probe").unwrap();
    assert_eq!(
        serde_json::to_value(&n.active_tasks).unwrap(),
        json!([{"subtopologyId":"b","partitions":[2,1]},{"subtopologyId":"a","partitions":[]}])
    );
}

/// JSON values shaped like a task list, with every kind of mistake mixed in.
fn value() -> impl Strategy<Value = Value> {
    let partition = prop_oneof![
        8 => (0i64..5).prop_map(Value::from),
        1 => Just(json!(-1)),
        1 => Just(json!(2_147_483_648i64)),
        1 => Just(json!(1.5)),
        1 => Just(json!("1")),
        1 => Just(Value::Null),
    ];
    let partitions = prop_oneof![
        8 => prop::collection::vec(partition, 0..4).prop_map(Value::Array),
        1 => Just(Value::Null),
        1 => Just(json!(3)),
    ];
    let id = prop_oneof![
        8 => "[a-c]{1,2}".prop_map(Value::from),
        1 => Just(json!(0)),
        1 => Just(Value::Null),
    ];
    let key = prop_oneof![
        Just("subtopologyId".to_owned()),
        Just("partitions".to_owned()),
        Just("x".to_owned())
    ];
    let entry = prop_oneof![
        8 => (id.clone(), partitions.clone())
            .prop_map(|(i, p)| json!({"subtopologyId": i, "partitions": p})),
        2 => (id.clone(), partitions.clone(), any::<bool>()).prop_map(|(i, p, flip)| {
            if flip { json!({"partitions": p, "subtopologyId": i}) } else { json!([i, p]) }
        }),
        2 => prop::collection::vec((key, partitions), 0..3).prop_map(|kv| {
            Value::Object(kv.into_iter().collect())
        }),
        1 => Just(Value::Null),
        1 => Just(json!(7)),
    ];
    prop_oneof![
        10 => prop::collection::vec(entry, 0..5).prop_map(Value::Array),
        1 => Just(Value::Null),
        1 => Just(json!({})),
        1 => Just(json!("x")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn random_task_lists_decode_alike(v in value()) {
        let text = json!({ "activeTasks": v }).to_string();
        let (old, new) = both(&text);
        prop_assert_eq!(old, new, "input {}", text);
    }
}
