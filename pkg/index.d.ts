// Types of the streams-rebalance package: the Kafka Streams rebalance protocol
// (KIP-1071) as WebAssembly. Field names are the protocol's (Kafka's JSON converter
// style: the schema name with its first letter in lower case); everything else is
// plain camelCase. The contract these types describe is API.md in the repository.
//
// Inputs: every method that takes a message, a config, a group spec or a list of ids
// accepts the object or its JSON text. Input that is not a valid message throws an
// Error naming the field path; protocol errors come back as responses with an
// errorCode. Outputs are plain objects.

// ---------------------------------------------------------------------------------
// Numbers

/** An int64 on input: a number (exact up to 2^53), a decimal string, or a BigInt. */
export type Int64Input = number | string | bigint;
/** An int64 on output: a number when |value| <= 2^53 - 1, else a decimal string. */
export type Int64 = number | string;

// ---------------------------------------------------------------------------------
// Shared structures (SPEC.md section 1)

export interface KeyValue {
  key: string;
  value: string;
}

/** An interactive-query endpoint. `port` is a uint16. */
export interface Endpoint {
  host: string;
  port: number;
}

/** Tasks of one subtopology: `partitions` are non-negative int32 partition numbers. */
export interface TaskIds {
  subtopologyId: string;
  partitions: number[];
}

/** A cumulative changelog offset of one task (int64). */
export interface TaskOffset<N = Int64Input> {
  subtopologyId: string;
  partition: number;
  offset: N;
}

/** An internal topic: `partitions` 0 means not fixed (always 0 for changelogs). */
export interface TopicInfo {
  name: string;
  partitions?: number;
  /** int16; 0 (the default) means the cluster's default. */
  replicationFactor?: number;
  topicConfigs?: KeyValue[];
}

/** Indexes (int16) into the subtopology's own lists. */
export interface CopartitionGroup {
  sourceTopics?: number[];
  sourceTopicRegex?: number[];
  repartitionSourceTopics?: number[];
}

export interface Subtopology {
  subtopologyId: string;
  sourceTopics?: string[];
  sourceTopicRegex?: string[];
  stateChangelogTopics?: TopicInfo[];
  repartitionSinkTopics?: string[];
  repartitionSourceTopics?: TopicInfo[];
  copartitionGroups?: CopartitionGroup[];
}

/** A topology with its epoch (int32), sent on every join. */
export interface Topology {
  epoch: number;
  subtopologies: Subtopology[];
}

// ---------------------------------------------------------------------------------
// Error and status codes

/** Kafka error codes used by streams groups: name -> Kafka's number (types only). */
export interface ErrorCodes {
  UNKNOWN_SERVER_ERROR: -1;
  NONE: 0;
  UNKNOWN_TOPIC_OR_PARTITION: 3;
  COORDINATOR_NOT_AVAILABLE: 15;
  NOT_COORDINATOR: 16;
  INVALID_TOPIC_EXCEPTION: 17;
  INVALID_GROUP_ID: 24;
  UNKNOWN_MEMBER_ID: 25;
  TOPIC_AUTHORIZATION_FAILED: 29;
  GROUP_AUTHORIZATION_FAILED: 30;
  CLUSTER_AUTHORIZATION_FAILED: 31;
  TOPIC_ALREADY_EXISTS: 36;
  INVALID_PARTITIONS: 37;
  INVALID_REPLICATION_FACTOR: 38;
  INVALID_REQUEST: 42;
  GROUP_ID_NOT_FOUND: 69;
  GROUP_MAX_SIZE_REACHED: 81;
  FENCED_INSTANCE_ID: 82;
  FENCED_MEMBER_EPOCH: 110;
  UNRELEASED_INSTANCE_ID: 111;
  STALE_MEMBER_EPOCH: 113;
  STREAMS_INVALID_TOPOLOGY: 130;
  STREAMS_INVALID_TOPOLOGY_EPOCH: 131;
  STREAMS_TOPOLOGY_FENCED: 132;
}
/** A Kafka error number: `ErrorCodes["FENCED_MEMBER_EPOCH"]` is 110. */
export type ErrorCode = ErrorCodes[keyof ErrorCodes];

/** Heartbeat status codes, revision 58 numbering: name -> number (types only). */
export interface StatusCodes {
  STALE_TOPOLOGY: 0;
  MISSING_SOURCE_TOPICS: 1;
  INCONSISTENT_SOURCE_TOPICS: 2;
  INCONSISTENT_INTERNAL_TOPICS: 3;
  MISSING_INTERNAL_TOPICS: 4;
  SHUTDOWN_APPLICATION: 5;
}
/** A heartbeat status number: `StatusCodes["STALE_TOPOLOGY"]` is 0. */
export type StatusCode = StatusCodes[keyof StatusCodes];

export interface Status {
  /** int8, see StatusCode. */
  statusCode: number;
  statusDetail: string;
}

// ---------------------------------------------------------------------------------
// StreamsGroupHeartbeat (API key 88, version 0)

/**
 * memberEpoch: 0 join/rejoin, -1 leave, -2 static member leaves temporarily, > 0 the
 * current epoch. A nullable field that is omitted is null ("unchanged").
 */
export interface StreamsGroupHeartbeatRequest {
  groupId: string;
  memberId: string;
  memberEpoch: number;
  instanceId?: string | null;
  rackId?: string | null;
  /** -1 (the default) = unchanged; must be > 0 on the first heartbeat. */
  rebalanceTimeoutMs?: number;
  /** Only, and always, when memberEpoch is 0. */
  topology?: Topology | null;
  /** Owned tasks: null = unchanged; all three non-null and empty on join. */
  activeTasks?: TaskIds[] | null;
  standbyTasks?: TaskIds[] | null;
  warmupTasks?: TaskIds[] | null;
  processId?: string | null;
  userEndpoint?: Endpoint | null;
  clientTags?: KeyValue[] | null;
  taskOffsets?: TaskOffset[] | null;
  taskEndOffsets?: TaskOffset[] | null;
  shutdownApplication?: boolean;
  /** Defined by later Kafka versions: accepted and ignored. */
  endpointInformationEpoch?: number;
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface EndpointToPartitions {
  userEndpoint: Endpoint;
  partitions: TopicPartitions[];
}

export interface StreamsGroupHeartbeatResponse {
  throttleTimeMs: number;
  /** 0 on success, else a Kafka error code (see ErrorCode). */
  errorCode: number;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  acceptableRecoveryLag: Int64;
  taskOffsetIntervalMs: number;
  /** Every status that holds, in code order; null when unchanged since the last response. */
  status: Status[] | null;
  /** The member's assignment, in full, until it acknowledges it; null otherwise. */
  activeTasks: TaskIds[] | null;
  standbyTasks: TaskIds[] | null;
  warmupTasks: TaskIds[] | null;
  partitionsByUserEndpoint: EndpointToPartitions[] | null;
}

// ---------------------------------------------------------------------------------
// StreamsGroupDescribe (API key 89)

export type GroupState = "Empty" | "NotReady" | "Assigning" | "Reconciling" | "Stable" | "Dead";
export type MemberState = "Stable" | "UnrevokedTasks" | "UnreleasedTasks";

export interface Assignment {
  activeTasks: TaskIds[];
  standbyTasks: TaskIds[];
  warmupTasks: TaskIds[];
}

export interface DescribedSubtopology {
  subtopologyId: string;
  sourceTopics: string[];
  /** Unresolved regexes (only while the topology is not configured). */
  sourceTopicRegex: string[];
  repartitionSinkTopics: string[];
  stateChangelogTopics: Required<TopicInfo>[];
  repartitionSourceTopics: Required<TopicInfo>[];
}

export interface DescribedTopology {
  epoch: number;
  /** Sorted by id; partition counts filled in once configured. */
  subtopologies: DescribedSubtopology[];
}

export interface DescribedMember {
  memberId: string;
  memberEpoch: number;
  memberState: MemberState;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  topologyEpoch: number;
  processId: string;
  userEndpoint: Endpoint | null;
  clientTags: KeyValue[];
  taskOffsets: TaskOffset<Int64>[];
  taskEndOffsets: TaskOffset<Int64>[];
  assignment: Assignment;
  targetAssignment: Assignment;
  isClassic: boolean;
}

export interface DescribedGroup {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: GroupState | string;
  groupEpoch: number;
  assignmentEpoch: number;
  /** The group's topology epoch, -1 before it has a topology. */
  topologyEpoch: number;
  /** null before the group has a topology. */
  topology: DescribedTopology | null;
  members: DescribedMember[];
  /** Kafka's -2147483648 when not requested. */
  authorizedOperations: number;
}

export interface StreamsGroupDescribeRequest {
  groupIds: string[];
  includeAuthorizedOperations?: boolean;
}

export interface StreamsGroupDescribeResponse {
  throttleTimeMs: number;
  groups: DescribedGroup[];
}

// ---------------------------------------------------------------------------------
// ListGroups

export interface ListGroupsRequest {
  typesFilter?: string[];
  statesFilter?: string[];
}

export interface ListedGroup {
  groupId: string;
  protocolType: string;
  groupState: GroupState | string;
  groupType: "streams" | "consumer" | string;
}

export interface ListGroupsResponse {
  throttleTimeMs?: number;
  errorCode: number;
  groups: ListedGroup[];
}

// ---------------------------------------------------------------------------------
// Configuration, context, cluster, time

export type AssignorName = "sticky" | "highly_available";

/** `new Coordinator(config?)`: every field is optional. */
export interface CoordinatorConfig {
  /** Default "sticky". */
  assignor?: AssignorName;
  /** Default 5000. */
  heartbeatIntervalMs?: number;
  /** Default 45000: a member silent this long is removed. */
  sessionTimeoutMs?: number;
  /** Default 0. */
  numStandbyReplicas?: number;
  /** Default 10000: a warm-up is caught up below this lag. */
  acceptableRecoveryLag?: Int64Input;
  /** Default 2: warm-up tasks in flight at once. */
  maxWarmupReplicas?: number;
  /** Default 60000. */
  taskOffsetIntervalMs?: number;
  /** Default unlimited. */
  groupMaxSize?: number | null;
  /** Default: the cluster's default. */
  internalTopicReplicationFactor?: number | null;
  /** Default 0: seeds member-id generation, so runs are reproducible. */
  seed?: number;
  /** Default true: fence members that do not revoke within their rebalanceTimeoutMs. */
  rebalanceTimeoutEnabled?: boolean;
  /** Default 0: simulated time a topic creation takes. */
  internalTopicCreationDelayMs?: number;
  /** Default 1000: first retry delay after a failed creation, doubling up to 30000. */
  internalTopicCreationBackoffMs?: number;
  /** Default 3: the simulated cluster's default replication factor. */
  defaultReplicationFactor?: number;
}

/** Who sent a request, and when. `principal` defaults to "User:ANONYMOUS". */
export interface RequestContext {
  principal?: string | null;
  clientId?: string | null;
  clientHost?: string | null;
  /** The time of the request on the coordinator's clock; time never goes back. */
  nowMs?: Int64Input | null;
}

export interface NewTopic {
  name: string;
  numPartitions: number;
  /** int16; -1 (the default) = the cluster's default. */
  replicationFactor?: number;
  /** `{ key: value }` or `[{ key, value }]`. */
  configs?: Record<string, string> | KeyValue[] | null;
}

/** The answer for one topic of createTopics, createPartitions or deleteTopics. */
export interface TopicResult {
  name: string;
  /** 0, or Kafka's error (TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, UNKNOWN_TOPIC_OR_PARTITION, ...). */
  errorCode: number;
  errorMessage: string | null;
}

/** Another name for TopicResult. */
export type CreateTopicResult = TopicResult;

export interface NewPartitions {
  name: string;
  /** The new total number of partitions (never fewer than now). */
  count: number;
}

export interface TopicDescription {
  name: string;
  numPartitions: number;
  replicationFactor: number;
  configs: Record<string, string>;
}

export interface Acl {
  /** Like "User:alice". */
  principal: string;
  resourceType: "group" | "topic" | "cluster";
  /** A name or "*". */
  resourceName: string;
  operation: "read" | "describe" | "create" | "all";
}

export type CoordinatorEventKind =
  | "sessionTimeout"
  | "rebalanceTimeout"
  | "internalTopicsCreated"
  | "internalTopicsCreationFailed"
  | "internalTopicConfigMismatch";

/** What time caused: returned by advanceTime. */
export interface CoordinatorEvent {
  atMs: Int64;
  kind: CoordinatorEventKind | string;
  groupId: string;
  /** With sessionTimeout and rebalanceTimeout. */
  memberId?: string;
  detail: string;
}

// ---------------------------------------------------------------------------------
// Records (the coordinator's log)

/**
 * One entry of records(): `key.type` names the record (`StreamsGroupMetadataKey`,
 * `StreamsGroupTopologyKey`, `StreamsGroupMemberMetadataKey`,
 * `StreamsGroupTargetAssignmentMetadataKey`, `StreamsGroupTargetAssignmentMemberKey`,
 * `StreamsGroupCurrentMemberAssignmentKey`, ..., plus the cluster's `TopicKey`,
 * `AclsKey`, `ClockKey`, the run-time group configs' `GroupConfigKey`), `value.type`
 * the matching value. A null value is a tombstone.
 * Feed the array back to Coordinator.fromRecords unchanged.
 */
export interface CoordinatorRecord {
  offset: number;
  key: { type: string; [field: string]: unknown };
  value: { type: string; [field: string]: unknown } | null;
}

// ---------------------------------------------------------------------------------
// Snapshot (what the playground draws)

export interface TaskLists {
  activeTasks: TaskIds[];
  standbyTasks: TaskIds[];
  warmupTasks: TaskIds[];
}

export interface MemberSnapshot {
  memberId: string;
  instanceId: string | null;
  processId: string;
  rackId: string | null;
  clientTags: KeyValue[];
  userEndpoint: Endpoint | null;
  topologyEpoch: number;
  /** Behind the group's topology epoch: gets no new tasks. */
  stale: boolean;
  memberEpoch: number;
  previousMemberEpoch: number;
  memberState: MemberState;
  assignment: TaskLists;
  pendingRevocation: TaskLists;
  targetAssignment: TaskLists;
  lastStatus: Status[] | null;
  sessionDeadlineMs: Int64;
  rebalanceDeadlineMs: Int64 | null;
}

export interface ConfiguredTopologySnapshot {
  ready: boolean;
  /** Every status (1-4) that keeps the group NotReady, in code order. */
  statuses: Status[];
  /** The STREAMS_INVALID_TOPOLOGY error found against the cluster's metadata. */
  error: string | null;
  subtopologies: { subtopologyId: string; numTasks: number; stateful: boolean; sourceTopics: string[] }[];
  internalTopicsToCreate: string[];
  /** Missing internal topics whose partition count is not decided yet (not created). */
  internalTopicsUndecided: string[];
}

export interface GroupSnapshot {
  groupId: string;
  groupType: "streams" | "consumer";
  groupState: GroupState | string;
  groupEpoch: number;
  assignmentEpoch: number;
  topologyEpoch: number | null;
  topology: Topology | null;
  configuredTopology: ConfiguredTopologySnapshot | null;
  shutdownRequestedBy: string | null;
  internalTopicCreation: {
    inFlight: string[] | null;
    completesAtMs: Int64 | null;
    attempts: number;
    nextAttemptAtMs: Int64;
    lastFailure: string | null;
  } | null;
  members: MemberSnapshot[];
  consumerMembers: {
    memberId: string;
    memberEpoch: number;
    subscribedTopicNames: string[];
    assignment: TopicPartitions[];
    sessionDeadlineMs: Int64;
  }[];
}

/** Plain JSON of the coordinator's whole state: groups, members, topics, the clock. */
export interface Snapshot {
  nowMs: Int64;
  assignor: AssignorName | string;
  groups: GroupSnapshot[];
  topics: TopicDescription[];
  acls: Acl[];
  recordCount: number;
}

// ---------------------------------------------------------------------------------
// Group configs changed at run time

/** The assignment-relevant configs a coordinator applies to its streams groups. */
export interface GroupConfig {
  assignor: AssignorName;
  numStandbyReplicas: number;
  acceptableRecoveryLag: number | string;
  maxWarmupReplicas: number;
}

/** setGroupConfig's input: the configs to change. */
export interface GroupConfigUpdate {
  assignor?: AssignorName;
  numStandbyReplicas?: number;
  acceptableRecoveryLag?: number;
  maxWarmupReplicas?: number;
}

// ---------------------------------------------------------------------------------
// The coordinator

/**
 * One simulated group coordinator with its own simulated cluster and clock.
 *
 * Limits (README, "Limits"): inputs up to 32 MiB of JSON and strings up to 32 767
 * bytes (else an Error naming the field); up to 10 000 members per group
 * (GROUP_MAX_SIZE_REACHED), 1 000 streams groups (COORDINATOR_NOT_AVAILABLE),
 * 1 000 subtopologies and 10 000 entries per subtopology list (INVALID_REQUEST),
 * 1 000 000 tasks per group (STREAMS_INVALID_TOPOLOGY; INVALID_PARTITIONS for a topic
 * change that would cross it), 100 000 partitions per topic. records() is compacted
 * like Kafka's __consumer_offsets, so it grows with the live state only.
 */
export declare class Coordinator {
  constructor(config?: CoordinatorConfig | string | null);
  /** A coordinator rebuilt from another one's records(): a fail-over that loses nothing. */
  static fromRecords(
    config: CoordinatorConfig | string | null | undefined,
    records: CoordinatorRecord[] | string,
  ): Coordinator;
  /** A StreamsGroupHeartbeatRequest in, its response out. Throws on malformed input. */
  heartbeat(
    request: StreamsGroupHeartbeatRequest | string,
    context?: RequestContext | string | null,
  ): StreamsGroupHeartbeatResponse;
  /** Group ids (an array, one id, or a StreamsGroupDescribeRequest). */
  describe(
    groupIds: string[] | string | StreamsGroupDescribeRequest,
    context?: RequestContext | string | null,
  ): StreamsGroupDescribeResponse;
  listGroups(request?: ListGroupsRequest | string | null): ListGroupsResponse;
  /** Enough of KIP-848's consumer protocol to hold consumer groups beside streams groups. */
  consumerGroupHeartbeat(request: object | string, context?: RequestContext | string | null): object;
  offsetCommit(request: object | string): object;
  offsetFetch(request: object | string): object;
  /** The record log, oldest first (compacted as Kafka compacts its log). */
  records(): CoordinatorRecord[];
  snapshot(): Snapshot;
  /** The coordinator's clock in ms (starts at 0). */
  now(): number;
  /** Moves the clock forward by `ms`; returns the events that caused. */
  advanceTime(ms: Int64Input): CoordinatorEvent[];
  createTopics(topics: NewTopic[] | string): TopicResult[];
  /** Grows each topic to `count` partitions in all. */
  createPartitions(topics: NewPartitions[] | string): TopicResult[];
  deleteTopics(names: string[] | string): TopicResult[];
  topics(): TopicDescription[];
  /** Replaces the ACLs; with none set, everything is allowed. */
  setAcls(acls: Acl[] | string): void;
  /**
   * Changes the assignment-relevant group configs (absent fields stay). Written as a
   * GroupConfig record (fromRecords restores it); each streams group bumps its group
   * epoch on its next heartbeat, so its next target uses them. Throws (changing
   * nothing) on an unknown field, an unknown assignor or a negative value.
   */
  setGroupConfig(config: GroupConfigUpdate | string): GroupConfig;
  /** The assignment-relevant group configs in force. */
  groupConfig(): GroupConfig;
  /** Frees the WebAssembly memory this object holds (optional; the GC also does). */
  free(): void;
}

// ---------------------------------------------------------------------------------
// Invariants (health checks; README "Invariants")

export type InvariantRule =
  | "activeOnce"
  | "processOnce"
  | "standbyApart"
  | "epochsForward"
  | "assignmentEpochBound"
  | "stableOwnsTarget"
  | "staleGainsNothing"
  | "settled";

/** One broken rule, in words. */
export interface Violation {
  rule: InvariantRule;
  groupId: string;
  memberId: string | null;
  message: string;
}

/**
 * Every safety rule that `current` (a Coordinator's or a Simulation's snapshot())
 * breaks, and, given the snapshot before it, every rule about change (epochs going
 * back, a stale member gaining a task). Empty when all is well. Throws on a value
 * that is not a snapshot.
 */
export declare function checkInvariants(current: Snapshot | object | string, previous?: Snapshot | object | string | null): Violation[];
/** Liveness, after members kept heartbeating with no change: Stable, every task active once. */
export declare function checkSettled(snapshot: Snapshot | object | string): Violation[];

// ---------------------------------------------------------------------------------
// Stand-alone assignment

export interface SubtopologySpec {
  subtopologyId: string;
  numPartitions: number;
  stateful: boolean;
}

export interface MemberSpec {
  memberId: string;
  processId: string;
  topologyEpoch?: number;
  rackId?: string | null;
  clientTags?: KeyValue[] | Record<string, string>;
  activeTasks?: TaskIds[];
  standbyTasks?: TaskIds[];
  warmupTasks?: TaskIds[];
  taskOffsets?: TaskOffset[];
  taskEndOffsets?: TaskOffset[];
}

export interface GroupSpec {
  subtopologies: SubtopologySpec[];
  members: MemberSpec[];
  groupTopologyEpoch?: number;
}

/** The assignor's knobs; a CoordinatorConfig object is accepted too. */
export interface AssignmentConfig {
  numStandbyReplicas?: number;
  acceptableRecoveryLag?: Int64Input;
  maxWarmupReplicas?: number;
  [field: string]: unknown;
}

export interface MemberAssignment {
  activeTasks: TaskIds[];
  standbyTasks: TaskIds[];
  warmupTasks: TaskIds[];
}

export interface GroupAssignment {
  members: { [memberId: string]: MemberAssignment };
}

export interface Spread<T = number> {
  min: T;
  max: T;
  spread: T;
}

/** How good an assignment is (see assignmentQuality). */
export interface AssignmentQuality {
  members: number;
  eligibleMembers: number;
  processes: number;
  tasks: number;
  statefulTasks: number;
  unassignedActiveTasks: number;
  duplicateActiveTasks: number;
  unknownTasks: number;
  activeBalance: Spread;
  totalBalance: Spread;
  processActiveBalance: Spread;
  activeTasksMoved: number;
  activeTasksNew: number;
  standbyTasks: number;
  tasksWithStandbys: number;
  processDuplicates: number;
  tasksWithDistinctTagValues: number | null;
  warmupsInFlight: number;
  staleMemberGains: number;
  /** Per subtopology, max - min of its active tasks per eligible member; mean and max over subtopologies. */
  subtopologySpread: MeanMax;
  /** `subtopologySpread` less the one task a subtopology that does not divide evenly over the members cannot avoid (0: even). */
  subtopologySpreadAboveEven: MeanMax;
  /** The same as `subtopologySpread` for standby tasks, over stateful subtopologies. */
  standbySubtopologySpread: MeanMax;
  /** The fewest active moves any assignment at the same active balance needs (compare with `activeTasksMoved`). */
  activeTasksMovedMinimum: number;
  /** Per member with stateful actives: how many distinct members hold their standbys. */
  standbyFanOut: { min: number; mean: number; max: number };
  /** Standby slots wanted (min(numStandbyReplicas, processes - 1) per stateful task) and not filled; null without a config. */
  standbysUnfilled: number | null;
  /** Standbys on the process of their task's active (must be 0). */
  standbysOnActiveProcess: number;
  /** Stateful tasks whose previous active owner is no longer in the group (0 of 0 when nothing was owned), and how many went to a member that held a standby or warm-up of them. */
  orphanedStatefulToStandby: { landed: number; total: number };
  [figure: string]: unknown;
}

/** Mean and largest of a figure over subtopologies. */
export interface MeanMax {
  mean: number;
  max: number;
}

/**
 * Pure: the same input gives the same output, in every runtime. Throws on an unknown assignor.
 * A group spec given as a plain object takes a packed fast path (the module's `__`-named
 * exports are its internals, not part of this API); anything else, and every error, goes
 * through the strict decoder, with the same result.
 */
export declare function assign(
  assignorName: AssignorName | string,
  groupSpec: GroupSpec | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): GroupAssignment;
/**
 * The quality figures of `result` as an assignment of `groupSpec` (with `config`, also
 * `standbysUnfilled`). Plain objects take the same packed fast path as assign().
 */
export declare function assignmentQuality(
  groupSpec: GroupSpec | string,
  result: GroupAssignment | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): AssignmentQuality;
/**
 * True when a member's warm-up task has caught up (a new target would move the task to it).
 * Takes the same packed fast path as assign() for a plain group spec object.
 */
export declare function warmupCaughtUp(
  groupSpec: GroupSpec | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): boolean;

/** Benchmark helper: the decoding and encoding work of assign() without the assignment. */
export declare class AssignIoFloor {
  constructor(
    assignorName: AssignorName | string,
    groupSpec: GroupSpec | string,
    config?: AssignmentConfig | CoordinatorConfig | string | null,
  );
  run(groupSpec: GroupSpec | string): GroupAssignment;
  free(): void;
}

// ---------------------------------------------------------------------------------
// Simulation (what the playground drives)

export interface ProcessSpec {
  processId?: string;
  /** Members (stream threads) this process runs; at most 64. */
  threads?: number;
  /** Static membership. */
  instanceId?: string | null;
  rackId?: string | null;
  clientTags?: KeyValue[] | Record<string, string>;
  topology?: Topology;
  topologyEpoch?: number;
  userEndpoint?: Endpoint | null;
}

export interface RestartChanges extends ProcessSpec {
  /** Rejoin as a new member (a new member id) rather than the same one. */
  newMember?: boolean;
}

/** One thing that happens to the simulated world, at a time. */
export type ScenarioAction = { atMs?: Int64Input } & (
  | ({ type: "addProcess" } & ProcessSpec)
  | { type: "stopProcess"; processId: string }
  | { type: "crashProcess"; processId: string }
  | { type: "restartProcess"; processId: string; changes?: RestartChanges | null }
  | { type: "createTopics"; topics: { name: string; numPartitions: number }[] }
  | { type: "deleteTopics"; names: string[] }
  | { type: "setAssignor"; assignor: AssignorName }
  | { type: "setStandbyReplicas"; numStandbyReplicas: number }
  | { type: "heartbeat"; request: StreamsGroupHeartbeatRequest }
);

/** Plain JSON that replays a simulation exactly (a page URL or a file can carry it). */
export interface Scenario {
  name?: string;
  title?: string;
  description?: string;
  narration?: { atMs: Int64Input; text: string }[];
  groupId?: string;
  config?: CoordinatorConfig;
  client?: {
    revocationDelayMs?: Int64Input;
    assignmentDelayMs?: Int64Input;
    restoreRecordsPerSec?: Int64Input;
    changelogEndOffset?: Int64Input;
    restartDelayMs?: Int64Input;
    rebalanceTimeoutMs?: number;
  };
  topics?: { name: string; numPartitions: number }[];
  topology?: Topology;
  actions?: ScenarioAction[];
  endMs?: Int64Input;
  [field: string]: unknown;
}

/** Something that happened: an action, a heartbeat with its request and response, ... */
export interface SimulationEvent {
  /** Position in the whole log (0-based). */
  seq: number;
  atMs: Int64;
  /** `action`, `actionFailed`, `heartbeat`, `reconciled`, `caughtUp`, `fatal`, or a coordinator event kind. */
  kind: string;
  processId?: string;
  memberId?: string;
  thread?: number;
  /** In words, for the timeline. */
  detail: string;
  action?: ScenarioAction;
  request?: StreamsGroupHeartbeatRequest;
  response?: StreamsGroupHeartbeatResponse;
  coordinator?: CoordinatorEvent;
}

export interface SimulationSnapshot {
  nowMs: Int64;
  groupId: string;
  assignor: string;
  numStandbyReplicas: number;
  /** The group as StreamsGroupDescribe describes it. */
  group: DescribedGroup | null;
  topics: { name: string; numPartitions: number }[];
  /** Each simulated client's own view. */
  processes: {
    processId: string;
    state: "Running" | "Stopped" | "Crashed" | "Restarting" | string;
    threads: number;
    members: { memberId: string; memberEpoch: number; state: string; owned: TaskLists; [field: string]: unknown }[];
    [field: string]: unknown;
  }[];
  /** The Coordinator's own snapshot. */
  coordinator: Snapshot;
  [field: string]: unknown;
}

/** A Coordinator with simulated Kafka Streams clients that speak the protocol to it. */
export declare class Simulation {
  constructor(config?: CoordinatorConfig | string | null);
  /** A simulation that plays `scenario`. */
  static fromScenario(scenario: Scenario | string): Simulation;
  /** The preset scenarios. */
  static presets(): { name: string; title: string; description: string; scenario: Scenario }[];
  /** Checks a scenario without running it: returns it normalised, or throws the decoding error. */
  static checkScenario(scenario: Scenario | string): Scenario;
  /** Starts a process; returns its id. */
  addProcess(spec?: ProcessSpec | string | null): string;
  /** Stops cleanly (the members leave). */
  stopProcess(processId: string): SimulationEvent[];
  /** Stops without leaving: the coordinator notices by session timeout. */
  crashProcess(processId: string): SimulationEvent[];
  restartProcess(processId: string, changes?: RestartChanges | string | null): SimulationEvent[];
  createTopics(topics: { name: string; numPartitions: number }[] | string): SimulationEvent[];
  deleteTopics(names: string[] | string): SimulationEvent[];
  setAssignor(name: AssignorName): SimulationEvent[];
  setStandbyReplicas(n: number): SimulationEvent[];
  /** Sends a hand-made heartbeat now (recorded); returns the response. */
  sendHeartbeat(request: StreamsGroupHeartbeatRequest | string): StreamsGroupHeartbeatResponse;
  /**
   * Advances time by `ms`; returns what happened, every request and response included.
   * Stops early after 20 000 events (`now()` tells how far it got).
   */
  step(ms: number): SimulationEvent[];
  /** Runs the next moment at which anything is due (at most `maxMs` ahead, default an hour). */
  stepNext(maxMs?: number | null): SimulationEvent[];
  /** Steps until the group is Stable, or `maxMs` have passed. */
  runUntilStable(maxMs: number): SimulationEvent[];
  /** When something is next due (ms), or undefined. */
  nextDue(): number | undefined;
  now(): number;
  isStable(): boolean;
  /**
   * The Coordinator underneath, as of now: a copy rebuilt from its records, which
   * answers every call as the simulation's own would. Change the simulated world through
   * the Simulation's calls, so that its scenario records them.
   */
  readonly coordinator: Coordinator;
  /** The coordinator's snapshot plus each simulated client's own view. */
  snapshot(): SimulationSnapshot;
  /** The scenario as recorded so far (replays this simulation exactly). */
  scenario(): Scenario;
  free(): void;
}

// ---------------------------------------------------------------------------------
// Module

export interface Version {
  /** The package version (semver). */
  package: string;
  /** The protocol revision modelled: "KIP-1071 revision 58". */
  protocol: string;
}

/** `{ package, protocol }`. */
export declare function version(): Version;

/** The wasm module's source for init(): a URL, a Response, bytes or a compiled module. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads the WebAssembly module. Needed once in browsers and bundlers (the `browser`
 * condition, or the `streams-rebalance/web` entry) before any other call; in Node it
 * resolves at once (the module is loaded synchronously on import).
 */
export default function init(
  moduleOrPath?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<unknown>;
/** Synchronous init() from bytes or a compiled module (browsers); a no-op in Node. */
export declare function initSync(module?: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module): unknown;
