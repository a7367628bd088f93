// The Simulation through its JS binding (the Node build of the package): the calls the
// playground and users make, their errors, and replaying a recorded scenario.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const { Simulation, Coordinator } = require("../../pkg/dist/node/streams_rebalance.js");

const TOPOLOGY = { epoch: 0, subtopologies: [{ subtopologyId: "0", sourceTopics: ["input"] }] };

function tasks(list) {
  return list.flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`));
}

test("processes join, share the tasks and the group settles", () => {
  const sim = Simulation.fromScenario({
    groupId: "g",
    topics: [{ name: "input", numPartitions: 6 }],
    topology: TOPOLOGY,
  });
  assert.equal(sim.addProcess(), "A");
  assert.equal(
    sim.addProcess({ processId: "B", threads: 2, rackId: "r1", clientTags: [{ key: "zone", value: "z" }] }),
    "B",
  );
  const events = sim.runUntilStable(120000);
  assert.ok(sim.isStable());
  const joins = events.filter((e) => e.kind === "heartbeat" && e.request.memberEpoch === 0);
  assert.deepEqual(
    joins.map((e) => e.memberId),
    ["A-1", "B-1", "B-2"],
  );
  for (const e of joins) assert.equal(e.response.errorCode, 0);
  const snap = sim.snapshot();
  assert.equal(snap.group.groupState, "Stable");
  const running = snap.processes.flatMap((p) => p.members.flatMap((m) => tasks(m.activeTasks))).sort();
  assert.deepEqual(running, ["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"]);
  assert.deepEqual(snap.processes[1].clientTags, [{ key: "zone", value: "z" }]);
  // The coordinator underneath answers as the simulation's own.
  const c = sim.coordinator;
  assert.ok(c instanceof Coordinator);
  const d = c.describe(["g"]);
  assert.equal(d.groups[0].groupEpoch, snap.group.groupEpoch);
  assert.equal(d.groups[0].members.length, 3);
  c.free();
  sim.free();
});

test("a recorded simulation replays to the same events", () => {
  const sim = Simulation.fromScenario({ topics: [{ name: "input", numPartitions: 4 }], topology: TOPOLOGY });
  const log = [];
  sim.addProcess({ processId: "A" });
  log.push(...sim.step(10000));
  sim.addProcess({ processId: "B", instanceId: "b" });
  log.push(...sim.step(10000));
  log.push(...sim.restartProcess("B"));
  log.push(...sim.step(10000));
  log.push(...sim.crashProcess("A"));
  log.push(...sim.step(60000));
  const scenario = sim.scenario();
  assert.deepEqual(
    scenario.actions.map((a) => [a.atMs, a.type]),
    [
      [0, "addProcess"],
      [10000, "addProcess"],
      [20000, "restartProcess"],
      [30000, "crashProcess"],
    ],
  );
  const again = Simulation.fromScenario(JSON.stringify(scenario));
  const replay = again.step(90000);
  const strip = (events) => events.filter((e) => e.kind !== "action").map((e) => JSON.stringify({ ...e, seq: 0 }));
  assert.deepEqual(strip(replay), strip(log));
  assert.deepEqual(again.snapshot(), sim.snapshot());
  assert.ok(
    replay.some((e) => e.kind === "sessionTimeout" && e.memberId === "A-1"),
    "the crashed member times out",
  );
  sim.free();
  again.free();
});

test("bad input throws an Error naming the field and changes nothing", () => {
  const sim = new Simulation({ assignor: "sticky" });
  const before = JSON.stringify(sim.scenario());
  assert.throws(() => sim.addProcess({ threads: 0 }), /invalid process: threads: 0 is out of range/);
  assert.throws(() => sim.addProcess({ colour: "red" }), /colour: unknown field/);
  assert.throws(() => sim.stopProcess("nobody"), /unknown process "nobody"/);
  assert.throws(() => sim.setAssignor("magic"), /unknown assignor "magic"/);
  assert.throws(() => sim.setStandbyReplicas(1.5), /expected an integer/);
  assert.throws(() => sim.step(-1), /out of range/);
  assert.throws(() => sim.createTopics([{ name: "x" }]), /numPartitions: missing field `numPartitions`/);
  assert.throws(
    () => Simulation.fromScenario({ actions: [{ type: "explode" }] }),
    /actions\[0\]\.type: unknown action type/,
  );
  assert.throws(() => new Simulation({ heartbeatIntervalMs: 0 }), /heartbeatIntervalMs/);
  assert.throws(() => sim.sendHeartbeat({ groupId: 1 }), /groupId: invalid type: integer `1`, expected a string/);
  assert.equal(JSON.stringify(sim.scenario()), before);
  sim.free();
});

test("hand-made heartbeats, topics and group configs are recorded", () => {
  const sim = Simulation.fromScenario({ groupId: "g", topology: TOPOLOGY });
  sim.addProcess({ processId: "A" });
  sim.step(1000);
  let snap = sim.snapshot();
  assert.equal(snap.group.groupState, "NotReady");
  assert.equal(snap.processes[0].members[0].statuses[0].statusCode, 1, "MISSING_SOURCE_TOPICS");
  const created = sim.createTopics([{ name: "input", numPartitions: 2 }]);
  assert.equal(created[0].kind, "action");
  const failed = sim.createTopics([{ name: "input", numPartitions: 2 }]);
  assert.equal(failed[0].kind, "actionFailed");
  assert.match(failed[0].detail, /already exists/);
  sim.setAssignor("highly_available");
  sim.setStandbyReplicas(1);
  sim.runUntilStable(60000);
  snap = sim.snapshot();
  assert.equal(snap.group.groupState, "Stable");
  assert.equal(snap.assignor, "highly_available");
  assert.equal(snap.numStandbyReplicas, 1);
  const resp = sim.sendHeartbeat({ groupId: "g", memberId: "ghost", memberEpoch: 3 });
  assert.equal(resp.errorCode, 25, "UNKNOWN_MEMBER_ID");
  const types = sim.scenario().actions.map((a) => a.type);
  assert.deepEqual(types, [
    "addProcess",
    "createTopics",
    "createTopics",
    "setAssignor",
    "setStandbyReplicas",
    "heartbeat",
  ]);
  assert.ok(Simulation.presets().length >= 7);
  sim.free();
});

test("group configs change through the coordinator, as records a fail-over restores", () => {
  const sim = Simulation.fromScenario({
    groupId: "g",
    topics: [{ name: "input", numPartitions: 2 }],
    topology: TOPOLOGY,
  });
  sim.addProcess();
  sim.runUntilStable(60000);
  const before = sim.snapshot().group.groupEpoch;
  sim.setStandbyReplicas(1);
  sim.runUntilStable(60000);
  assert.equal(sim.snapshot().group.groupEpoch, before + 1, "one bump on the next heartbeat");
  const copy = sim.coordinator;
  assert.equal(copy.groupConfig().numStandbyReplicas, 1);
  assert.ok(copy.records().some((r) => r.key.type === "GroupConfigKey"));
  const now = copy.setGroupConfig({ assignor: "highly_available", acceptableRecoveryLag: 5 });
  assert.deepEqual(now, {
    assignor: "highly_available",
    numStandbyReplicas: 1,
    acceptableRecoveryLag: 5,
    maxWarmupReplicas: 2,
  });
  assert.throws(
    () => copy.setGroupConfig({ assignor: "magic" }),
    /invalid group config: assignor: unknown assignor "magic"/,
  );
  assert.throws(() => copy.setGroupConfig({ standbys: 1 }), /standbys/);
  assert.throws(() => copy.setGroupConfig(), /group config/);
  const rebuilt = Coordinator.fromRecords(null, copy.records());
  assert.deepEqual(rebuilt.groupConfig(), now);
  rebuilt.free();
  copy.free();
  sim.free();
});

test("clientTags as an object instead of the protocol's list is refused on every path", () => {
  const { assign, assignmentQuality, warmupCaughtUp } = require("../../pkg/dist/node/streams_rebalance.js");
  const spec = (clientTags) => ({
    subtopologies: [{ subtopologyId: "0", numPartitions: 2, stateful: true }],
    members: [{ memberId: "a", processId: "p", clientTags }],
  });
  const object = { zone: "a" };
  const list = [{ key: "zone", value: "a" }];
  const refused = (fn, what) =>
    assert.throws(fn, (e) => {
      assert.equal(e.path, what === "groupSpec" ? "members[0].clientTags" : "clientTags");
      assert.match(e.message, new RegExp(`^invalid ${what}: .*expected a list of \\{key, value\\}, found an object`));
      return true;
    });
  const result = assign("sticky", spec(list));
  for (const name of ["sticky", "highly_available"]) refused(() => assign(name, spec(object)), "groupSpec");
  refused(() => assignmentQuality(spec(object), result), "groupSpec");
  refused(() => warmupCaughtUp(spec(object)), "groupSpec");
  assert.equal(typeof assignmentQuality(spec(list), result), "object");
  assert.equal(warmupCaughtUp(spec(list)), false);
  const sim = Simulation.fromScenario({
    groupId: "g",
    topics: [{ name: "input", numPartitions: 2 }],
    topology: TOPOLOGY,
  });
  const before = JSON.stringify(sim.scenario());
  refused(() => sim.addProcess({ processId: "B", clientTags: object }), "process");
  assert.equal(JSON.stringify(sim.scenario()), before, "nothing recorded");
  assert.throws(
    () => Simulation.fromScenario({ actions: [{ atMs: 0, type: "addProcess", clientTags: object }] }),
    (e) => e.path === "actions[0].clientTags",
  );
  const c = new Coordinator();
  assert.throws(
    () => c.heartbeat({ groupId: "g", memberId: "m", memberEpoch: 0, clientTags: object }),
    (e) => e.path === "clientTags",
  );
});
