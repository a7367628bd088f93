// A trapped WebAssembly instance, through the package (pkg/node.cjs and the guard of
// pkg/guard.mjs): after a trap every call, of every object of that instance, throws
// one clear Error naming the call that trapped, and reset() gives a fresh instance
// that works. Needs the wasm build first (scripts/build-wasm.sh).

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const m = require("../../pkg/node.cjs");

const trapped = (call) => (e) => {
  assert.ok(e instanceof Error, String(e));
  assert.ok(!(e instanceof WebAssembly.RuntimeError), "a plain Error, not the trap");
  assert.equal(e.kind, "trapped");
  assert.match(e.message, new RegExp(`^the WebAssembly instance trapped in ${call} \\(`));
  assert.match(e.message, /create a new module instance \(reset\(\) in Node/);
  return true;
};

test("a trap kills the whole instance plainly, and reset() gives a fresh one", () => {
  const version = m.version();
  const c = new m.Coordinator({ seed: 1 });
  c.createTopics([{ name: "in", numPartitions: 2 }]);
  const sim = new m.Simulation();
  const records = c.records();
  assert.throws(() => m.__trap(), trapped("__trap"));
  // Every export and every object of the dead instance says so, the same way.
  assert.throws(() => m.version(), trapped("__trap"));
  assert.throws(() => c.snapshot(), trapped("__trap"));
  assert.throws(() => sim.now(), trapped("__trap"));
  assert.throws(() => new m.Coordinator(), trapped("__trap"));
  assert.throws(() => m.Coordinator.fromRecords({ seed: 1 }, records), trapped("__trap"));

  const fresh = m.reset();
  assert.equal(fresh, m);
  assert.deepEqual(m.version(), version);
  const d = m.Coordinator.fromRecords({ seed: 1 }, records);
  assert.deepEqual(
    d.snapshot().topics.map((t) => t.name),
    ["in"],
  );
  // The old objects stay dead.
  assert.throws(() => c.snapshot(), trapped("__trap"));
  // Input errors are still ordinary errors.
  assert.throws(
    () => d.heartbeat({ groupId: 1 }),
    (e) => e.kind === "decode",
  );
});
