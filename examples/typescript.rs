//! Writes the TypeScript declarations of the package's data types, derived from the
//! Rust types (ts-rs), to stdout. scripts/build-wasm.sh puts them into pkg/index.d.ts
//! ahead of the declarations it cannot derive (pkg/types/api.d.ts: the classes and
//! functions, and the types of hand-built outputs).
//!   cargo run --example typescript > types.d.ts
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a developer tool stops loudly on a bad input"
)]

use streams_rebalance::assignor::json::{
    AssignmentJsonIn, GroupSpecJson, MemberAssignmentJsonIn, MemberJson, SubtopologyJson,
};
use streams_rebalance::assignor::quality::{Landed, MeanMax, MinMeanMax, Quality, Spread};
use streams_rebalance::cluster::{
    Acl, CreatableTopic, CreatePartitionsTopic, Operation, ResourceType, TopicResult,
};
use streams_rebalance::config::CoordinatorConfig;
use streams_rebalance::coordinator::group_config::GroupConfigUpdate;
use streams_rebalance::coordinator::group_settings::{
    GroupConfigChange, GroupConfigResult, GroupSettings,
};
use streams_rebalance::coordinator::kafka_records::{
    history, parse, ClusterInput, InferredTopic, LoadOptions, LoadReport,
};
use streams_rebalance::coordinator::records::*;
use streams_rebalance::coordinator::snapshot::*;
use streams_rebalance::coordinator::{events, RequestContext};
use streams_rebalance::invariants::Violation;
use streams_rebalance::protocol::*;
use streams_rebalance::sim::scenario::*;
use streams_rebalance::sim::{event, process::ProcessState, snapshot as sim};
use ts_rs::{Config, TS};

fn decl<T: TS>(cfg: &Config) -> String {
    format!("export {}\n\n", T::decl(cfg))
}

fn main() {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types by `cargo run --example typescript`: do not edit.\n\n",
    );
    macro_rules! decls {
        ($($t:ty),* $(,)?) => { $( out.push_str(&decl::<$t>(&cfg)); )* };
    }
    decls!(
        Spread<u32>,
        MeanMax,
        MinMeanMax,
        Landed,
        Quality,
        KeyValue,
        Endpoint,
        TaskIds,
        TaskOffset,
        TopicInfo,
        CopartitionGroup,
        Subtopology,
        Topology,
        Status,
        TopicPartitions,
        EndpointToPartitions,
        StreamsGroupHeartbeatRequest,
        StreamsGroupHeartbeatResponse,
        StreamsGroupDescribeRequest,
        StreamsGroupDescribeResponse,
        DescribedGroup,
        DescribedTopology,
        DescribedSubtopology,
        Assignment,
        DescribedMember,
        ListGroupsRequest,
        ListGroupsResponse,
        ListedGroup,
        DeleteGroupsRequest,
        DeleteGroupsResponse,
        DeletableGroupResult,
        ConsumerGroupHeartbeatRequest,
        ConsumerGroupHeartbeatResponse,
        ConsumerGroupAssignment,
        OffsetCommitRequest,
        OffsetCommitTopic,
        OffsetCommitPartition,
        OffsetCommitResponse,
        OffsetCommitResponseTopic,
        OffsetCommitResponsePartition,
        OffsetFetchRequest,
        OffsetFetchTopic,
        OffsetFetchResponse,
        OffsetFetchResponseTopic,
        OffsetFetchResponsePartition,
        CoordinatorConfig,
        RequestContext,
        GroupConfigUpdate,
        GroupConfigValue,
        GroupConfigChange,
        GroupSettings,
        GroupConfigResult,
        events::Kind,
        events::Event,
        CreatableTopic,
        CreatePartitionsTopic,
        TopicResult,
        Acl,
        ResourceType,
        Operation,
        RecordKey,
        RecordValue,
        Record,
        GroupMetadataValue,
        TopologyValue,
        MemberMetadataValue,
        TargetAssignmentMetadataValue,
        TargetAssignmentMemberValue,
        CurrentMemberAssignmentValue,
        AssignmentEpochTasks,
        MemberRuntimeValue,
        MemberTimersValue,
        PendingCreationValue,
        TopicCreationValue,
        ConsumerGroupMetadataValue,
        ConsumerGroupMemberValue,
        OffsetCommitValue,
        TopicValue,
        AclValue,
        AclsValue,
        ClockValue,
        MemberIdGeneratorValue,
        PendingEventsValue,
        PendingEventValue,
        StreamsGroupConfigValue,
        TasksSnapshot,
        MemberSnapshot,
        SubtopologySnapshot,
        ConfiguredSnapshot,
        CreationSnapshot,
        GroupSnapshot,
        ConsumerMemberSnapshot,
        TopicSnapshot,
        Snapshot,
        Violation,
        GroupSpecJson,
        SubtopologyJson,
        MemberJson,
        AssignmentJsonIn,
        MemberAssignmentJsonIn,
        ClientConfig,
        ProcessSpec,
        RestartChanges,
        NewTopic,
        Narration,
        Action,
        TimedAction,
        Scenario,
        event::SimKind,
        event::Kind,
        event::Event,
        sim::TaskLists,
        sim::ErrorView,
        sim::MemberView,
        sim::RestoreView,
        sim::ProcessView,
        ProcessState,
        sim::SimSnapshot,
        LoadOptions,
        ClusterInput,
        InferredTopic,
        parse::Format,
        parse::Skipped,
        LoadReport,
        history::StepRecord,
        history::GroupChange,
        history::Step,
    );
    print!("{out}");
}
