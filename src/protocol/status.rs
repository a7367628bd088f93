//! Heartbeat status codes, in revision 58's numbering (PROTOCOL.md §1.3).

use serde::{Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum StatusCode {
    STALE_TOPOLOGY = 0,
    MISSING_SOURCE_TOPICS = 1,
    INCONSISTENT_SOURCE_TOPICS = 2,
    INCONSISTENT_INTERNAL_TOPICS = 3,
    MISSING_INTERNAL_TOPICS = 4,
    SHUTDOWN_APPLICATION = 5,
    /// Not in revision 58: the next free code after its 0-5 (Kafka 4.2+ numbers it 5).
    ASSIGNMENT_DELAYED = 6,
}

impl StatusCode {
    pub const ALL: [StatusCode; 7] = [
        StatusCode::STALE_TOPOLOGY,
        StatusCode::MISSING_SOURCE_TOPICS,
        StatusCode::INCONSISTENT_SOURCE_TOPICS,
        StatusCode::INCONSISTENT_INTERNAL_TOPICS,
        StatusCode::MISSING_INTERNAL_TOPICS,
        StatusCode::SHUTDOWN_APPLICATION,
        StatusCode::ASSIGNMENT_DELAYED,
    ];

    pub fn code(self) -> i8 {
        self as i8
    }

    pub fn name(self) -> &'static str {
        match self {
            StatusCode::STALE_TOPOLOGY => "STALE_TOPOLOGY",
            StatusCode::MISSING_SOURCE_TOPICS => "MISSING_SOURCE_TOPICS",
            StatusCode::INCONSISTENT_SOURCE_TOPICS => "INCONSISTENT_SOURCE_TOPICS",
            StatusCode::INCONSISTENT_INTERNAL_TOPICS => "INCONSISTENT_INTERNAL_TOPICS",
            StatusCode::MISSING_INTERNAL_TOPICS => "MISSING_INTERNAL_TOPICS",
            StatusCode::SHUTDOWN_APPLICATION => "SHUTDOWN_APPLICATION",
            StatusCode::ASSIGNMENT_DELAYED => "ASSIGNMENT_DELAYED",
        }
    }

    pub fn from_code(code: i8) -> Option<StatusCode> {
        StatusCode::ALL.iter().copied().find(|s| s.code() == code)
    }

    /// Statuses 1 to 4 make a group NotReady (PROTOCOL.md §5.6).
    pub fn blocks_assignment(self) -> bool {
        matches!(
            self,
            StatusCode::MISSING_SOURCE_TOPICS
                | StatusCode::INCONSISTENT_SOURCE_TOPICS
                | StatusCode::INCONSISTENT_INTERNAL_TOPICS
                | StatusCode::MISSING_INTERNAL_TOPICS
        )
    }
}

impl Serialize for StatusCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i8(self.code())
    }
}
