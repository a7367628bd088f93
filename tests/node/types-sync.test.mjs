// pkg/index.d.ts is written by hand, so this test keeps it honest against the built
// module: every exported function, class, method and static it declares exists at
// run time and nothing exported is left undeclared; and the objects the module
// returns carry exactly the fields their interfaces declare (every required field,
// nothing undeclared). Needs the wasm build (scripts/build-wasm.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);
const ts = require(join(root, "node_modules", "typescript"));
assert.ok(existsSync(join(root, "pkg", "dist", "web", "streams_rebalance_bg.wasm")), "run scripts/build-wasm.sh first");
const m = require(join(root, "pkg", "node.cjs"));

const dtsPath = join(root, "pkg", "index.d.ts");
const source = ts.createSourceFile(dtsPath, readFileSync(dtsPath, "utf8"), ts.ScriptTarget.ES2022, true);

const isExported = (n) => n.modifiers?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword);
const isStatic = (n) => n.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);

/** Declared functions and classes (with their instance and static members). */
const functions = new Set();
const classes = new Map();
/** Declared interfaces: name -> { required: Set, optional: Set, open: bool } */
const interfaces = new Map();
for (const n of source.statements) {
  if (ts.isFunctionDeclaration(n) && isExported(n)) {
    const isDefault = n.modifiers?.some((x) => x.kind === ts.SyntaxKind.DefaultKeyword);
    functions.add(isDefault ? "default" : n.name.text);
  } else if (ts.isClassDeclaration(n) && isExported(n)) {
    const instance = new Set();
    const statics = new Set();
    for (const member of n.members) {
      if (!member.name) continue;
      (isStatic(member) ? statics : instance).add(member.name.text);
    }
    classes.set(n.name.text, { instance, statics });
  } else if (ts.isInterfaceDeclaration(n) && isExported(n)) {
    const required = new Set();
    const optional = new Set();
    let open = false;
    for (const member of n.members) {
      if (ts.isIndexSignatureDeclaration(member)) open = true;
      else if (member.name) (member.questionToken ? optional : required).add(member.name.text);
    }
    interfaces.set(n.name.text, { required, optional, open });
  }
}

// What the runtime exports beyond the API: wasm-bindgen's start function and the
// internals of its classes, and the package's own internals, named with a leading
// `__` (the packed fast path of assign(): pkg/js/fast-assign.mjs).
const INTERNAL_NAMES = new Set(["start", "__destroy_into_raw", "__wrap", "constructor", "length", "name", "prototype"]);
const INTERNAL = { has: (name) => INTERNAL_NAMES.has(name) || name.startsWith("__") };

test("every export of the module is declared, and every declaration exists", () => {
  const runtimeFunctions = new Set();
  const runtimeClasses = new Map();
  for (const [name, value] of Object.entries(m)) {
    if (INTERNAL.has(name)) continue;
    const proto = typeof value === "function" && value.prototype ? Object.getOwnPropertyNames(value.prototype) : [];
    if (proto.includes("free")) {
      runtimeClasses.set(name, {
        instance: new Set(proto.filter((p) => !INTERNAL.has(p))),
        statics: new Set(Object.getOwnPropertyNames(value).filter((p) => !INTERNAL.has(p))),
      });
    } else {
      runtimeFunctions.add(name);
    }
  }
  // node.cjs adds init() and initSync(); ESM's default export is init.
  runtimeFunctions.add("default");
  runtimeFunctions.delete("init");
  assert.deepEqual([...runtimeFunctions].sort(), [...functions].sort(), "exported functions (index.d.ts vs module)");
  assert.deepEqual([...runtimeClasses.keys()].sort(), [...classes.keys()].sort(), "exported classes");
  for (const [name, rt] of runtimeClasses) {
    const declared = classes.get(name);
    // Getters declared as readonly properties show up on the prototype too.
    assert.deepEqual([...rt.instance].sort(), [...declared.instance].sort(), `methods of ${name}`);
    assert.deepEqual([...rt.statics].sort(), [...declared.statics].sort(), `static methods of ${name}`);
  }
});

/** Asserts that `value` has the fields `interface` declares: all required, none unknown. */
function conforms(value, name, where = name) {
  const decl = interfaces.get(name);
  assert.ok(decl, `index.d.ts declares no interface ${name}`);
  assert.equal(typeof value, "object", `${where} is not an object`);
  const keys = Object.keys(value);
  for (const k of decl.required) assert.ok(keys.includes(k), `${where}: declared field ${k} of ${name} is missing at run time`);
  if (!decl.open) {
    for (const k of keys) {
      assert.ok(decl.required.has(k) || decl.optional.has(k), `${where}: field ${k} is not declared in ${name}`);
    }
  }
}

const TOPOLOGY = {
  epoch: 0,
  subtopologies: [
    { subtopologyId: "0", sourceTopics: ["orders"], repartitionSinkTopics: ["app-rep"] },
    {
      subtopologyId: "1",
      repartitionSourceTopics: [{ name: "app-rep" }],
      stateChangelogTopics: [{ name: "app-store-changelog" }],
    },
  ],
};

function joinRequest(processId, instanceId = null) {
  return {
    groupId: "app",
    memberId: "",
    memberEpoch: 0,
    instanceId,
    rebalanceTimeoutMs: 30000,
    topology: TOPOLOGY,
    activeTasks: [],
    standbyTasks: [],
    warmupTasks: [],
    processId,
    userEndpoint: { host: processId, port: 8080 },
    clientTags: [{ key: "zone", value: processId }],
  };
}

test("what the Coordinator returns has the declared fields", () => {
  const c = new m.Coordinator({ numStandbyReplicas: 1 });
  const created = c.createTopics([{ name: "orders", numPartitions: 4 }]);
  created.forEach((r, i) => conforms(r, "TopicResult", `createTopics()[${i}]`));
  c.topics().forEach((t, i) => conforms(t, "TopicDescription", `topics()[${i}]`));
  const a = c.heartbeat(joinRequest("p1", "static-1"), { nowMs: 0 });
  const b = c.heartbeat(joinRequest("p2"), { nowMs: 10 });
  for (const r of [a, b]) {
    conforms(r, "StreamsGroupHeartbeatResponse");
    assert.equal(r.errorCode, 0, JSON.stringify(r));
  }
  for (const s of a.status ?? []) conforms(s, "Status");
  const owned = (r) => ({ activeTasks: r.activeTasks, standbyTasks: r.standbyTasks, warmupTasks: r.warmupTasks });
  c.heartbeat({ groupId: "app", memberId: a.memberId, memberEpoch: a.memberEpoch, ...owned(a) }, { nowMs: 20 });
  const events = c.advanceTime(120000);
  assert.ok(events.length > 0, "members time out");
  events.forEach((e, i) => conforms(e, "CoordinatorEvent", `advanceTime()[${i}]`));

  const c2 = new m.Coordinator();
  c2.createTopics([{ name: "orders", numPartitions: 4 }]);
  const j = c2.heartbeat(joinRequest("p1"));
  const d = c2.describe(["app", "missing"]);
  conforms(d, "StreamsGroupDescribeResponse");
  d.groups.forEach((g, i) => conforms(g, "DescribedGroup", `describe().groups[${i}]`));
  const group = d.groups[0];
  conforms(group.topology, "DescribedTopology");
  group.topology.subtopologies.forEach((s) => conforms(s, "DescribedSubtopology"));
  group.members.forEach((mm) => {
    conforms(mm, "DescribedMember");
    conforms(mm.assignment, "Assignment");
    conforms(mm.targetAssignment, "Assignment");
  });
  const listed = c2.listGroups();
  conforms(listed, "ListGroupsResponse");
  listed.groups.forEach((g) => conforms(g, "ListedGroup"));

  const snap = c2.snapshot();
  conforms(snap, "Snapshot");
  snap.groups.forEach((g) => {
    conforms(g, "GroupSnapshot");
    if (g.configuredTopology) conforms(g.configuredTopology, "ConfiguredTopologySnapshot");
    g.members.forEach((mm) => {
      conforms(mm, "MemberSnapshot");
      for (const k of ["assignment", "pendingRevocation", "targetAssignment"]) conforms(mm[k], "TaskLists", `member.${k}`);
    });
  });
  const records = c2.records();
  records.forEach((r, i) => conforms(r, "CoordinatorRecord", `records()[${i}]`));
  const again = m.Coordinator.fromRecords(null, records);
  assert.deepEqual(again.snapshot(), snap);
  assert.equal(j.errorCode, 0);
  conforms(m.version(), "Version");
});

test("what assign() and the Simulation return has the declared fields", () => {
  const spec = {
    subtopologies: [
      { subtopologyId: "0", numPartitions: 4, stateful: true },
      { subtopologyId: "1", numPartitions: 2, stateful: false },
    ],
    members: [
      { memberId: "a", processId: "p1" },
      { memberId: "b", processId: "p2" },
    ],
  };
  const result = m.assign("sticky", spec, { numStandbyReplicas: 1 });
  conforms(result, "GroupAssignment");
  for (const [id, ma] of Object.entries(result.members)) conforms(ma, "MemberAssignment", `members.${id}`);
  const quality = m.assignmentQuality(spec, result);
  conforms(quality, "AssignmentQuality");
  const q = interfaces.get("AssignmentQuality");
  for (const k of Object.keys(quality)) assert.ok(q.required.has(k), `assignmentQuality field ${k} is not declared`);
  assert.equal(typeof m.warmupCaughtUp(spec), "boolean");

  const presets = m.Simulation.presets();
  assert.ok(presets.length > 0);
  const sim = m.Simulation.fromScenario(presets[0].scenario);
  const events = sim.runUntilStable(120000);
  assert.ok(events.length > 0);
  events.forEach((e, i) => conforms(e, "SimulationEvent", `runUntilStable()[${i}]`));
  const snap = sim.snapshot();
  conforms(snap, "SimulationSnapshot");
  conforms(snap.coordinator, "Snapshot", "simulation snapshot.coordinator");
  for (const v of m.checkInvariants(snap.coordinator)) conforms(v, "Violation");
  assert.deepEqual(m.checkInvariants(snap.coordinator), []);
});
