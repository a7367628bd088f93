//! The protocol's messages, error codes and status codes, in Kafka's JSON names.
//! Pure data: no JavaScript types here.

pub mod common;
pub mod consumer;
pub mod describe;
pub mod errors;
pub mod heartbeat;
pub mod json;
pub mod offsets;
pub mod status;
pub mod task_list;

pub use common::*;
pub use consumer::*;
pub use describe::*;
pub use errors::{ErrorCode, ProtocolError};
pub use heartbeat::*;
pub use offsets::*;
pub use status::StatusCode;
pub use task_list::TaskList;

/// Messages and structures without cross-field rules.
macro_rules! no_rules {
    ($($t:ty),* $(,)?) => { $(impl json::Validate for $t {})* };
}

no_rules!(
    KeyValue,
    Endpoint,
    TaskIds,
    TaskOffset,
    TopicInfo,
    CopartitionGroup,
    Subtopology,
    Status,
    TopicPartitions,
    EndpointToPartitions,
    DescribedGroup,
    DescribedTopology,
    DescribedSubtopology,
    DescribedMember,
    Assignment,
    ListedGroup,
    ConsumerGroupAssignment,
);
