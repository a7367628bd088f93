//! Kafka error codes used by streams groups (PROTOCOL.md §1.5), with Kafka's numbers
//! and names.

use serde::{Serialize, Serializer};

macro_rules! error_codes {
    ($($name:ident = $code:literal),* $(,)?) => {
        /// A Kafka error code. `None` (0) is success.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum ErrorCode {
            $($name = $code,)*
        }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name,)*];

            /// Kafka's number for this error.
            pub fn code(self) -> i16 {
                self as i16
            }

            /// Kafka's name for this error, e.g. `FENCED_MEMBER_EPOCH`.
            pub fn name(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => stringify!($name),)*
                }
            }

            pub fn from_code(code: i16) -> Option<ErrorCode> {
                match code {
                    $($code => Some(ErrorCode::$name),)*
                    _ => None,
                }
            }
        }
    };
}

error_codes! {
    UNKNOWN_SERVER_ERROR = -1,
    NONE = 0,
    COORDINATOR_NOT_AVAILABLE = 15,
    NOT_COORDINATOR = 16,
    INVALID_TOPIC_EXCEPTION = 17,
    INVALID_GROUP_ID = 24,
    UNKNOWN_MEMBER_ID = 25,
    TOPIC_AUTHORIZATION_FAILED = 29,
    GROUP_AUTHORIZATION_FAILED = 30,
    CLUSTER_AUTHORIZATION_FAILED = 31,
    TOPIC_ALREADY_EXISTS = 36,
    INVALID_PARTITIONS = 37,
    INVALID_REPLICATION_FACTOR = 38,
    INVALID_CONFIG = 40,
    INVALID_REQUEST = 42,
    POLICY_VIOLATION = 44,
    NON_EMPTY_GROUP = 68,
    GROUP_ID_NOT_FOUND = 69,
    GROUP_MAX_SIZE_REACHED = 81,
    FENCED_INSTANCE_ID = 82,
    FENCED_MEMBER_EPOCH = 110,
    UNRELEASED_INSTANCE_ID = 111,
    STALE_MEMBER_EPOCH = 113,
    STREAMS_INVALID_TOPOLOGY = 130,
    STREAMS_INVALID_TOPOLOGY_EPOCH = 131,
    STREAMS_TOPOLOGY_FENCED = 132,
    UNKNOWN_TOPIC_OR_PARTITION = 3,
    OFFSET_METADATA_TOO_LARGE = 12,
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i16(self.code())
    }
}

/// A protocol error: the code and a human-readable message, answered (not thrown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    pub code: ErrorCode,
    pub message: String,
}

impl ProtocolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
        }
    }

    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_REQUEST, message)
    }
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.code.name(),
            self.code.code(),
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_match_kafka() {
        assert_eq!(ErrorCode::FENCED_MEMBER_EPOCH.code(), 110);
        assert_eq!(ErrorCode::STREAMS_TOPOLOGY_FENCED.code(), 132);
        assert_eq!(
            ErrorCode::from_code(111),
            Some(ErrorCode::UNRELEASED_INSTANCE_ID)
        );
        assert_eq!(
            ErrorCode::GROUP_MAX_SIZE_REACHED.name(),
            "GROUP_MAX_SIZE_REACHED"
        );
        for e in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(e.code()), Some(*e));
        }
    }
}
