// A small program against the package's types: `tsc --noEmit --strict` must accept it
// (scripts/test.sh checks it against pkg/index.d.ts, tests/node/package.test.mjs
// against the types of the packed package). The @ts-expect-error lines prove that the
// types reject what the protocol rejects: if one of them stopped being an error, tsc
// fails with "Unused '@ts-expect-error' directive".
import {
  assign,
  Coordinator,
  type ErrorCode,
  type ErrorCodes,
  type GroupAssignment,
  Simulation,
  type SimulationEvent,
  type Snapshot,
  type StreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatResponse,
  type TaskIds,
  type Topology,
  type Version,
  version,
} from "streams-rebalance";

const v: Version = version();
const label: string = `${v.package} (${v.protocol})`;

const topology: Topology = {
  epoch: 0,
  subtopologies: [
    {
      subtopologyId: "0",
      sourceTopics: ["orders"],
      stateChangelogTopics: [{ name: "app-store-changelog" }],
      repartitionSourceTopics: [{ name: "app-repartition", partitions: 4, replicationFactor: 3 }],
      copartitionGroups: [{ sourceTopics: [0], repartitionSourceTopics: [0] }],
    },
  ],
};

const join: StreamsGroupHeartbeatRequest = {
  groupId: "app",
  memberId: "",
  memberEpoch: 0,
  rebalanceTimeoutMs: 30000,
  topology,
  activeTasks: [],
  standbyTasks: [],
  warmupTasks: [],
  processId: "process-1",
  userEndpoint: { host: "localhost", port: 8080 },
  clientTags: [{ key: "zone", value: "a" }],
  taskOffsets: [{ subtopologyId: "0", partition: 0, offset: 9007199254740993n }],
  taskEndOffsets: [{ subtopologyId: "0", partition: 0, offset: "9007199254740993" }],
};

const coordinator = new Coordinator({ assignor: "sticky", heartbeatIntervalMs: 1000, seed: 7 });
const response: StreamsGroupHeartbeatResponse = coordinator.heartbeat(join, { nowMs: 0, principal: "User:alice" });
const fromText: StreamsGroupHeartbeatResponse = coordinator.heartbeat(JSON.stringify(join));

const fenced: ErrorCode = 110 satisfies ErrorCodes["FENCED_MEMBER_EPOCH"];
const failed: boolean = response.errorCode !== 0 && response.errorCode !== fenced;
const owned: TaskIds[] = response.activeTasks ?? [];
const epoch: number = response.memberEpoch + fromText.memberEpoch;
const now: number = coordinator.now();
const standbys: number = coordinator.setGroupConfig({ numStandbyReplicas: 1 }).numStandbyReplicas;
// @ts-expect-error the assignor is "sticky" or "highly_available"
coordinator.setGroupConfig({ assignor: 7 });

const snapshot: Snapshot = coordinator.snapshot();
const members: number = snapshot.groups.reduce((n, g) => n + g.members.length, 0);
const assignment: GroupAssignment = assign("sticky", {
  subtopologies: [{ subtopologyId: "0", numPartitions: 4, stateful: true }],
  members: [{ memberId: "a", processId: "p1" }],
});
const sim = new Simulation({ assignor: "highly_available" });
const processId: string = sim.addProcess({ threads: 2, clientTags: [{ key: "zone", value: "a" }] });
const events: SimulationEvent[] = sim.runUntilStable(60000);
const heartbeats = events.filter((e) => e.kind === "heartbeat" && e.response?.errorCode === 0).length;

// @ts-expect-error the assignor name is one the module knows
assign("stcky", { subtopologies: [], members: [] });
// @ts-expect-error clientTags is the protocol's list of { key, value }, not an object
assign("sticky", { subtopologies: [], members: [{ memberId: "a", processId: "p", clientTags: { zone: "a" } }] });
// @ts-expect-error the same in a Simulation's process
sim.addProcess({ clientTags: { zone: "a" } });
// @ts-expect-error memberEpoch is required
const noEpoch: StreamsGroupHeartbeatRequest = { groupId: "app", memberId: "" };
// @ts-expect-error partitions are numbers
const badTask: TaskIds = { subtopologyId: "0", partitions: ["1"] };
// @ts-expect-error the assignor is "sticky" or "highly_available"
new Coordinator({ assignor: 42 });
// @ts-expect-error errorMessage may be null
const message: string = response.errorMessage;

export const used = [
  label,
  failed,
  owned,
  epoch,
  now,
  standbys,
  noEpoch,
  badTask,
  message,
  members,
  assignment,
  processId,
  heartbeats,
];
