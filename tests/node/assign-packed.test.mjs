// A spec given to assign() as a JS object has its owned task lists and reported
// offsets packed into buffers by the binding (src/wasm/packed.rs, packSpec); a spec
// given as JSON text is decoded as text. Both must give the same answer for every
// input: the same assignment, or the same error (message, kind, path). Random specs
// from a seeded generator, each also mutated in the ways the packer must refuse to
// pack, plus the JavaScript-only cases (toJSON, holes, BigInt, -0, U+0000 and lone
// surrogates).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import test from "node:test";

const require = createRequire(import.meta.url);
const { assign, assignmentQuality, warmupCaughtUp, AssignIoFloor } = require("../../pkg/node.cjs");

/** Seeded generator (mulberry32): the same cases on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bigintText = (v) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));

/** The outcome of one call: its result as JSON, or its error's message, kind and path. */
function outcome(fn) {
  try {
    return { ok: JSON.stringify(fn()) };
  } catch (e) {
    return { message: e.message, kind: e.kind, path: e.path };
  }
}

function sameAsText(name, spec, config) {
  const text = bigintText(spec);
  const viaObject = outcome(() => assign(name, spec, config));
  const viaText = outcome(() => assign(name, text, config));
  assert.deepEqual(viaObject, viaText, `spec ${text.slice(0, 400)}`);
  assert.deepEqual(
    outcome(() => warmupCaughtUp(spec, config)),
    outcome(() => warmupCaughtUp(text, config)),
  );
  return viaObject;
}

/** `m[key]`: absent below `absent`, null below `nul`, else `make()`. */
function given(r, absent, nul, m, key, make) {
  const x = r();
  if (x < absent) return;
  m[key] = x < nul ? null : make();
}

/** `duplicates`: now and then one member id given twice. */
function randomSpec(r, duplicates = false) {
  const subs = 1 + Math.floor(r() * 4);
  const parts = 1 + Math.floor(r() * 6);
  const subtopologies = Array.from({ length: subs }, (_, i) => {
    const s = { subtopologyId: `s${i}`, numPartitions: parts, stateful: r() < 0.5 };
    // `stateful` may be left out (false).
    if (!s.stateful && r() < 0.3) delete s.stateful;
    return s;
  });
  const members = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => {
    const m = { memberId: `m${i}`, processId: `p${Math.floor(r() * 3)}` };
    // Some members with keys beyond the plain form: those go as JSON text, the others
    // whole (their ids packed), in one spec.
    if (r() < 0.25) m.rackId = `r${Math.floor(r() * 2)}`;
    if (r() < 0.1) m.topologyEpoch = 0;
    for (const role of ["activeTasks", "standbyTasks", "warmupTasks"]) {
      given(r, 0.2, 0.3, m, role, () =>
        subtopologies
          .filter(() => r() < 0.6)
          .map((s) => ({
            subtopologyId: s.subtopologyId,
            partitions: Array.from({ length: parts }, (_, p) => p).filter(() => r() < 0.4),
          })),
      );
    }
    // Reported offsets (packed as well): some members report none, some null.
    for (const key of ["taskOffsets", "taskEndOffsets"]) {
      given(r, 0.3, 0.4, m, key, () =>
        subtopologies
          .filter((s) => s.stateful && r() < 0.7)
          .flatMap((s) =>
            Array.from({ length: parts }, (_, partition) => partition)
              .filter(() => r() < 0.5)
              .map((partition) => ({
                subtopologyId: s.subtopologyId,
                partition,
                offset: key === "taskEndOffsets" ? 1000 : Math.floor(r() * 1200) - 100,
              })),
          ),
      );
    }
    return m;
  });
  // Members in any order (the spec is sorted by id on the way in, each member's lists
  // going with it), and with `duplicates` now and then one id given twice.
  if (r() < 0.5) {
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [members[i], members[j]] = [members[j], members[i]];
    }
  }
  if (duplicates && members.length > 1 && r() < 0.05) members[members.length - 1].memberId = members[0].memberId;
  return { subtopologies, members, groupTopologyEpoch: 0 };
}

/** One of the changes the packer must not pack (or must pack exactly as text says). */
const MUTATIONS = [
  (e) => (e.partitions[0] = -1),
  (e) => (e.partitions[0] = 1.5),
  (e) => (e.partitions[0] = "1"),
  (e) => (e.partitions[0] = null),
  (e) => (e.partitions[0] = 2 ** 31),
  (e) => (e.partitions[0] = -0),
  (e) => (e.partitions[0] = Number.NaN),
  (e) => delete e.subtopologyId,
  (e) => delete e.partitions,
  (e) => (e.extra = 1),
  (e) => (e.extra = undefined),
  (e) => (e.subtopologyId = 7),
  (e) => (e.subtopologyId = "bad\u0000id"),
  (e) => (e.subtopologyId = "lone\ud800"),
  (e) => (e.subtopologyId = "x".repeat(40000)),
  (e) => (e.partitions = 3),
  (e) => (e.partitions.length += 2), // holes
  (e) => (e.toJSON = () => ({ subtopologyId: "s0", partitions: [0] })),
];

/** The same for one reported offset. */
const OFFSET_MUTATIONS = [
  (o) => (o.offset = 1.5),
  (o) => (o.offset = 2 ** 53),
  (o) => (o.offset = -(2 ** 53)),
  (o) => (o.offset = Number.MAX_SAFE_INTEGER),
  (o) => (o.offset = -0),
  (o) => (o.offset = "17"),
  (o) => (o.offset = 17n),
  (o) => (o.offset = 9223372036854775807n),
  (o) => (o.offset = null),
  (o) => (o.offset = Number.POSITIVE_INFINITY),
  (o) => delete o.offset,
  (o) => (o.partition = -1),
  (o) => (o.partition = 2 ** 31),
  (o) => (o.partition = -0),
  (o) => (o.partition = "0"),
  (o) => (o.subtopologyId = 3),
  (o) => (o.subtopologyId = "bad\u0000id"),
  (o) => (o.subtopologyId = "unknown"),
  (o) => (o.extra = 1),
  (o) => (o.toJSON = () => ({ subtopologyId: "s0", partition: 0, offset: 5 })),
  (o, list) => list.push({ ...o }), // a duplicate task
];

test("random specs with owned lists decode alike as objects and as JSON text", () => {
  const r = rng(1071);
  const floor = new AssignIoFloor("sticky", randomSpec(r));
  let assigned = 0;
  let packed = 0;
  let refused = 0;
  let duplicated = 0;
  for (let c = 0; c < 400; c++) {
    const spec = randomSpec(r, true);
    const config = { numStandbyReplicas: Math.floor(r() * 2) };
    const name = r() < 0.5 ? "sticky" : "highly_available";
    const ids = new Set(spec.members.map((m) => m.memberId));
    if (ids.size < spec.members.length) {
      duplicated++;
      assert.ok(!sameAsText(name, spec, config).ok, "a member id given twice is refused");
    } else if (sameAsText(name, spec, config).ok) {
      assigned++;
      // Valid specs take the packed path (whole members and text ones mixed), not
      // the JSON text it falls back to.
      if (floor.decodesPacked(spec)) packed++;
    }
    // Then once more, with one entry mutated.
    const entries = spec.members.flatMap((m) => [m.activeTasks, m.standbyTasks, m.warmupTasks].filter(Boolean).flat());
    const victim = entries.find((e) => e.partitions.length > 0);
    if (!victim) continue;
    MUTATIONS[Math.floor(r() * MUTATIONS.length)](victim);
    if (!sameAsText(name, spec, config).ok) refused++;
  }
  assert.ok(assigned > 300, `assigned ${assigned}`);
  assert.equal(packed, assigned);
  assert.ok(duplicated > 5, `duplicated ${duplicated}`);
  assert.ok(refused > 100, `refused ${refused}`);
  floor.free();
});

const ROLES = ["activeTasks", "standbyTasks", "warmupTasks"];

test("a list assign() leaves as given comes back as the given array, and only such a list", () => {
  const r = rng(58);
  let shared = 0;
  let fresh = 0;
  for (let c = 0; c < 300; c++) {
    const spec = randomSpec(r);
    const config = { numStandbyReplicas: Math.floor(r() * 2) };
    const name = r() < 0.5 ? "sticky" : "highly_available";
    if (!outcome(() => assign(name, spec, config)).ok) continue;
    // Fed its own result (lists in the result's form), one member gone or one new.
    const first = assign(name, spec, config);
    for (const m of spec.members) Object.assign(m, first.members[m.memberId]);
    if (r() < 0.5 && spec.members.length > 1) spec.members.splice(Math.floor(r() * spec.members.length), 1);
    else spec.members.push({ memberId: "new", processId: "p-new" });
    sameAsText(name, spec, config);
    const result = assign(name, spec, config);
    for (const m of spec.members) {
      for (const role of ROLES) {
        const list = result.members[m.memberId][role];
        if (m[role] === undefined) continue;
        if (list === m[role]) shared++;
        else {
          assert.notEqual(JSON.stringify(list), JSON.stringify(m[role]), "an unchanged list is the given array");
          fresh++;
        }
      }
    }
  }
  assert.ok(shared > 500 && fresh > 50, `shared ${shared}, fresh ${fresh}`);
});

test("an unchanged list given in another form comes back new, in the result's form", () => {
  const spec = {
    subtopologies: [
      { subtopologyId: "a", numPartitions: 4, stateful: true },
      { subtopologyId: "b", numPartitions: 4 },
    ],
    members: [
      { memberId: "m1", processId: "p1" },
      { memberId: "m2", processId: "p2" },
    ],
  };
  const first = assign("sticky", spec);
  for (const m of spec.members) Object.assign(m, first.members[m.memberId]);
  const canonical = JSON.stringify(first.members.m1.activeTasks);
  assert.equal(canonical, '[{"subtopologyId":"a","partitions":[0,2]},{"subtopologyId":"b","partitions":[0,2]}]');
  const forms = {
    "entries out of id order": [
      { subtopologyId: "b", partitions: [0, 2] },
      { subtopologyId: "a", partitions: [0, 2] },
    ],
    "partitions out of order": [
      { subtopologyId: "a", partitions: [2, 0] },
      { subtopologyId: "b", partitions: [0, 2] },
    ],
    "a subtopology in two entries": [
      { subtopologyId: "a", partitions: [0] },
      { subtopologyId: "a", partitions: [2] },
      { subtopologyId: "b", partitions: [0, 2] },
    ],
    "a partition twice": [
      { subtopologyId: "a", partitions: [0, 0, 2] },
      { subtopologyId: "b", partitions: [0, 2] },
    ],
    "an empty entry": [
      { subtopologyId: "a", partitions: [0, 2] },
      { subtopologyId: "b", partitions: [0, 2] },
      { subtopologyId: "c", partitions: [] },
    ],
    "a partition out of range": [
      { subtopologyId: "a", partitions: [0, 2, 9] },
      { subtopologyId: "b", partitions: [0, 2] },
    ],
    "an unknown subtopology": [
      { subtopologyId: "a", partitions: [0, 2] },
      { subtopologyId: "b", partitions: [0, 2] },
      { subtopologyId: "z", partitions: [1] },
    ],
  };
  // The result's own form is handed back as it is.
  assert.equal(assign("sticky", spec).members.m1.activeTasks, spec.members[0].activeTasks);
  for (const [form, list] of Object.entries(forms)) {
    spec.members[0].activeTasks = list;
    const result = assign("sticky", spec);
    assert.notEqual(result.members.m1.activeTasks, list, form);
    assert.equal(JSON.stringify(result.members.m1.activeTasks), canonical, form);
    // The other member's lists are still its own.
    assert.equal(result.members.m2.activeTasks, spec.members[1].activeTasks, form);
  }
});

test("subtopologies of every form decode alike as objects and as JSON text", () => {
  const base = randomSpec(rng(11));
  const config = { numStandbyReplicas: 1 };
  const floor = new AssignIoFloor("sticky", base);
  const first = () => ({ ...base.subtopologies[0] });
  const withFirst = (s) => ({ ...base, subtopologies: [s, ...base.subtopologies.slice(1)] });
  const inherited = Object.assign(Object.create({ extra: 1 }), first());
  const holey = [...base.subtopologies];
  holey.length += 1;
  // [what, spec, assigned, packed]: every form decodes alike both ways, the same result
  // or the same error naming the same field (the owned lists are packed beside them);
  // the plain forms of a valid spec cross packed, the others in the JSON text.
  const cases = [
    ["plain", base, true, true],
    ["stateful left out", withFirst({ subtopologyId: first().subtopologyId, numPartitions: 2 }), true, true],
    ["stateful undefined", withFirst({ ...first(), stateful: undefined }), true, true],
    ["stateful false", withFirst({ ...first(), stateful: false }), true, true],
    ["numPartitions -0", withFirst({ ...first(), numPartitions: -0 }), true, true],
    ["numPartitions 0", withFirst({ ...first(), numPartitions: 0 }), true, true],
    ["numPartitions 2.5", withFirst({ ...first(), numPartitions: 2.5 }), false],
    ["numPartitions -1", withFirst({ ...first(), numPartitions: -1 }), false],
    ["numPartitions 2^31", withFirst({ ...first(), numPartitions: 2 ** 31 }), false],
    ["numPartitions a string", withFirst({ ...first(), numPartitions: "3" }), false],
    ["numPartitions null", withFirst({ ...first(), numPartitions: null }), false],
    ["numPartitions missing", withFirst({ subtopologyId: first().subtopologyId }), false],
    ["stateful null", withFirst({ ...first(), stateful: null }), false],
    ["stateful 1", withFirst({ ...first(), stateful: 1 }), false],
    ["an unknown key", withFirst({ ...first(), sourceTopics: [] }), false],
    ["an inherited key", withFirst(inherited), true, false],
    ["toJSON", withFirst({ ...first(), toJSON: () => ({ subtopologyId: "t", numPartitions: 1 }) }), true, false],
    ["id a number", withFirst({ ...first(), subtopologyId: 7 }), false],
    ["id missing", withFirst({ numPartitions: 2 }), false],
    ["id with U+0000", withFirst({ ...first(), subtopologyId: "a\0b" }), true, false],
    ["id a lone surrogate", withFirst({ ...first(), subtopologyId: "a\uD800" }), false],
    ["id too long", withFirst({ ...first(), subtopologyId: "x".repeat(40000) }), false],
    ["id given twice", { ...base, subtopologies: [first(), first()] }, false],
    ["an entry null", { ...base, subtopologies: [null] }, false],
    ["an entry an array", { ...base, subtopologies: [[]] }, false],
    ["a hole", { ...base, subtopologies: holey }, false],
    ["no subtopologies", { ...base, subtopologies: [] }, true, true],
    ["subtopologies null", { ...base, subtopologies: null }, false],
    ["subtopologies an object", { ...base, subtopologies: { 0: first() } }, false],
    ["subtopologies missing", { members: base.members }, false],
    // Inherited, they are not the spec's own: JSON.stringify leaves them out.
    ["subtopologies undefined", { ...base, subtopologies: undefined }, false],
    [
      "subtopologies inherited",
      Object.assign(Object.create({ subtopologies: base.subtopologies }), { members: base.members }),
      false,
    ],
    [
      "members inherited",
      Object.assign(Object.create({ members: base.members }), { subtopologies: base.subtopologies }),
      false,
    ],
  ];
  for (const [what, spec, assigned, packed] of cases) {
    for (const name of ["sticky", "highly_available"]) {
      assert.equal(sameAsText(name, spec, config).ok !== undefined, assigned, `${name}: ${what}`);
    }
    if (assigned) assert.equal(floor.packsSubtopologies(spec), packed, `packed: ${what}`);
  }
  floor.free();
});

test("random specs with reported offsets decode alike as objects and as JSON text", () => {
  const r = rng(1073);
  let mutated = 0;
  let refused = 0;
  for (let c = 0; c < 400; c++) {
    const spec = randomSpec(r);
    const config = { numStandbyReplicas: Math.floor(r() * 2), acceptableRecoveryLag: Math.floor(r() * 300) };
    const name = r() < 0.7 ? "highly_available" : "sticky";
    sameAsText(name, spec, config);
    const lists = spec.members.flatMap((m) => [m.taskOffsets, m.taskEndOffsets].filter((l) => l?.length > 0));
    if (lists.length === 0) continue;
    const list = lists[Math.floor(r() * lists.length)];
    const mutation = OFFSET_MUTATIONS[c % OFFSET_MUTATIONS.length];
    mutation(list[Math.floor(r() * list.length)], list);
    mutated++;
    if (!sameAsText(name, spec, config).ok) refused++;
  }
  assert.ok(mutated > 250, `mutated ${mutated}`);
  assert.ok(refused > 80, `refused ${refused}`);
});

// A member's offsets past 32 entries are sorted and built into a map in one pass
// (src/wasm/packed.rs, offset_map): lists in any order, a task given twice at either
// end of the list or next to itself.
test("long lists of reported offsets decode alike as objects and as JSON text", () => {
  const r = rng(2029);
  let long = 0;
  let refused = 0;
  for (let c = 0; c < 120; c++) {
    const subtopologies = Array.from({ length: 8 }, (_, i) => ({
      subtopologyId: `s${i}`,
      numPartitions: 12,
      stateful: i % 4 !== 3,
    }));
    const tasks = subtopologies
      .filter((s) => s.stateful)
      .flatMap((s) => Array.from({ length: 12 }, (_, partition) => ({ subtopologyId: s.subtopologyId, partition })));
    const members = Array.from({ length: 3 }, (_, i) => {
      const reported = tasks.filter(() => r() < 0.7).sort(() => r() - 0.5);
      const m = {
        memberId: `m${i}`,
        processId: `p${i}`,
        taskOffsets: reported.map((t) => ({ ...t, offset: Math.floor(r() * 1200) })),
        taskEndOffsets: reported.map((t) => ({ ...t, offset: 1000 })),
      };
      if (reported.length > 32) long++;
      return m;
    });
    const spec = { subtopologies, members, groupTopologyEpoch: 0 };
    // Packed (else both answers would come from the JSON text).
    if (c === 0) {
      const floor = new AssignIoFloor("highly_available", spec);
      assert.equal(floor.pack(spec), true);
      floor.free();
    }
    if (c % 2 === 1) {
      const list = members[c % 3][c % 4 < 2 ? "taskOffsets" : "taskEndOffsets"];
      const from = [0, list.length - 1, Math.floor(r() * list.length)][c % 3];
      const to = [list.length - 1, 0, from][Math.floor(r() * 3)];
      list.splice(to, 0, { ...list[from], offset: 7 });
    }
    if (!sameAsText("highly_available", spec, { numStandbyReplicas: 1 }).ok) refused++;
  }
  assert.ok(long > 300, `long lists ${long}`);
  assert.equal(refused, 60, "each spec with a task given twice is refused");
});

// The comparisons above pass as well when nothing is packed: here, that plain offsets
// are packed, and that each form the packer must refuse goes as JSON text.
test("plain reported offsets are packed, and the other forms are not", () => {
  const spec = (offset) => ({
    subtopologies: [{ subtopologyId: "0", numPartitions: 2, stateful: true }],
    members: [
      {
        memberId: "a",
        processId: "p",
        activeTasks: [{ subtopologyId: "0", partitions: [0] }],
        taskOffsets: [{ subtopologyId: "0", partition: 1, offset }],
        taskEndOffsets: [{ subtopologyId: "0", partition: 1, offset: 100 }],
      },
    ],
  });
  const floor = new AssignIoFloor("highly_available", spec(5));
  for (const offset of [0, 5, -3, -0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
    assert.equal(floor.pack(spec(offset)), true, `offset ${offset}`);
  }
  for (const offset of [1.5, 2 ** 53, "5", 5n, null, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.equal(floor.pack(spec(offset)), false, `offset ${String(offset)}`);
  }
  const extra = spec(5);
  extra.members[0].taskOffsets[0].extra = 1;
  assert.equal(floor.pack(extra), false, "an extra key");
  floor.free();
});

test("JavaScript-only forms decode as their JSON text says", () => {
  const base = () => ({
    subtopologies: [{ subtopologyId: "0", numPartitions: 4, stateful: true }],
    members: [
      { memberId: "a", processId: "p", activeTasks: [{ subtopologyId: "0", partitions: [0, 1] }] },
      { memberId: "b", processId: "q", activeTasks: [{ subtopologyId: "0", partitions: [2, 3] }] },
    ],
  });
  const cases = {
    "a list with toJSON": (s) => {
      s.members[0].activeTasks.toJSON = () => [];
    },
    "a member with toJSON": (s) => {
      s.members[0].toJSON = () => ({ memberId: "z", processId: "p" });
    },
    "the members with toJSON": (s) => {
      s.members.toJSON = () => [];
    },
    "a hole in the members": (s) => {
      s.members.length = 3;
    },
    "a hole in a list": (s) => {
      s.members[0].activeTasks.length = 2;
    },
    "a member without a prototype": (s) => {
      s.members[0] = Object.assign(Object.create(null), s.members[0]);
    },
    "an entry without a prototype": (s) => {
      s.members[0].activeTasks[0] = Object.assign(Object.create(null), s.members[0].activeTasks[0]);
    },
    "a symbol key": (s) => {
      s.members[0].activeTasks[0][Symbol("x")] = 1;
    },
    "a getter": (s) => {
      Object.defineProperty(s.members[0].activeTasks[0], "partitions", { get: () => [3], enumerable: true });
    },
    "a non-enumerable extra key": (s) => {
      Object.defineProperty(s.members[0].activeTasks[0], "hidden", { value: 1, enumerable: false });
    },
    "a BigInt offset": (s) => {
      s.members[0].taskOffsets = [{ subtopologyId: "0", partition: 0, offset: 10n }];
    },
    "a BigInt partition": (s) => {
      s.members[0].activeTasks[0].partitions[0] = 1n;
    },
    "lists given as undefined": (s) => {
      s.members[0].standbyTasks = undefined;
    },
    "a list that is a string": (s) => {
      s.members[0].activeTasks = "0_1";
    },
    "owned lists that are not sorted": (s) => {
      s.members[0].activeTasks = [
        { subtopologyId: "0", partitions: [1, 0, 1] },
        { subtopologyId: "0", partitions: [3] },
      ];
    },
    "an unknown subtopology and partition": (s) => {
      s.members[0].activeTasks.push({ subtopologyId: "9", partitions: [7] }, { subtopologyId: "0", partitions: [40] });
    },
    "a member with an own __proto__ key": (s) => {
      s.members[0] = JSON.parse(
        '{"memberId":"a","processId":"p","__proto__":1,"activeTasks":[{"subtopologyId":"0","partitions":[0]}]}',
      );
    },
    "a member without lists next to one with them": (s) => {
      s.members.push({ memberId: "c", processId: "r" });
    },
    "a member that is not an object": (s) => {
      s.members[1] = 5;
    },
    "a member id that is a number": (s) => {
      s.members[0].memberId = 7;
    },
    "a process id that is missing": (s) => {
      delete s.members[1].processId;
    },
    "a member id that is missing": (s) => {
      delete s.members[0].memberId;
    },
    "a member id with U+0000": (s) => {
      s.members[0].memberId = "a\u0000b";
    },
    "a process id with a lone surrogate": (s) => {
      s.members[1].processId = "q\udc00";
    },
    "a member and its process id each with U+0000 (as many ids as members if split)": (s) => {
      s.members[0].memberId = "a\u0000b";
      s.members[0].processId = "p\u0000q";
    },
    "lone surrogates that would pair if the ids were joined": (s) => {
      s.members[0].memberId = "a\ud800";
      s.members[1].memberId = "\udc00b";
    },
    "a member id beyond Kafka's STRING limit": (s) => {
      s.members[1].memberId = "m".repeat(40000);
    },
    "an empty member id": (s) => {
      s.members[0].memberId = "";
    },
    "a member id given twice": (s) => {
      s.members[1].memberId = "a";
    },
    "a member id given twice, once with a rack": (s) => {
      s.members.push({ memberId: "a", processId: "r", rackId: "x" });
    },
    "members with and without other keys, in turn": (s) => {
      s.members[0].rackId = "r1";
      s.members.push(
        { memberId: "c", processId: "r", activeTasks: [{ subtopologyId: "0", partitions: [1] }] },
        { memberId: "0", processId: "r", topologyEpoch: 0, standbyTasks: [{ subtopologyId: "0", partitions: [0] }] },
      );
    },
    "an unknown member key": (s) => {
      s.members[1].extra = 1;
    },
    "a member id behind a getter": (s) => {
      Object.defineProperty(s.members[0], "memberId", { get: () => "g", enumerable: true });
    },
    "a member id named __proto__": (s) => {
      s.members[0].memberId = "__proto__";
    },
    // Inherited keys: for-in sees them, JSON.stringify does not.
    "a member's list inherited": (s) => {
      const { activeTasks, ...rest } = s.members[0];
      s.members[0] = Object.assign(Object.create({ activeTasks }), rest);
    },
    "a member's id inherited": (s) => {
      const { memberId, ...rest } = s.members[0];
      s.members[0] = Object.assign(Object.create({ memberId }), rest);
    },
    "a member's unknown key inherited": (s) => {
      s.members[0] = Object.assign(Object.create({ extra: 1 }), s.members[0]);
    },
    "an entry's partitions inherited": (s) => {
      const { partitions, ...rest } = s.members[0].activeTasks[0];
      s.members[0].activeTasks[0] = Object.assign(Object.create({ partitions }), rest);
    },
    "an entry of a class": (s) => {
      class Entry {
        constructor(e) {
          Object.assign(this, e);
        }
      }
      s.members[0].activeTasks[0] = new Entry(s.members[0].activeTasks[0]);
    },
    "an offset inherited": (s) => {
      s.members[0].taskOffsets = [Object.assign(Object.create({ offset: 5 }), { subtopologyId: "0", partition: 0 })];
    },
    "a subtopology's stateful inherited": (s) => {
      const { stateful, ...rest } = s.subtopologies[0];
      s.subtopologies[0] = Object.assign(Object.create({ stateful }), rest);
      s.members[0].standbyTasks = [{ subtopologyId: "0", partitions: [3] }];
    },
    "a subtopology's count inherited": (s) => {
      const { numPartitions, ...rest } = s.subtopologies[0];
      s.subtopologies[0] = Object.assign(Object.create({ numPartitions }), rest);
    },
  };
  for (const [what, change] of Object.entries(cases)) {
    const spec = base();
    change(spec);
    let text;
    try {
      text = bigintText(spec);
    } catch {
      text = null;
    }
    const viaObject = outcome(() => assign("sticky", spec));
    if (text === null) {
      assert.ok(viaObject.message, `${what}: expected an error`);
      continue;
    }
    assert.deepEqual(
      viaObject,
      outcome(() => assign("sticky", text)),
      what,
    );
  }
});

test("assignmentQuality reads a packed spec as it reads the JSON text", () => {
  const r = rng(7);
  for (let c = 0; c < 50; c++) {
    const spec = randomSpec(r);
    const result = assign("sticky", spec);
    const text = JSON.stringify(spec);
    assert.deepEqual(
      outcome(() => assignmentQuality(spec, result)),
      outcome(() => assignmentQuality(text, result)),
    );
  }
});

// assignmentQuality() packs the result it rates as well (src/wasm/packed.rs,
// packAssignment): the same figures, or the same error, as from its JSON text.
function sameResultAsText(spec, result, config) {
  const viaObject = outcome(() => assignmentQuality(spec, result, config));
  let text;
  try {
    text = bigintText(result);
  } catch {
    assert.ok(viaObject.message, "a result with no JSON text is an error");
    return viaObject;
  }
  assert.deepEqual(
    viaObject,
    outcome(() => assignmentQuality(spec, text, config)),
    `result ${text.slice(0, 400)}`,
  );
  return viaObject;
}

test("random results rate alike as objects and as JSON text", () => {
  const r = rng(1074);
  const floor = new AssignIoFloor("sticky", randomSpec(r));
  let packed = 0;
  let refused = 0;
  for (let c = 0; c < 300; c++) {
    const spec = randomSpec(r);
    const config = { numStandbyReplicas: Math.floor(r() * 2) };
    const result = assign(r() < 0.5 ? "sticky" : "highly_available", spec, config);
    if (floor.packResult(result)) packed++;
    assert.ok(sameResultAsText(spec, result, config).ok);
    const entries = Object.values(result.members).flatMap((m) => [...m.activeTasks, ...m.standbyTasks]);
    const victim = entries.find((e) => e.partitions.length > 0);
    if (!victim) continue;
    MUTATIONS[Math.floor(r() * MUTATIONS.length)](victim);
    if (!sameResultAsText(spec, result, config).ok) refused++;
  }
  floor.free();
  assert.equal(packed, 300, "every result assign() returns is packed");
  assert.ok(refused > 60, `refused ${refused}`);
});

test("JavaScript-only forms of a result rate as their JSON text says", () => {
  const spec = {
    subtopologies: [{ subtopologyId: "0", numPartitions: 4, stateful: true }],
    members: [
      { memberId: "a", processId: "p" },
      { memberId: "b", processId: "q" },
    ],
  };
  const base = () => assign("sticky", spec, { numStandbyReplicas: 1 });
  const entry = (result) => result.members.a.activeTasks[0];
  const cases = {
    "the result with toJSON": (x) => {
      x.toJSON = () => ({ members: {} });
    },
    "the members with toJSON": (x) => {
      x.members.toJSON = () => ({});
    },
    "a member with toJSON": (x) => {
      x.members.a.toJSON = () => ({});
    },
    "a list with toJSON": (x) => {
      x.members.a.activeTasks.toJSON = () => [];
    },
    "an extra key": (x) => {
      x.extra = 1;
    },
    "an extra key that is undefined": (x) => {
      x.extra = undefined;
    },
    "members inherited": (x) => Object.setPrototypeOf(x, { members: x.members }) && delete x.members,
    "members not enumerable": (x) => {
      Object.defineProperty(x, "members", { value: x.members, enumerable: false });
    },
    "members that is an array": (x) => {
      x.members = [x.members.a];
    },
    "no members": (x) => {
      x.members = {};
    },
    "a member that is null": (x) => {
      x.members.c = null;
    },
    "a member that is undefined": (x) => {
      x.members.c = undefined;
    },
    "a member that is a number": (x) => {
      x.members.c = 5;
    },
    "a member without lists": (x) => {
      x.members.c = {};
    },
    "lists that are null": (x) => {
      x.members.a.standbyTasks = null;
    },
    "a member with reported offsets": (x) => {
      x.members.a.taskOffsets = [{ subtopologyId: "0", partition: 0, offset: 5 }];
    },
    "a member with an extra key": (x) => {
      x.members.a.extra = true;
    },
    "member ids like array indices": (x) => {
      x.members = { 10: x.members.a, 2: x.members.b, x: { activeTasks: [] } };
    },
    "an own __proto__ member": (x) => {
      const members = JSON.parse(`{"__proto__":${JSON.stringify(x.members.a)},"b":${JSON.stringify(x.members.b)}}`);
      x.members = members;
    },
    "an empty member id": (x) => {
      x.members[""] = x.members.a;
      delete x.members.a;
    },
    "a member id with U+0000": (x) => {
      x.members["a\u0000b"] = x.members.a;
    },
    "a member id with a lone surrogate": (x) => {
      x.members["a\ud800"] = x.members.a;
    },
    "a member id beyond Kafka's STRING limit": (x) => {
      x.members["m".repeat(40000)] = x.members.a;
    },
    "a member behind a getter": (x) => {
      const a = x.members.a;
      Object.defineProperty(x.members, "a", { get: () => a, enumerable: true });
    },
    "a getter that throws": (x) => {
      Object.defineProperty(x.members, "a", {
        get: () => {
          throw new Error("no");
        },
        enumerable: true,
      });
    },
    "a BigInt partition": (x) => {
      entry(x).partitions[0] = 1n;
    },
    "a hole in a list": (x) => {
      x.members.a.activeTasks.length += 1;
    },
    "an entry without a prototype": (x) => {
      x.members.a.activeTasks[0] = Object.assign(Object.create(null), entry(x));
    },
    "a result that is a string of JSON": (x) => JSON.stringify(x),
  };
  for (const [what, change] of Object.entries(cases)) {
    const result = base();
    const changed = change(result);
    const given = typeof changed === "string" ? changed : result;
    let text;
    try {
      text = bigintText(given);
    } catch {
      text = null;
    }
    const viaObject = outcome(() => assignmentQuality(spec, given));
    if (text === null) {
      assert.ok(viaObject.message, `${what}: expected an error`);
      continue;
    }
    assert.deepEqual(
      viaObject,
      outcome(() => assignmentQuality(spec, typeof given === "string" ? given : text)),
      what,
    );
  }
});

// A result's packing shares the kept buffers: a getter read while it packs, or a
// toJSON met while its text is made, that rates another result itself must get the
// same figures as that result's JSON text, and the outer call its own answer.
test("assignmentQuality() called while a result is packed leaves both answers intact", () => {
  const r = rng(1075);
  for (let c = 0; c < 20; c++) {
    const spec = randomSpec(r);
    const outer = assign("sticky", spec);
    const innerSpec = randomSpec(r);
    const inner = assign("sticky", innerSpec);
    const innerExpected = outcome(() => assignmentQuality(innerSpec, JSON.stringify(inner)));
    const seen = [];
    const reenter = () => seen.push(outcome(() => assignmentQuality(innerSpec, inner)));
    const ids = Object.keys(outer.members);
    const last = ids[ids.length - 1];
    const value = outer.members[last];
    if (c % 3 === 0) {
      // Read while the member is copied, after every list is in the buffer; undefined,
      // so the JSON text leaves it out and the packed lists are used.
      Object.defineProperty(value, "later", {
        get: () => {
          reenter();
          return undefined;
        },
        enumerable: true,
      });
    } else if (c % 3 === 1) {
      // Read before the lists are packed.
      Object.defineProperty(outer.members, last, {
        get: () => {
          reenter();
          return value;
        },
        enumerable: true,
      });
    } else {
      // An unknown key: the text decoder refuses it, after its toJSON ran.
      value.note = {
        toJSON: () => {
          reenter();
          return 1;
        },
      };
    }
    seen.length = 0;
    const expected = outcome(() => assignmentQuality(spec, JSON.stringify(outer)));
    seen.length = 0;
    assert.deepEqual(
      outcome(() => assignmentQuality(spec, outer)),
      expected,
      `case ${c}`,
    );
    assert.ok(seen.length > 0, `case ${c}: the nested call ran`);
    for (const x of seen) assert.deepEqual(x, innerExpected, `case ${c}: the nested call`);
  }
});

// The packer writes into one buffer kept between calls; user code that runs while a
// spec is packed (a getter read for the member's copy, a toJSON met by JSON.stringify)
// and calls assign() itself must not write into the buffer the outer call still holds.
test("assign() called from a getter or toJSON while a spec is packed leaves both answers intact", () => {
  const check = (outer, inner, viaGetter, what) => {
    const innerExpected = outcome(() => assign("sticky", JSON.stringify(inner)));
    const seen = [];
    const reenter = () => seen.push(outcome(() => assign("sticky", inner)));
    const m = outer.members[outer.members.length - 1];
    if (viaGetter) {
      // Read for the last member's copy, after every list is in the buffer.
      const processId = m.processId;
      Object.defineProperty(m, "processId", {
        get: () => {
          reenter();
          return processId;
        },
        enumerable: true,
        configurable: true,
      });
      m.activeTasks ??= [];
    } else {
      // Met by JSON.stringify once packLists is done.
      const tags = [{ key: "zone", value: "a" }];
      tags.toJSON = () => {
        reenter();
        return [{ key: "zone", value: "a" }];
      };
      m.clientTags = tags;
    }
    const expected = outcome(() => assign("sticky", JSON.stringify(outer)));
    seen.length = 0;
    assert.deepEqual(
      outcome(() => assign("sticky", outer)),
      expected,
      what,
    );
    assert.ok(seen.length > 0, `${what}: the nested call ran`);
    for (const s of seen) assert.deepEqual(s, innerExpected, `${what}: the nested call`);
  };
  const owners = (ids, parts) => ({
    subtopologies: [{ subtopologyId: "s0", numPartitions: 8, stateful: true }],
    members: ids.map((memberId, i) => ({
      memberId,
      processId: `p${i}`,
      activeTasks: [{ subtopologyId: "s0", partitions: parts[i] }],
    })),
  });
  for (const viaGetter of [true, false]) {
    check(
      owners(
        ["a", "b", "c"],
        [
          [0, 1, 2],
          [3, 4],
          [5, 6, 7],
        ],
      ),
      owners(["x", "y", "z"], [[7], [6], [5, 4, 3, 2, 1, 0]]),
      viaGetter,
      viaGetter ? "by hand, a getter" : "by hand, toJSON",
    );
  }
  const r = rng(1072);
  const owning = () => {
    for (;;) {
      const s = randomSpec(r);
      if (s.members.some((m) => m.activeTasks?.some((e) => e.partitions.length > 0))) return s;
    }
  };
  for (let c = 0; c < 40; c++) check(owning(), owning(), c % 2 === 0, `case ${c}`);
});

// The result's subtopology ids come back internalized, from a cache of ids kept across
// calls and cleared when full (src/wasm/assign.rs, `internalized`): every id must come
// back as the spec's text, also for ids that look like array indices, "__proto__",
// non-ASCII text, and after the cache has been cleared by more ids than it holds.
test("a result's subtopology ids are the spec's, before and after the id cache fills", () => {
  const ids = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const specOf = (subIds) => ({
    subtopologies: subIds.map((subtopologyId) => ({ subtopologyId, numPartitions: 1 })),
    members: [
      { memberId: "m0", processId: "p0" },
      { memberId: "m1", processId: "p1" },
    ],
  });
  const resultIds = (result) =>
    Object.values(result.members)
      .flatMap((m) => m.activeTasks.map((e) => e.subtopologyId))
      .sort();
  const odd = ["0", "7", "__proto__", "constructor", "toString", "zwölf-☃", "😀", "a".repeat(300)];
  const first = specOf(odd);
  assert.deepEqual(resultIds(assign("sticky", first)), [...odd].sort());
  // 20 000 ids in one call: more than the cache holds, so it is cleared on the way.
  const many = ids(20000, "many-");
  assert.deepEqual(resultIds(assign("sticky", specOf(many))), [...many].sort());
  // The same ids again, and the first ones after the clear: the same text back.
  assert.deepEqual(resultIds(assign("sticky", specOf(many))), [...many].sort());
  assert.deepEqual(resultIds(assign("sticky", first)), [...odd].sort());
  // A result fed back as the next input gives the same assignment as its JSON text.
  const again = specOf(odd);
  const previous = assign("sticky", again);
  for (const m of again.members) Object.assign(m, previous.members[m.memberId]);
  assert.deepEqual(assign("sticky", again), assign("sticky", JSON.stringify(again)));
});
