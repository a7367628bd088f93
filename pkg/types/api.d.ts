// Types of the streams-rebalance package: the Kafka Streams rebalance protocol
// (KIP-1071) as WebAssembly. Field names are the protocol's (Kafka's JSON converter
// style: the schema name with its first letter in lower case); everything else is
// plain camelCase. The contract these types describe is API.md in the repository.
//
// This part is written by hand: the classes and functions of the module and the
// types of outputs built by hand. The data types (messages, records, configs,
// scenarios, snapshots) come after it, generated from the Rust types by
// `cargo run --example typescript` (scripts/build-wasm.sh writes pkg/index.d.ts).
//
// Inputs: every method that takes a message, a config, a group spec or a list of ids
// accepts the object or its JSON text. Input that is not a valid message throws an
// InputError (an Error with .kind and .path); protocol errors come back as responses
// with an errorCode. Outputs are plain objects.

/** What every call throws on input that is not a valid message (nothing changed). */
export interface InputError extends Error {
  /** "syntax" (not JSON), "decode" (wrong shape, type or range, unknown or missing
   * field), "invalid" (a rule across fields), "limit" (README "Limits"), "rejected"
   * (valid, but refused by the current state); "trapped": not an input error, the
   * WebAssembly instance trapped (see `reset()`). */
  kind: "syntax" | "decode" | "invalid" | "limit" | "rejected" | "trapped";
  /** The field path (`topology.subtopologies[2].sourceTopics`), "" for the whole input. */
  path: string;
}

// ---------------------------------------------------------------------------------
// Numbers

/** An int64 on input: a number (exact up to 2^53), a decimal string, or a BigInt. */
export type Int64Input = number | string | bigint;
/** An int64 on output: a number when |value| <= 2^53 - 1, else a decimal string. */
export type Int64 = number | string;
// ---------------------------------------------------------------------------------
// Error and status codes

/** Kafka error codes used by streams groups: name -> Kafka's number (types only). */
export interface ErrorCodes {
  UNKNOWN_SERVER_ERROR: -1;
  NONE: 0;
  UNKNOWN_TOPIC_OR_PARTITION: 3;
  OFFSET_METADATA_TOO_LARGE: 12;
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
  INVALID_CONFIG: 40;
  INVALID_REQUEST: 42;
  POLICY_VIOLATION: 44;
  NON_EMPTY_GROUP: 68;
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
  /** Not in revision 58 (Kafka 4.2+ numbers it 5): the initial rebalance delay holds the first target. */
  ASSIGNMENT_DELAYED: 6;
}
/** A heartbeat status number: `StatusCodes["STALE_TOPOLOGY"]` is 0. */
export type StatusCode = StatusCodes[keyof StatusCodes];
// ---------------------------------------------------------------------------------
// StreamsGroupDescribe (API key 89)

export type GroupState = "Empty" | "NotReady" | "Assigning" | "Reconciling" | "Stable" | "Dead";
export type MemberState = "Stable" | "UnrevokedTasks" | "UnreleasedTasks";
// ---------------------------------------------------------------------------------
// Configuration, context, cluster, time

export type AssignorName = "sticky" | "highly_available";

/** Another name for TopicResult. */
export type CreateTopicResult = TopicResult;

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
/** A broker dump stepped through: one step per written batch (or per record). */
export declare class History {
  private constructor();
  static fromKafkaRecords(text: string, options?: KafkaRecordsOptions | string | null): History;
  /** How many steps. */
  readonly stepCount: number;
  steps(): HistoryStep[];
  /** What was read, skipped and inferred. */
  report(): KafkaRecordsReport;
  /** The groups after `step` (-1: before the first); every group without `groupIds`. */
  describe(step: number, groupIds?: string[] | string | null): StreamsGroupDescribeResponse;
  snapshot(step: number): Snapshot;
  /** A copy of the coordinator after `step`. */
  coordinator(step: number): Coordinator;
  /** The playground's board after `step`: the group (default: the dump's first) as a Simulation snapshot. */
  boardSnapshot(step: number, groupId?: string | null): SimulationSnapshot;
  free(): void;
}

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
  /**
   * Group ids (an array, one id, or a StreamsGroupDescribeRequest). A string that does
   * not start with `[`, `{` or `"` is one group id, not JSON text.
   */
  describe(
    groupIds: string[] | string | StreamsGroupDescribeRequest,
    context?: RequestContext | string | null,
  ): StreamsGroupDescribeResponse;
  /**
   * Kafka's DeleteGroups: each group without members is deleted with its committed
   * offsets (NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND, INVALID_GROUP_ID and
   * GROUP_AUTHORIZATION_FAILED otherwise; DELETE on the group is needed once ACLs are set).
   */
  deleteGroups(
    groupIds: string[] | string | DeleteGroupsRequest,
    context?: RequestContext | string | null,
  ): DeleteGroupsResponse;
  listGroups(request?: ListGroupsRequest | string | null): ListGroupsResponse;
  /** Enough of KIP-848's consumer protocol to hold consumer groups beside streams groups. */
  consumerGroupHeartbeat(request: object | string, context?: RequestContext | string | null): object;
  offsetCommit(request: object | string): object;
  offsetFetch(request: object | string): object;
  /** The record log, oldest first (compacted as Kafka compacts its log). */
  records(): CoordinatorRecord[];
  /**
   * The compacted log as Kafka's JSON lines, the shape of its console-consumer
   * CoordinatorRecordMessageFormatter: one record per line, streams group records
   * (types 17, 19-23) and offset commits (type 1), without the model's own records.
   */
  kafkaRecords(): string;
  /**
   * Every streams group of a broker dump: JSON lines or `kafka-dump-log.sh
   * --offsets-decoder` output (auto-detected). Throws an Error naming the line and
   * field of a malformed line; nothing is loaded then.
   */
  static fromKafkaRecords(
    text: string,
    options?: KafkaRecordsOptions | string | null,
  ): KafkaRecordsReport & { coordinator: Coordinator };
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
  /**
   * One group's own configs, as Kafka's group configs (camelCase names or Kafka's
   * `streams.*` ones; null removes an override). Checked against the coordinator's
   * bounds: a refusal is INVALID_CONFIG (or INVALID_GROUP_ID) with Kafka's message and
   * changes nothing. A record, so fromRecords restores it.
   */
  setGroupConfig(groupId: string, config: GroupConfigChange | string): GroupConfigResult;
  /** The assignment-relevant group configs in force. */
  groupConfig(): GroupConfig;
  /** The configs `groupId` uses: its own over the coordinator's, and which it sets. */
  describeGroupConfig(groupId: string): GroupSettings;
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
  | "stableCoversTopology"
  | "settled";

/**
 * Every safety rule that `current` (a Coordinator's or a Simulation's snapshot())
 * breaks, and, given the snapshot before it, every rule about change (epochs going
 * back, a stale member gaining a task). Empty when all is well. Throws on a value
 * that is not a snapshot.
 */
export declare function checkInvariants(
  current: Snapshot | object | string,
  previous?: Snapshot | object | string | null,
): Violation[];
/** Liveness, after members kept heartbeating with no change: Stable, every task active once. */
export declare function checkSettled(snapshot: Snapshot | object | string): Violation[];
// ---------------------------------------------------------------------------------
// Stand-alone assignment

/** The assignor's knobs; a CoordinatorConfig object is accepted too. */
export interface AssignmentConfig {
  numStandbyReplicas?: number;
  acceptableRecoveryLag?: Int64Input;
  maxWarmupReplicas?: number;
  [field: string]: unknown;
}

/**
 * Pure: the same input gives the same output, in every runtime. Throws on an unknown assignor.
 *
 * The result shares what it leaves unchanged: a member's list that is exactly a list
 * `groupSpec` gave for that member, in the result's form (one entry per subtopology in
 * id order, partitions rising), is that very array, not a copy. Copy before changing
 * either in place (`structuredClone`).
 */
export declare function assign(
  assignorName: AssignorName,
  groupSpec: GroupSpec | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): GroupAssignment;
/**
 * The quality figures of `result` as an assignment of `groupSpec` (with `config`, also
 * `standbysUnfilled`).
 */
export declare function assignmentQuality(
  groupSpec: GroupSpec | string,
  result: GroupAssignment | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): AssignmentQuality;
/** True when a member's warm-up task has caught up (a new target would move the task to it). */
export declare function warmupCaughtUp(
  groupSpec: GroupSpec | string,
  config?: AssignmentConfig | CoordinatorConfig | string | null,
): boolean;

/** Benchmark helper: the decoding and encoding work of assign() without the assignment. */
export declare class AssignIoFloor {
  constructor(
    assignorName: AssignorName,
    groupSpec: GroupSpec | string,
    config?: AssignmentConfig | CoordinatorConfig | string | null,
  );
  run(groupSpec: GroupSpec | string): GroupAssignment;
  /** Only the JS side of the spec's way in (its owned lists packed); true when it packed. */
  pack(groupSpec: GroupSpec | string): boolean;
  /** Only the JS side of a result's way into assignmentQuality() (its lists packed); true when it packed. */
  packResult(result: GroupAssignment | string): boolean;
  /** Whether the spec decodes by the packed path, not by its JSON text (for the tests). */
  decodesPacked(groupSpec: GroupSpec | string): boolean;
  /** Whether the spec's subtopologies cross packed, not in its JSON text (for the tests). */
  packsSubtopologies(groupSpec: GroupSpec | string): boolean;
  /** Only the decoding of the spec (what run() does before it builds the result). */
  decode(groupSpec: GroupSpec | string): void;
  free(): void;
}
// ---------------------------------------------------------------------------------
// Simulation (what the playground drives)

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

/** A code table both ways. */
export interface CodeTable<Name extends string = string> {
  byName: { [name in Name]: number };
  byCode: { [code: string]: Name };
}
/** Kafka's error codes this model answers with (the numbers of `ErrorCodes`). */
export declare function errorCodes(): CodeTable<keyof ErrorCodes>;
/** The heartbeat status codes (the numbers of `StatusCodes`). */
export declare function statusCodes(): CodeTable<keyof StatusCodes>;
/** The invariant rules (`Violation.rule`), in the README's order. */
export declare function invariantRules(): InvariantRule[];
/** The kinds of events of advanceTime() and of a Simulation's steps. */
export declare function eventKinds(): { coordinator: CoordinatorEventKind[]; simulation: SimKind[] };
/** The process id a Simulation gives the next process it starts without one. */
export declare function nextProcessId(taken: string[]): string;

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
export declare function initSync(
  module?: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module,
): unknown;
/**
 * A fresh WebAssembly instance, after a trap (every call of a trapped instance throws
 * an `Error` of kind `"trapped"`) or to drop all state. Node: switches this module's
 * exports to the fresh instance and returns them; browsers: resolves to the fresh
 * instance's exports (the old bindings stay dead). Objects of the old instance stay dead.
 */
export declare function reset(moduleOrPath?: InitInput): unknown;
