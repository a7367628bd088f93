// The invariant checker through the package (checkInvariants, checkSettled): every
// preset of the playground, frame by frame as the page computes them, breaks no rule;
// a hand-broken snapshot is reported; a snapshot that is not one throws. Needs the
// wasm build first (scripts/build-wasm.sh).

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const wasm = require("../../pkg/dist/node/streams_rebalance.js");

test("every preset keeps every invariant at every frame", () => {
  const presets = wasm.Simulation.presets();
  assert.ok(presets.length >= 5, `${presets.length} presets`);
  for (const { name, scenario } of presets) {
    const sim = wasm.Simulation.fromScenario(scenario);
    let prev = sim.snapshot();
    let frames = 0;
    const end = (scenario.endMs || 60000) + 60000;
    while (sim.now() < end && frames < 3000) {
      sim.stepNext(5000);
      const cur = sim.snapshot();
      const broken = wasm.checkInvariants(cur, prev);
      assert.deepEqual(broken, [], `${name} at t=${sim.now()}`);
      prev = cur;
      frames++;
    }
    assert.ok(frames > 5, `${name}: ${frames} frames`);
    sim.free();
  }
});

test("a scale-out ends settled: Stable, every task active once", () => {
  const scenario = wasm.Simulation.presets().find((p) => p.name === "scale-out").scenario;
  const sim = wasm.Simulation.fromScenario(scenario);
  sim.step(scenario.endMs + 30000);
  assert.deepEqual(wasm.checkSettled(sim.snapshot()), []);
  sim.free();
});

test("a broken snapshot is reported, a non-snapshot throws", () => {
  const c = new wasm.Coordinator({ seed: 1 });
  c.createTopics([{ name: "in", numPartitions: 2 }]);
  const join = (memberId, processId) =>
    c.heartbeat({
      groupId: "g",
      memberId,
      memberEpoch: 0,
      rebalanceTimeoutMs: 1000,
      topology: { epoch: 0, subtopologies: [{ subtopologyId: "0", sourceTopics: ["in"] }] },
      activeTasks: [],
      standbyTasks: [],
      warmupTasks: [],
      processId,
    });
  join("a", "p1");
  join("b", "p2");
  const snap = c.snapshot();
  assert.deepEqual(wasm.checkInvariants(snap), []);
  // Give b the task a holds: two active owners.
  const [a, b] = snap.groups[0].members;
  b.assignment.activeTasks = a.assignment.activeTasks;
  const broken = wasm.checkInvariants(JSON.stringify(snap));
  assert.ok(
    broken.some((v) => v.rule === "activeOnce" && /is active on 2 members: a, b/.test(v.message)),
    JSON.stringify(broken),
  );
  // Epochs going back, against the snapshot before.
  const later = structuredClone(snap);
  later.groups[0].groupEpoch -= 1;
  assert.ok(wasm.checkInvariants(later, c.snapshot()).some((v) => v.rule === "epochsForward"));
  assert.throws(
    () => wasm.checkInvariants({ groups: [{}] }),
    /invalid current: groups\[0\]\.groupId: missing field `groupId`/,
  );
  assert.throws(() => wasm.checkInvariants(undefined), /invalid current/);
  c.free();
});
