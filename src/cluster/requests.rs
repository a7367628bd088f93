//! The inputs of the cluster calls (`createTopics`, `deleteTopics`, `createPartitions`,
//! `setAcls`), decoded strictly with field paths, and their per-topic results.

use crate::protocol::json::{truncate, UniqueMap, Validate};
use crate::protocol::ErrorCode;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use ts_rs::TS;

/// Topic configs: a `{ "cleanup.policy": "compact" }` object, or Kafka's list form
/// `[{ name | key, value }]`; null is none.
fn topic_configs<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = BTreeMap<String, String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of string values or an array of {name, value}")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(BTreeMap::new())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(BTreeMap::new())
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            UniqueMap::<String>(PhantomData).visit_map(map)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(ConfigEntry { name, value }) = seq.next_element()? {
                if out.contains_key(&name) {
                    return Err(de::Error::custom(format_args!(
                        "config {:?} is given twice",
                        truncate(&name, 60)
                    )));
                }
                out.insert(name, value);
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}

/// One config of the list form: `name` (Kafka's) or `key`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigEntry {
    #[serde(alias = "key")]
    name: String,
    value: String,
}

/// One topic of `createTopics`. -1 partitions or replication factor: the cluster default.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "NewTopic")]
pub struct CreatableTopic {
    pub name: String,
    pub num_partitions: i32,
    /// int16; -1 (the default) = the cluster's default.
    #[serde(default = "minus_one")]
    #[ts(optional = nullable)]
    pub replication_factor: i16,
    /// `{ key: value }` or `[{ key, value }]`.
    #[serde(default, deserialize_with = "topic_configs")]
    #[ts(optional = nullable)]
    pub configs: BTreeMap<String, String>,
}

fn minus_one() -> i16 {
    -1
}

impl Validate for CreatableTopic {
    fn validate(&self) -> Result<(), crate::protocol::json::Invalid> {
        match crate::limits::list_excess("configs", self.configs.len(), crate::limits::MAX_TAGS) {
            Some(m) => Err(crate::protocol::json::Invalid::new("configs", m)),
            None => Ok(()),
        }
    }
}

/// One topic of `createPartitions`: `count` is the new total number of partitions
/// (never fewer than now).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields = nullable)]
#[ts(rename = "NewPartitions")]
pub struct CreatePartitionsTopic {
    pub name: String,
    pub count: i32,
}

impl Validate for CreatePartitionsTopic {}

/// The answer for one topic of a cluster call: `errorCode` 0 on success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TopicResult {
    pub name: String,
    /// 0, or Kafka's error (TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, UNKNOWN_TOPIC_OR_PARTITION, ...).
    #[ts(type = "number")]
    pub error_code: ErrorCode,
    pub error_message: Option<String>,
}

impl TopicResult {
    pub fn ok(name: &str) -> Self {
        TopicResult {
            name: name.to_owned(),
            error_code: ErrorCode::NONE,
            error_message: None,
        }
    }

    pub fn error(name: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        TopicResult {
            name: name.to_owned(),
            error_code: code,
            error_message: Some(message.into()),
        }
    }

    pub fn is_ok(&self) -> bool {
        self.error_code == ErrorCode::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::json::decode_str;

    #[test]
    fn creatable_topic_forms() {
        let t: CreatableTopic = decode_str(
            r#"{"name":"t","numPartitions":3,"configs":{"cleanup.policy":"compact"}}"#,
            "createTopics",
        )
        .unwrap();
        assert_eq!(t.replication_factor, -1);
        assert_eq!(
            t.configs.get("cleanup.policy").map(String::as_str),
            Some("compact")
        );
        let t: CreatableTopic = decode_str(
            r#"{"name":"t","numPartitions":3,"replicationFactor":2,"configs":[{"name":"a","value":"1"},{"key":"b","value":"2"}]}"#,
            "createTopics",
        )
        .unwrap();
        assert_eq!(t.replication_factor, 2);
        assert_eq!(t.configs.len(), 2);
    }

    #[test]
    fn creatable_topic_errors_name_the_field() {
        let cases = [
            (
                r#"[{"name":"t"}]"#,
                "invalid createTopics: [0].numPartitions: missing field `numPartitions`",
            ),
            (
                r#"[{"name":"t","numPartitions":"3"}]"#,
                "invalid createTopics: [0].numPartitions: invalid type: string \"3\", expected i32",
            ),
            (
                r#"[{"name":"t","numPartitions":1},{"name":"u","numPartitions":1,"configs":{"a":1}}]"#,
                "invalid createTopics: [1].configs.a: invalid type: integer `1`, expected a string",
            ),
            (
                r#"[{"name":"t","numPartitions":1,"configs":[{"name":"a","value":"1"},{"name":"a","value":"2"}]}]"#,
                "invalid createTopics: [0].configs: config \"a\" is given twice",
            ),
            (
                r#"[{"name":"t","numPartitions":1,"replicationFactor":40000}]"#,
                "invalid createTopics: [0].replicationFactor: invalid value: integer `40000`, expected i16",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(
                decode_str::<Vec<CreatableTopic>>(input, "createTopics")
                    .unwrap_err()
                    .to_string(),
                expected
            );
        }
    }
}
