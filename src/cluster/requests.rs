//! The inputs of the cluster calls (`createTopics`, `deleteTopics`, `createPartitions`,
//! `setAcls`), decoded strictly with field paths, and their per-topic results.

use crate::from_json_struct;
use crate::protocol::json::{mismatch, DecodeError, FromJson, Path};
use crate::protocol::ErrorCode;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Topic configs: a `{ "cleanup.policy": "compact" }` object, or Kafka's list form
/// `[{ name | key, value }]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopicConfigs(pub BTreeMap<String, String>);

impl FromJson for TopicConfigs {
    const EXPECTED: &'static str = "an object of string values or an array of {name, value}";
    const PLURAL: &'static str = "topic config objects";
    fn from_json(v: &Value, path: &Path<'_>) -> Result<Self, DecodeError> {
        let mut out = BTreeMap::new();
        match v {
            Value::Null => {}
            Value::Object(map) => {
                for (k, v) in map {
                    let value = String::from_json(v, &path.key(k))?;
                    out.insert(k.clone(), value);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let p = path.index(i);
                    let Value::Object(m) = item else {
                        return Err(mismatch(item, &p, "a {name, value} object"));
                    };
                    let key_field = if m.contains_key("name") {
                        "name"
                    } else {
                        "key"
                    };
                    let mut f =
                        crate::protocol::json::Fields::new(item, &p, "a {name, value} object")?;
                    let key: String = f.required(key_field)?;
                    let value: String = f.required("value")?;
                    f.finish()?;
                    if out.insert(key.clone(), value).is_some() {
                        return Err(DecodeError::new(
                            &p,
                            format!(
                                "config {:?} is given twice",
                                crate::protocol::json::truncate(&key, 60)
                            ),
                        ));
                    }
                }
            }
            _ => return Err(mismatch(v, path, Self::EXPECTED)),
        }
        Ok(TopicConfigs(out))
    }
}

/// One topic of `createTopics`. -1 partitions or replication factor: the cluster default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatableTopic {
    pub name: String,
    pub num_partitions: i32,
    pub replication_factor: i16,
    pub configs: BTreeMap<String, String>,
}

from_json_struct!(
    CreatableTopic,
    "a {name, numPartitions, replicationFactor?, configs?} object",
    "{name, numPartitions, replicationFactor?, configs?} objects",
    |f| {
        let configs: TopicConfigs = f.or("configs", TopicConfigs::default())?;
        Ok(CreatableTopic {
            name: f.required("name")?,
            num_partitions: f.required("numPartitions")?,
            replication_factor: f.or("replicationFactor", -1)?,
            configs: configs.0,
        })
    }
);

/// One topic of `createPartitions`: `count` is the new total number of partitions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatePartitionsTopic {
    pub name: String,
    pub count: i32,
}

from_json_struct!(
    CreatePartitionsTopic,
    "a {name, count} object",
    "{name, count} objects",
    |f| {
        Ok(CreatePartitionsTopic {
            name: f.required("name")?,
            count: f.required("count")?,
        })
    }
);

/// The answer for one topic of a cluster call: `errorCode` 0 on success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicResult {
    pub name: String,
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
                "invalid createTopics: [0].numPartitions: missing required field",
            ),
            (
                r#"[{"name":"t","numPartitions":"3"}]"#,
                "invalid createTopics: [0].numPartitions: expected an int32, found a string",
            ),
            (
                r#"[{"name":"t","numPartitions":1},{"name":"u","numPartitions":1,"configs":{"a":1}}]"#,
                "invalid createTopics: [1].configs.a: expected a string, found a number",
            ),
            (
                r#"[{"name":"t","numPartitions":1,"configs":[{"name":"a","value":"1"},{"name":"a","value":"2"}]}]"#,
                "invalid createTopics: [0].configs[1]: config \"a\" is given twice",
            ),
            (
                r#"[{"name":"t","numPartitions":1,"replicationFactor":40000}]"#,
                "invalid createTopics: [0].replicationFactor: 40000 is out of range for an int16",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(
                decode_str::<Vec<CreatableTopic>>(input, "createTopics").unwrap_err(),
                expected
            );
        }
    }
}
