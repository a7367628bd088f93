//! Kafka's topic-name rules.

/// Kafka topics a topology may not use.
pub const RESERVED_TOPICS: &[&str] = &[
    "__consumer_offsets",
    "__transaction_state",
    "__share_group_state",
];

pub const MAX_TOPIC_NAME_LENGTH: usize = 249;

/// 1 to 249 characters of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn validate_topic_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("Topic name is illegal, it can't be empty".to_owned());
    }
    if name == "." || name == ".." {
        return Err("Topic name cannot be \".\" or \"..\"".to_owned());
    }
    if name.len() > MAX_TOPIC_NAME_LENGTH {
        return Err(format!(
            "Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME_LENGTH} characters, topic name: {}",
            crate::protocol::json::truncate(name, 60)
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
    {
        return Err(format!(
            "Topic name \"{}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
            crate::protocol::json::truncate(name, 60)
        ));
    }
    Ok(())
}
