// The package's assign() takes a packed fast path for plain group spec objects
// (pkg/js/fast-assign.mjs + src/assignor/packed.rs) and the strict wasm export for
// everything else. Differential test: over many random and hostile group specs, the
// package's assign() returns exactly what the strict export returns (deep-equal and
// the same JSON.stringify, so the same key order), or throws an Error with exactly the
// same message; and the fast path alone never answers where the strict path throws.
// Needs the wasm build (scripts/build-wasm.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);
assert.ok(existsSync(join(root, "pkg", "dist", "node", "fast-assign.js")), "run scripts/build-wasm.sh first");

// The package (node.cjs puts the fast assign in place of the strict one) ...
const pkg = require(join(root, "pkg", "node.cjs"));
// ... and a second, untouched instance of the wasm-bindgen module: its assign is the
// strict one.
const distPath = join(root, "pkg", "dist", "node", "streams_rebalance.js");
delete require.cache[require.resolve(distPath)];
const raw = require(distPath);
assert.notEqual(raw, pkg);
const { fastAssign, fastWarmupCaughtUp, fastAssignmentQuality } = require(join(root, "pkg", "dist", "node", "fast-assign.js"));

const FELL_BACK = "fell back to the strict path";
/** The fast path alone: throws FELL_BACK where the package would call the strict one. */
const fastOnly = fastAssign(() => {
  throw new Error(FELL_BACK);
}, raw.__assignPacked);

function outcome(f) {
  try {
    const value = f();
    return { value, json: JSON.stringify(value) };
  } catch (e) {
    return { error: e instanceof Error, message: e instanceof Error ? e.message : String(e) };
  }
}

/** The same for warmupCaughtUp(). */
const fastOnlyWarmup = fastWarmupCaughtUp(() => {
  throw new Error(FELL_BACK);
}, raw.__warmupCaughtUpPacked);

/** The same for assignmentQuality(). */
const fastOnlyQuality = fastAssignmentQuality(() => {
  throw new Error(FELL_BACK);
}, raw.__assignmentQualityPacked);

let fastAnswers = 0;
let fastQualityAnswers = 0;
let caughtUp = 0;
let fastWarmupAnswers = 0;
let strictErrors = 0;

/** Asserts the package's assign() and the strict one agree on these arguments. */
function agree(name, spec, config, what) {
  const strict = outcome(() => raw.assign(name, spec, config));
  const got = outcome(() => pkg.assign(name, spec, config));
  if ("error" in strict) {
    strictErrors++;
    assert.deepEqual(got, strict, `${what}: the same error`);
  } else {
    assert.ok(!("error" in got), `${what}: threw ${got.message}`);
    assert.equal(got.json, strict.json, `${what}: the same JSON`);
    assert.deepStrictEqual(got.value, strict.value, `${what}: deep-equal`);
  }
  const fast = outcome(() => fastOnly(name, spec, config));
  if ("error" in fast) {
    assert.equal(fast.message, FELL_BACK, `${what}: the fast path never throws its own error`);
  } else {
    fastAnswers++;
    assert.ok(!("error" in strict), `${what}: the fast path answered where the strict path throws: ${strict.message}`);
    assert.equal(fast.json, strict.json, `${what}: the fast path's JSON`);
  }
  return { strict, fast };
}

/** Asserts the package's warmupCaughtUp() and the strict one agree. */
function agreeWarmup(spec, config, what) {
  const strict = outcome(() => raw.warmupCaughtUp(spec, config));
  const got = outcome(() => pkg.warmupCaughtUp(spec, config));
  assert.deepEqual(got, strict, `${what}: warmupCaughtUp`);
  if (strict.value === true) caughtUp++;
  const fast = outcome(() => fastOnlyWarmup(spec, config));
  if ("error" in fast) {
    assert.equal(fast.message, FELL_BACK, `${what}: warmupCaughtUp's fast path never throws its own error`);
  } else {
    fastWarmupAnswers++;
    assert.ok(!("error" in strict), `${what}: warmupCaughtUp's fast path answered where the strict path throws`);
    assert.equal(fast.json, strict.json, `${what}: warmupCaughtUp's fast path`);
  }
}

/** Asserts the package's assignmentQuality() and the strict one agree (with the
 * config, when given: it adds standbysUnfilled). */
function agreeQuality(spec, result, what, config) {
  const strict = outcome(() => raw.assignmentQuality(spec, result, config));
  const got = outcome(() => pkg.assignmentQuality(spec, result, config));
  assert.deepEqual(got, strict, `${what}: assignmentQuality`);
  const fast = outcome(() => fastOnlyQuality(spec, result, config));
  if ("error" in fast) {
    assert.equal(fast.message, FELL_BACK, `${what}: assignmentQuality's fast path never throws its own error`);
  } else {
    fastQualityAnswers++;
    assert.ok(!("error" in strict), `${what}: assignmentQuality's fast path answered where the strict path throws`);
    assert.equal(fast.json, strict.json, `${what}: assignmentQuality's fast path`);
  }
}

// A seeded generator: the same cases on every run.
let seed = 0x2545f491;
function rnd() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}
const int = (n) => Math.floor(rnd() * n);
const pick = (xs) => xs[int(xs.length)];
const chance = (p) => rnd() < p;

const IDS = ["0", "1", "2", "10", "9", "a", "b", "zé", "a😀", "", "sub-x", "007", "4294967295", "-1"];
const MEMBER_IDS = ["m1", "m2", "m3", "10", "9", "0", "😀", "é", "", "member-0", "Z", "a b", "constructor", "toString", "4294967294"];

function subtopologies() {
  const n = int(5);
  const ids = [...IDS].sort(() => rnd() - 0.5).slice(0, n);
  return ids.map((subtopologyId) => {
    const s = { subtopologyId, numPartitions: int(7) };
    if (chance(0.7)) s.stateful = chance(0.5);
    return s;
  });
}

const REMOVED = { subtopologyId: "removed", numPartitions: 3 };

function taskList(subs) {
  if (subs.length === 0 || chance(0.3)) return pick([undefined, null, []]);
  const out = [];
  for (let i = int(3); i >= 0; i--) {
    const s = chance(0.1) ? REMOVED : pick(subs);
    const partitions = [];
    for (let j = int(4); j > 0; j--) partitions.push(int(Math.max(1, s.numPartitions + 1)));
    out.push({ subtopologyId: s.subtopologyId, partitions });
  }
  return out;
}

function offsetList(subs) {
  if (subs.length === 0 || chance(0.4)) return pick([undefined, null, []]);
  const out = [];
  const seen = new Set();
  for (let i = int(4); i >= 0; i--) {
    const s = chance(0.1) ? REMOVED : pick(subs);
    const partition = int(Math.max(1, s.numPartitions));
    const key = `${s.subtopologyId}:${partition}`;
    if (seen.has(key) && chance(0.9)) continue; // now and then a duplicate (an error)
    seen.add(key);
    const offset = pick([0, 5, 10_000, 20_001, 1_000_000, -3, 2 ** 53 - 1, -(2 ** 53 - 1)]);
    out.push({ subtopologyId: s.subtopologyId, partition, offset });
  }
  return out;
}

function member(id, subs) {
  const m = { memberId: id, processId: pick(["p1", "p2", "p3", "p😀"]) };
  if (chance(0.3)) m.topologyEpoch = pick([null, 0, 1, 2]);
  if (chance(0.3)) m.rackId = pick([null, "r1", "r2"]);
  if (chance(0.4)) {
    m.clientTags = pick([
      null,
      {},
      { zone: pick(["a", "b"]) },
      { zone: pick(["a", "b"]), rack: "r" },
      [{ key: "zone", value: pick(["a", "b", "c"]) }],
      [{ key: "zone", value: "a" }, { key: "rack", value: pick(["x", "y"]) }],
    ]);
  }
  for (const k of ["activeTasks", "standbyTasks", "warmupTasks"]) {
    const l = taskList(subs);
    if (l !== undefined || chance(0.5)) m[k] = l;
  }
  for (const k of ["taskOffsets", "taskEndOffsets"]) {
    const l = offsetList(subs);
    if (l !== undefined || chance(0.5)) m[k] = l;
  }
  return m;
}

function groupSpec() {
  const subs = subtopologies();
  const ids = [...MEMBER_IDS].sort(() => rnd() - 0.5).slice(0, int(7));
  const spec = { subtopologies: subs, members: ids.map((id) => member(id, subs)) };
  if (chance(0.5)) spec.groupTopologyEpoch = pick([0, 1, 2]);
  return spec;
}

function config() {
  return pick([
    undefined,
    null,
    {},
    { numStandbyReplicas: 1 },
    { numStandbyReplicas: 2, maxWarmupReplicas: 1, acceptableRecoveryLag: 100 },
    { acceptableRecoveryLag: "20000" },
  ]);
}

test("random valid group specs: the package's assign() equals the strict one, and mostly takes the fast path", () => {
  fastAnswers = 0;
  strictErrors = 0;
  caughtUp = 0;
  fastWarmupAnswers = 0;
  fastQualityAnswers = 0;
  const n = 1500;
  for (let i = 0; i < n; i++) {
    const spec = groupSpec();
    const c = config();
    const { strict } = agree(pick(["sticky", "highly_available"]), spec, c, `valid #${i}: ${JSON.stringify(spec)}`);
    agreeWarmup(spec, c, `valid #${i}: ${JSON.stringify(spec)}`);
    if ("value" in strict) {
      agreeQuality(spec, strict.value, `valid #${i}: ${JSON.stringify(spec)}`, i % 2 ? c : undefined);
    }
  }
  assert.ok(fastQualityAnswers > n * 0.8, `assignmentQuality's fast path answered ${fastQualityAnswers} of ${n}`);
  assert.ok(caughtUp > 0, "some generated warm-ups have caught up");
  assert.ok(fastWarmupAnswers > n * 0.8, `warmupCaughtUp's fast path answered ${fastWarmupAnswers} of ${n}`);
  // Duplicate offsets (an error) are rare in the generator: most cases are answered
  // by the fast path, so the differential above really compares two paths.
  assert.ok(fastAnswers > n * 0.8, `fast path answered ${fastAnswers} of ${n}`);
  assert.ok(strictErrors > 0, "some generated specs are errors");
});

// Values that are wrong in at least one place of a group spec.
const bigint = typeof BigInt === "function" ? BigInt(5) : 5;
const HOSTILE = [
  () => null,
  () => undefined,
  () => -1,
  () => -0,
  () => 1.5,
  () => 2 ** 31,
  () => -(2 ** 31) - 1,
  () => 2 ** 53,
  () => 1e21,
  () => NaN,
  () => Infinity,
  () => "x",
  () => "9007199254740993",
  () => "\ud800",
  () => "a\udc00b",
  () => bigint,
  () => true,
  () => [],
  () => ({}),
  () => [1, , 2], // eslint-disable-line no-sparse-arrays
  () => [undefined],
  () => [null],
  () => new Date(0),
  () => new String("m1"),
  () => new Number(1),
  () => Object.create({ memberId: "inherited" }),
  () => new Map([["a", 1]]),
  () => () => 1,
  () => Symbol("s"),
  () => "__proto__",
  () => "x".repeat(40_000),
  () => Object.assign([{ subtopologyId: "0", partitions: [0] }], { toJSON: () => [] }),
  () => ({ toJSON: () => ({}) }),
  () => {
    const o = { subtopologyId: "0", numPartitions: 1 };
    Object.defineProperty(o, "stateful", { enumerable: true, get: () => true });
    return o;
  },
  () => {
    const o = Object.create(null);
    o.memberId = "nullproto";
    o.processId = "p";
    return o;
  },
];

/** Every object and array in a spec, with a way to set one of its keys. */
function nodes(v, out = []) {
  if (v !== null && typeof v === "object" && (Array.isArray(v) || [Object.prototype, null].includes(Object.getPrototypeOf(v)))) {
    out.push(v);
    for (const k of Object.keys(v)) nodes(v[k], out);
  }
  return out;
}

function mutate(spec) {
  try {
    mutateOnce(spec);
  } catch {
    // A getter-only property (one of the hostile values) cannot be set: skip.
  }
}

function mutateOnce(spec) {
  const all = nodes(spec);
  const target = pick(all);
  const keys = Object.keys(target);
  const r = rnd();
  if (r < 0.1) {
    target[pick(["unknown", "memberid", "stateful ", "partition", "toJSON"])] = 1; // an unknown key
  } else if (r < 0.2 && keys.length > 0) {
    delete target[pick(keys)]; // maybe a required one
  } else if (r < 0.3 && Array.isArray(target)) {
    target.length += 2; // holes at the end
  } else if (keys.length > 0) {
    target[pick(keys)] = pick(HOSTILE)();
  }
}

test("hostile group specs: the same result or exactly the same Error as the strict path", () => {
  fastAnswers = 0;
  strictErrors = 0;
  const n = 3000;
  for (let i = 0; i < n; i++) {
    const spec = groupSpec();
    const before = JSON.stringify(spec);
    for (let k = 1 + int(2); k > 0; k--) mutate(spec);
    const c = config();
    agree(pick(["sticky", "highly_available"]), spec, c, `hostile #${i} from ${before}`);
    agreeWarmup(spec, c, `hostile #${i} from ${before}`);
    // A hostile assignment to rate, of a valid spec and of the hostile one.
    const fresh = groupSpec();
    const result = outcome(() => raw.assign("sticky", fresh));
    if ("value" in result) {
      const r = result.value;
      for (let k = int(3); k > 0; k--) mutate(r);
      agreeQuality(fresh, r, `hostile result #${i} of ${JSON.stringify(fresh)}`);
      agreeQuality(spec, r, `hostile result #${i} of the hostile spec`);
    }
  }
  assert.ok(strictErrors > n / 2, `${strictErrors} of ${n} were errors`);
});

test("each fall-back rule, one at a time", () => {
  const base = () => ({
    subtopologies: [
      { subtopologyId: "a", numPartitions: 3, stateful: true },
      { subtopologyId: "b", numPartitions: 2 },
    ],
    members: [
      { memberId: "m1", processId: "p1", taskOffsets: [{ subtopologyId: "a", partition: 0, offset: 7 }] },
      { memberId: "m2", processId: "p2", activeTasks: [{ subtopologyId: "a", partitions: [0, 1] }] },
    ],
  });
  const { fast } = agree("highly_available", base(), null, "the base case");
  assert.ok(!("error" in fast), "the base case takes the fast path");
  const cases = {
    "a member id of __proto__": (s) => (s.members[0].memberId = "__proto__"),
    "a BigInt offset": (s) => (s.members[0].taskOffsets[0].offset = bigint),
    "a string offset": (s) => (s.members[0].taskOffsets[0].offset = "7"),
    "an offset beyond 2^53": (s) => (s.members[0].taskOffsets[0].offset = 2 ** 53 + 2),
    "a duplicate member": (s) => (s.members[1].memberId = "m1"),
    "a duplicate subtopology": (s) => (s.subtopologies[1].subtopologyId = "a"),
    "a duplicate offset": (s) => s.members[0].taskOffsets.push({ subtopologyId: "a", partition: 0, offset: 1 }),
    "a duplicate client tag": (s) => (s.members[0].clientTags = [{ key: "z", value: "1" }, { key: "z", value: "2" }]),
    "a lone surrogate": (s) => (s.members[0].processId = "p\ud800"),
    "a hole": (s) => (s.members[1].activeTasks[0].partitions = [0, , 1]), // eslint-disable-line no-sparse-arrays
    "a negative partition": (s) => (s.members[1].activeTasks[0].partitions = [-1]),
    "a fractional partition count": (s) => (s.subtopologies[0].numPartitions = 2.5),
    "a null group topology epoch": (s) => (s.groupTopologyEpoch = null),
    "a null stateful": (s) => (s.subtopologies[0].stateful = null),
    "an unknown key": (s) => (s.members[0].rackid = "r"),
    "a missing processId": (s) => delete s.members[0].processId,
    "a class instance": (s) => (s.members[0] = new (class M { constructor() { this.memberId = "m1"; this.processId = "p"; } })()),
    "a string over 32767 bytes": (s) => (s.members[0].rackId = "é".repeat(20_000)),
  };
  for (const [what, change] of Object.entries(cases)) {
    const s = base();
    change(s);
    const { fast } = agree("highly_available", s, null, what);
    assert.equal(fast.message, FELL_BACK, `${what}: falls back`);
  }
  // Tasks and offsets of a subtopology the spec no longer holds stay on the fast path.
  for (const [what, change] of Object.entries({
    "a task of a removed subtopology": (s) => (s.members[1].activeTasks[0].subtopologyId = "gone"),
    "an offset of a removed subtopology": (s) => (s.members[0].taskOffsets[0].subtopologyId = "gone"),
    "both, and a warm-up of another": (s) => {
      s.members[1].activeTasks.push({ subtopologyId: "gone", partitions: [3] });
      s.members[1].warmupTasks = [{ subtopologyId: "gone2", partitions: [0] }];
      s.members[0].taskEndOffsets = [{ subtopologyId: "gone", partition: 3, offset: 9 }];
    },
  })) {
    const s = base();
    change(s);
    for (const name of ["sticky", "highly_available"]) {
      const r = agree(name, s, { numStandbyReplicas: 1 }, what);
      assert.ok(!("error" in r.fast), `${what}: the fast path answers`);
    }
  }
  // What JSON.stringify drops (undefined values) the fast path drops too.
  const s = base();
  s.members[0].rackId = undefined;
  s.unknownButUndefined = undefined;
  const r = agree("sticky", s, null, "undefined values");
  assert.ok(!("error" in r.fast), "undefined values keep the fast path");
  // A toJSON some code put on a prototype: the fast path steps aside.
  Object.prototype.toJSON = function () {
    return this;
  };
  try {
    const r2 = agree("sticky", base(), null, "Object.prototype.toJSON");
    assert.equal(r2.fast.message, FELL_BACK);
  } finally {
    delete Object.prototype.toJSON;
  }
  // An enumerable property on Object.prototype: for-in would see it.
  Object.prototype.rackId = "polluted";
  try {
    const r3 = agree("sticky", base(), null, "Object.prototype pollution");
    assert.equal(r3.fast.message, FELL_BACK);
  } finally {
    delete Object.prototype.rackId;
  }
});

test("a group spec whose JSON text is beyond the 32 MB input limit throws the strict error", () => {
  const long = "p".repeat(30_000);
  const members = Array.from({ length: 1150 }, (_, i) => ({ memberId: `m${i}`, processId: long }));
  const spec = { subtopologies: [{ subtopologyId: "a", numPartitions: 1 }], members };
  assert.ok(JSON.stringify(spec).length > 32 << 20);
  const { strict, fast } = agree("sticky", spec, null, "beyond 32 MB");
  assert.match(strict.message, /bytes of JSON; at most 33554432 are accepted/);
  assert.equal(fast.message, FELL_BACK);
  // Below the limit the fast path takes it.
  const small = { ...spec, members: members.slice(0, 100) };
  assert.ok(!("error" in agree("sticky", small, null, "below 32 MB").fast));
});

test("a getter that calls assign() again gets a correct answer (no shared scratch state is corrupted)", () => {
  const inner = {
    subtopologies: [{ subtopologyId: "x", numPartitions: 2 }],
    members: [{ memberId: "i", processId: "p" }],
  };
  let innerResult = null;
  const outer = {
    subtopologies: [{ subtopologyId: "a", numPartitions: 4 }],
    members: [{ memberId: "o1", processId: "p1" }],
  };
  Object.defineProperty(outer.members[0], "rackId", {
    enumerable: true,
    get() {
      innerResult = pkg.assign("sticky", inner);
      return "r";
    },
  });
  const got = pkg.assign("sticky", outer);
  assert.deepEqual(innerResult, raw.assign("sticky", inner));
  const plainOuter = { ...outer, members: [{ memberId: "o1", processId: "p1", rackId: "r" }] };
  assert.equal(JSON.stringify(got), JSON.stringify(raw.assign("sticky", plainOuter)));
});

test("the benchmark's groups: the same result on both paths, and the fast path takes them", () => {
  const subs = Array.from({ length: 10 }, (_, i) => ({ subtopologyId: `topic-${i}_subtopology`, numPartitions: 100, stateful: i % 2 === 0 }));
  const members = Array.from({ length: 100 }, (_, i) => ({ memberId: `member-${i}`, processId: `process-${i % 40}` }));
  const spec = { subtopologies: subs, members, groupTopologyEpoch: 0 };
  for (const standby of [0, 1]) {
    const config = { numStandbyReplicas: standby };
    const first = agree("sticky", spec, config, `initial, standby ${standby}`);
    assert.ok(!("error" in first.fast));
    const again = {
      ...spec,
      members: [
        ...members.map((m) => ({ ...m, ...first.strict.value.members[m.memberId] })),
        { memberId: "newMember", processId: "process-newMember" },
      ],
    };
    for (const name of ["sticky", "highly_available"]) {
      const r = agree(name, again, config, `${name} reassignment, standby ${standby}`);
      assert.ok(!("error" in r.fast));
    }
  }
});

test("every entry point of the package gives the fast assign()", async () => {
  const esm = await import(pathToFileURL(join(root, "pkg", "node.mjs")).href);
  assert.equal(esm.assign, pkg.assign, "node.mjs re-exports node.cjs's assign");
  assert.notEqual(pkg.assign, raw.assign);
  const web = await import(pathToFileURL(join(root, "pkg", "dist", "web", "index.js")).href);
  web.initSync({ module: readFileSync(join(root, "pkg", "dist", "web", "streams_rebalance_bg.wasm")) });
  assert.equal(typeof web.default, "function", "init() is the default export");
  assert.equal(web.assign.toString(), pkg.assign.toString(), "the web build's assign is the same wrapper");
  assert.equal(web.warmupCaughtUp.toString(), pkg.warmupCaughtUp.toString());
  assert.equal(web.assignmentQuality.toString(), pkg.assignmentQuality.toString());
  assert.equal(esm.assignmentQuality, pkg.assignmentQuality);
  assert.equal(esm.warmupCaughtUp, pkg.warmupCaughtUp);
  assert.notEqual(pkg.warmupCaughtUp, raw.warmupCaughtUp);
  for (let i = 0; i < 200; i++) {
    const spec = groupSpec();
    const c = config();
    const a = outcome(() => web.assign("sticky", spec, c));
    const b = outcome(() => raw.assign("sticky", spec, c));
    assert.deepEqual(a, b, JSON.stringify(spec));
  }
  // The web build's strict errors come through the same way.
  assert.throws(() => web.assign("sticky", { subtopologies: [], members: [{}] }), {
    message: "invalid groupSpec: members[0].memberId: missing required field",
  });
});
