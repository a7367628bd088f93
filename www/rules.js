// The rules of the protocol behind each term the page shows (docs/PROTOCOL.md), for hovers and links.

export const RULES = {
  groupState:
    "PROTOCOL.md §4.3 Group state: Empty (no members); NotReady (topology not configured, §5); Assigning (group epoch > assignment epoch); Reconciling (some member not yet at the assignment epoch); Stable.",
  groupEpoch:
    "PROTOCOL.md §4.1 The group epoch goes up by one whenever membership, member metadata, the topology, or topic metadata change: at most once per request.",
  assignmentEpoch:
    "PROTOCOL.md §4.1 The assignment epoch is the group epoch the target assignment was computed for. The assignor runs when the group epoch is ahead of it.",
  topologyEpoch:
    "PROTOCOL.md §4.4 / seed \"Topology updates\": a member joining with topology.epoch = group's + 1 replaces the group's topology; a lower epoch is STREAMS_TOPOLOGY_FENCED on join. Members whose topology epoch differs from the group's get no NEW tasks.",
  assignor:
    "PROTOCOL.md §6: sticky balances per process and keeps previous owners; highly_available keeps stateful tasks where their state is and moves them through warm-ups.",
  standbys:
    "num.standby.replicas: standby copies per stateful task, always on another process. Changing it changes the assignment configs and bumps the group epoch.",
  memberEpoch:
    "PROTOCOL.md §4.1 A member's epoch reaches the target (assignment) epoch once it has nothing left to revoke. A heartbeat with any other epoch is FENCED_MEMBER_EPOCH (except the previous epoch after a lost response).",
  memberState:
    "PROTOCOL.md §4.2 Member states: Stable (reconciled), UnrevokedTasks (must first confirm it gave tasks up), UnreleasedTasks (at the target epoch, waiting for tasks still held by others).",
  memberTopologyEpoch:
    "PROTOCOL.md §4.4 The topology epoch this member joined with. Behind the group's: STALE_TOPOLOGY on every heartbeat, and no new tasks.",
  revoking:
    "PROTOCOL.md §4.2 A task is never given to a new owner while its previous owner has not confirmed the revocation (a heartbeat listing its owned tasks without it).",
  incoming:
    "In the member's target assignment but not running yet: either still held by another member (UnreleasedTasks), or the member has not acknowledged it yet.",
  orphan:
    "The coordinator still counts this task as owned by a member that is gone (crashed, or a static member that left with -2). Nobody processes it until the session times out (or the static member returns).",
  stale:
    "STALE_TOPOLOGY (status 0): the member's topology epoch is below the group's. It keeps tasks it owns that still exist and the balance lets it keep, but gains none (PROTOCOL.md §4.4).",
  fenced:
    "FENCED_MEMBER_EPOCH / UNKNOWN_MEMBER_ID: the coordinator no longer knows this member at this epoch. The client drops all its tasks and rejoins with epoch 0 (PROTOCOL.md §3.2).",
};

// Where each rule is written down: its section of docs/PROTOCOL.md. The page does not
// serve the repository's files, so the links go to the file in the repository
// (Cargo.toml's `repository`); the anchors are GitHub's heading anchors.
export const PROTOCOL_URL = "https://github.com/streams-rebalance/streams-rebalance/blob/main/docs/PROTOCOL.md";

export const RULE_SECTIONS = {
  groupState: "43-group-states",
  groupEpoch: "41-epochs",
  assignmentEpoch: "41-epochs",
  topologyEpoch: "44-topology-epochs",
  assignor: "6-assignors",
  standbys: "65-standbys-and-client-tags",
  memberEpoch: "41-epochs",
  memberState: "42-reconciliation",
  memberTopologyEpoch: "44-topology-epochs",
  revoking: "42-reconciliation",
  incoming: "42-reconciliation",
  orphan: "91-session-timeout",
  stale: "44-topology-epochs",
  fenced: "32-heartbeating",
};

/** The URL of the PROTOCOL.md section behind a rule, or null. */
export function ruleUrl(rule) {
  const anchor = Object.hasOwn(RULE_SECTIONS, rule) ? RULE_SECTIONS[rule] : null;
  return anchor ? `${PROTOCOL_URL}#${anchor}` : null;
}

export const MEMBER_STATE_WORDS = {
  Stable: "reconciled to its target",
  UnrevokedTasks: "must revoke tasks first",
  UnreleasedTasks: "waiting for tasks others still hold",
};

export const GROUP_STATE_WORDS = {
  Empty: "No members.",
  NotReady: "The topology cannot be configured (a status such as MISSING_SOURCE_TOPICS holds): every target is empty.",
  Assigning: "The group epoch is ahead of the assignment epoch: the next heartbeat computes a new target assignment.",
  Reconciling:
    "A new target exists; some members have not reached it yet (revoking, or waiting for tasks to be released).",
  Stable: "Every member runs exactly its target assignment at the assignment epoch.",
  Dead: "The group was deleted or expired.",
};

// The module's own tables (errorCodes(), statusCodes()): set once it has loaded.
let errorCodes = { byName: {}, byCode: {} };
let statusCodes = { byName: {}, byCode: {} };

/** Takes the code tables from the loaded module (app.js calls it after init). */
export function useModule(wasm) {
  errorCodes = wasm.errorCodes();
  statusCodes = wasm.statusCodes();
}

/** What each heartbeat status means, by its name (the numbers come from the module). */
export const STATUS_WORDS = {
  STALE_TOPOLOGY: "the member's topology epoch is below the group's",
  MISSING_SOURCE_TOPICS: "a source topic is missing, or a source regex matches no topic",
  INCONSISTENT_SOURCE_TOPICS: "topics of one copartition group have different partition counts",
  INCONSISTENT_INTERNAL_TOPICS: "an existing internal topic has the wrong partition count",
  MISSING_INTERNAL_TOPICS: "internal topics are missing (the coordinator creates them)",
  SHUTDOWN_APPLICATION: "some member asked the application to shut down",
  ASSIGNMENT_DELAYED: "the first assignment of the group waits for the initial rebalance delay",
};

/** What each Kafka error means, by its name (the numbers come from the module). */
export const ERROR_WORDS = {
  UNKNOWN_SERVER_ERROR: "an unexpected error in the coordinator",
  COORDINATOR_NOT_AVAILABLE: "the coordinator cannot answer yet; the client retries",
  NOT_COORDINATOR: "this broker is not the group's coordinator",
  INVALID_GROUP_ID: "the group id is not valid",
  UNKNOWN_MEMBER_ID:
    "the coordinator does not know this member (removed, e.g. after a session timeout): it rejoins with epoch 0",
  TOPIC_AUTHORIZATION_FAILED: "no DESCRIBE permission on a topic of the topology",
  GROUP_AUTHORIZATION_FAILED: "no READ permission on the group",
  INVALID_REQUEST: "the request breaks a rule of PROTOCOL.md §2",
  GROUP_ID_NOT_FOUND: "no such streams group (or it is a group of another type)",
  GROUP_MAX_SIZE_REACHED: "the group is full, or its request would pass the coordinator's memory budget",
  POLICY_VIOLATION: "the topics would pass the coordinator's memory budget; none is created",
  OFFSET_METADATA_TOO_LARGE: "the offsets would pass the coordinator's memory budget; none is written",
  FENCED_INSTANCE_ID: "another member holds this static instance id",
  FENCED_MEMBER_EPOCH:
    "the member's epoch is not the one the coordinator expects: it is fenced, drops its tasks and rejoins with epoch 0",
  UNRELEASED_INSTANCE_ID: "the static instance id is still held by a member that did not leave with -2",
  STALE_MEMBER_EPOCH: "the member epoch is stale",
  INVALID_CONFIG: "a group config is out of the coordinator's bounds",
  NON_EMPTY_GROUP: "the group still has members, so it cannot be deleted",
  STREAMS_INVALID_TOPOLOGY: "the topology breaks its invariants",
  STREAMS_INVALID_TOPOLOGY_EPOCH: "same topology epoch with different metadata, or more than one above the group's",
  STREAMS_TOPOLOGY_FENCED: "the member joined with a topology epoch below the group's",
};

export function statusWords(s) {
  const name = statusCodes.byCode[s.statusCode] || `STATUS ${s.statusCode}`;
  return { name, words: STATUS_WORDS[name] || "", detail: s.statusDetail || "" };
}

export function errorName(code) {
  return errorCodes.byCode[code] || `ERROR ${code}`;
}

export function errorWords(code) {
  return ERROR_WORDS[errorCodes.byCode[code]] || "";
}
