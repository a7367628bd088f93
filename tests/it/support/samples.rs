// Rich sample values of every message type, shared by tests/it/messages.rs (native) and
// tests/it/wasm_messages.rs (wasm), each of which `include!`s this file into a module.
// Every optional field is set, lists have several elements, numbers sit at the edges
// of their Kafka types, strings hold non-ASCII text.

#[allow(unused_imports)]
use streams_rebalance::protocol::*;

pub fn tasks(id: &str, partitions: &[i32]) -> TaskIds {
    TaskIds {
        subtopology_id: id.to_owned(),
        partitions: partitions.to_vec(),
    }
}

pub fn offset(id: &str, partition: i32, offset: i64) -> TaskOffset {
    TaskOffset {
        subtopology_id: id.to_owned(),
        partition,
        offset,
    }
}

pub fn kv(key: &str, value: &str) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: value.to_owned(),
    }
}

pub fn topology() -> Topology {
    Topology {
        epoch: i32::MAX,
        subtopologies: vec![
            Subtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["orders".into(), "customers".into()],
                source_topic_regex: vec!["events-.*".into()],
                state_changelog_topics: vec![TopicInfo {
                    name: "app-store-changelog".into(),
                    partitions: 0,
                    replication_factor: i16::MAX,
                    topic_configs: vec![kv("cleanup.policy", "compact"), kv("min.insync.replicas", "2")],
                }],
                repartition_sink_topics: vec!["app-repartition".into()],
                repartition_source_topics: vec![],
                copartition_groups: vec![CopartitionGroup {
                    source_topics: vec![0, 1],
                    source_topic_regex: vec![0],
                    repartition_source_topics: vec![],
                }],
            },
            Subtopology {
                subtopology_id: "1-ü".into(),
                source_topics: vec![],
                source_topic_regex: vec![],
                state_changelog_topics: vec![],
                repartition_sink_topics: vec![],
                repartition_source_topics: vec![TopicInfo {
                    name: "app-repartition".into(),
                    partitions: i32::MAX,
                    replication_factor: 0,
                    topic_configs: vec![],
                }],
                copartition_groups: vec![CopartitionGroup {
                    source_topics: vec![],
                    source_topic_regex: vec![],
                    repartition_source_topics: vec![0, i16::MAX],
                }],
            },
        ],
    }
}

pub fn heartbeat_request() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: "app \"quoted\" \\ ✓".into(),
        member_id: "member-1".into(),
        member_epoch: i32::MAX,
        instance_id: Some("instance-1".into()),
        rack_id: Some("rack-a".into()),
        rebalance_timeout_ms: 30_000,
        topology: Some(topology()),
        active_tasks: Some(vec![tasks("0", &[0, 2, i32::MAX]), tasks("1-ü", &[])].into()),
        standby_tasks: Some(vec![tasks("0", &[1])].into()),
        warmup_tasks: Some(vec![tasks("1-ü", &[3, 4])].into()),
        process_id: Some("process-1".into()),
        user_endpoint: Some(Endpoint {
            host: "streams-1.example".into(),
            port: u16::MAX,
        }),
        client_tags: Some(vec![kv("zone", "eu-1a"), kv("cluster", "k8s")]),
        task_offsets: Some(vec![
            offset("0", 0, 0),
            offset("0", 1, (1 << 53) - 1),
            offset("0", 2, 1 << 53),
            offset("1-ü", 3, i64::MAX),
        ]),
        task_end_offsets: Some(vec![offset("0", 0, i64::MIN), offset("0", 1, -1)]),
        shutdown_application: true,
        ..Default::default()
    }
}

/// A join as a client sends it: epoch 0, empty owned lists, a topology.
pub fn join_request() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: "app".into(),
        member_id: String::new(),
        member_epoch: 0,
        rebalance_timeout_ms: 1,
        topology: Some(topology()),
        active_tasks: Some(vec![].into()),
        standby_tasks: Some(vec![].into()),
        warmup_tasks: Some(vec![].into()),
        ..Default::default()
    }
}

pub fn heartbeat_response() -> StreamsGroupHeartbeatResponse {
    StreamsGroupHeartbeatResponse {
        throttle_time_ms: 0,
        error_code: 0,
        error_message: Some("all fine ✓".into()),
        member_id: Some("member-1".into()),
        member_epoch: 12,
        heartbeat_interval_ms: 5000,
        acceptable_recovery_lag: (1 << 53) + 1,
        task_offset_interval_ms: 60_000,
        status: Some(vec![
            Status {
                status_code: StatusCode::STALE_TOPOLOGY.code(),
                status_detail: "The member's topology epoch 0 is below the group's 1.".into(),
            },
            Status {
                status_code: StatusCode::SHUTDOWN_APPLICATION.code(),
                status_detail: String::new(),
            },
        ]),
        active_tasks: Some(vec![tasks("0", &[0, 1])]),
        standby_tasks: Some(vec![]),
        warmup_tasks: Some(vec![tasks("1-ü", &[2])]),
        partitions_by_user_endpoint: Some(vec![EndpointToPartitions {
            user_endpoint: Endpoint {
                host: "h".into(),
                port: 0,
            },
            partitions: vec![
                TopicPartitions {
                    topic: "orders".into(),
                    partitions: vec![0, 1],
                },
                TopicPartitions {
                    topic: "customers".into(),
                    partitions: vec![],
                },
            ],
        }]),
        ..Default::default()
    }
}

pub fn describe_request() -> StreamsGroupDescribeRequest {
    StreamsGroupDescribeRequest {
        group_ids: vec!["app".into(), "other".into(), String::new()],
        include_authorized_operations: true,
        ..Default::default()
    }
}

pub fn describe_response() -> StreamsGroupDescribeResponse {
    let member = DescribedMember {
        member_id: "member-1".into(),
        member_epoch: 3,
        member_state: "UnrevokedTasks".into(),
        instance_id: Some("instance-1".into()),
        rack_id: Some("rack-a".into()),
        client_id: "client-1".into(),
        client_host: "/127.0.0.1".into(),
        topology_epoch: 1,
        process_id: "process-1".into(),
        user_endpoint: Some(Endpoint {
            host: "h".into(),
            port: 8080,
        }),
        client_tags: vec![kv("zone", "a")],
        task_offsets: vec![offset("0", 0, 10), offset("0", 1, i64::MAX)],
        task_end_offsets: vec![offset("0", 0, 20)],
        assignment: Assignment {
            active_tasks: vec![tasks("0", &[0])],
            standby_tasks: vec![tasks("0", &[1])],
            warmup_tasks: vec![],
        },
        target_assignment: Assignment {
            active_tasks: vec![tasks("0", &[0, 1])],
            standby_tasks: vec![],
            warmup_tasks: vec![tasks("1-ü", &[0])],
        },
        is_classic: false,
    };
    let mut static_member = member.clone();
    static_member.member_id = "member-2".into();
    static_member.instance_id = None;
    static_member.rack_id = None;
    static_member.user_endpoint = None;
    static_member.member_state = "Stable".into();
    StreamsGroupDescribeResponse {
        throttle_time_ms: 0,
        groups: vec![
            DescribedGroup {
                error_code: 0,
                error_message: None,
                group_id: "app".into(),
                group_state: "Reconciling".into(),
                group_epoch: 4,
                assignment_epoch: 4,
                topology_epoch: 1,
                topology: Some(DescribedTopology {
                    epoch: 1,
                    subtopologies: vec![DescribedSubtopology {
                        subtopology_id: "0".into(),
                        source_topics: vec!["customers".into(), "orders".into()],
                        source_topic_regex: vec![],
                        repartition_sink_topics: vec!["app-repartition".into()],
                        state_changelog_topics: vec![TopicInfo {
                            name: "app-store-changelog".into(),
                            partitions: 2,
                            replication_factor: 3,
                            topic_configs: vec![kv("cleanup.policy", "compact")],
                        }],
                        repartition_source_topics: vec![],
                    }],
                }),
                members: vec![member, static_member],
                authorized_operations: i32::MIN,
                ..Default::default()
            },
            DescribedGroup {
                error_code: ErrorCode::GROUP_ID_NOT_FOUND.code(),
                error_message: Some("Group other not found.".into()),
                group_id: "other".into(),
                group_state: "Dead".into(),
                group_epoch: -1,
                assignment_epoch: -1,
                topology_epoch: -1,
                topology: None,
                members: vec![],
                authorized_operations: 0,
                ..Default::default()
            },
        ],
    }
}

pub fn list_groups_request() -> ListGroupsRequest {
    ListGroupsRequest {
        types_filter: vec!["streams".into(), "consumer".into()],
        states_filter: vec!["Stable".into(), "NotReady".into()],
    }
}

pub fn list_groups_response() -> ListGroupsResponse {
    ListGroupsResponse {
        throttle_time_ms: 0,
        error_code: 0,
        groups: vec![
            ListedGroup {
                group_id: "app".into(),
                protocol_type: "streams".into(),
                group_state: "Stable".into(),
                group_type: "streams".into(),
            },
            ListedGroup {
                group_id: "legacy".into(),
                protocol_type: "consumer".into(),
                group_state: "Empty".into(),
                group_type: "consumer".into(),
            },
        ],
    }
}
