// The fast path of `assign()`, `warmupCaughtUp()` and `assignmentQuality()` (the
// package's public ones, in every build).
//
// A group spec given as a plain JS object is walked once and packed (one string, an
// Int32Array, a Float64Array: the layout is described in src/assignor/packed.rs);
// wasm decodes it, assigns, and returns the result as a flat Uint32Array, from which
// the result object is built here, reusing the input's id strings. That skips
// JSON.stringify, JSON parsing and decoding in wasm, JSON encoding and JSON.parse.
//
// The strict `assign` stays the only source of errors: whenever this walk is not
// certain that the strict decoder would accept the spec exactly as packed (an
// unknown key, a missing field, null where it is not allowed, a number out of range
// or not an integer, an offset that is not a safe integer, a lone surrogate, a hole,
// anything not a plain object or array, a toJSON anywhere), or wasm answers
// "undefined" (duplicates, limits), the strict `assign` is called with the same
// arguments and its result or its error is what the caller gets.
//
// Written once as an ES module; scripts/build-wasm.sh makes the CommonJS copy for
// the Node build (it turns each `export function NAME(` into a plain function and lists
// the names in `module.exports`), so export nothing else.

const FORMAT = 0x50530001;
/** src/limits.rs MAX_INPUT_BYTES: the strict path's limit on the JSON text. */
const MAX_INPUT_BYTES = 32 << 20;
// An upper bound of the JSON text's bytes (`bound`), summed while walking, so that
// a spec beyond the strict path's input limit goes there for its error: brackets and a
// comma per object or array; quotes, colon and comma per key; per string its UTF-8
// bytes with escapes (6 per UTF-16 unit for the ids of members, processes, racks and
// tags, counted exactly once per subtopology id); per number its digits, sign and
// comma; null, true and false 5 bytes with the comma.
const LITERAL_BYTES = 5;

const FALLBACK = { fallback: true };

// Scratch buffers reused across calls (they only grow).
let ints = new Int32Array(1 << 12);
let ni = 0;
let floats = new Float64Array(1 << 8);
let nf = 0;
let text = "";
let bound = 0;
let busy = false;

function int(v) {
  if (ni === ints.length) {
    const grown = new Int32Array(ints.length * 2);
    grown.set(ints);
    ints = grown;
  }
  ints[ni++] = v;
}

function float(v) {
  if (nf === floats.length) {
    const grown = new Float64Array(floats.length * 2);
    grown.set(floats);
    floats = grown;
  }
  floats[nf++] = v;
}

function fail() {
  throw FALLBACK;
}

function plain(o) {
  if (o === null || typeof o !== "object") return false;
  const proto = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}

/** An array JSON.stringify writes element by element. */
function array(a) {
  if (!Array.isArray(a) || a.toJSON !== undefined) fail();
  bound += 3;
  return a;
}

function object(o) {
  if (!plain(o)) fail();
  bound += 3;
}

/** The keys an object may have, as the strict decoder reads it (`Fields`), with a
 * scratch array for their values. */
function shape(...keys) {
  return { keys, values: new Array(keys.length) };
}

const SPEC = shape("subtopologies", "members", "groupTopologyEpoch");
const SUBTOPOLOGY = shape("subtopologyId", "numPartitions", "stateful");
const KEY_VALUE = shape("key", "value");
const MEMBER = shape(
  "memberId", "processId", "topologyEpoch", "rackId", "clientTags",
  "activeTasks", "standbyTasks", "warmupTasks", "taskOffsets", "taskEndOffsets",
);
const RESULT = shape("members");
const MEMBER_RESULT = shape("activeTasks", "standbyTasks", "warmupTasks");

/** A plain object's values in the order of `shape.keys` (undefined when absent); any
 * other key with a value JSON.stringify writes means the strict path. The array is the
 * shape's scratch: read it before the next call with the same shape. */
function fields(o, { keys, values }) {
  object(o);
  for (let i = 0; i < values.length; i++) values[i] = undefined;
  for (const k in o) {
    const v = o[k];
    bound += k.length + 4;
    const i = keys.indexOf(k);
    if (i >= 0) values[i] = v;
    else if (v !== undefined) fail();
  }
  return values;
}

function string(s) {
  if (typeof s !== "string" || !s.isWellFormed()) fail();
  text += s;
  int(s.length);
  bound += 6 * s.length + 3;
}

/** The bytes of a string's JSON form without its quotes: UTF-8, 6 for an escape. */
function jsonBytes(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) n += 6;
    else if (c < 0x80) n += 1;
    else if (c < 0x800 || (c >= 0xd800 && c < 0xe000)) n += 2;
    else n += 3;
  }
  return n;
}

/** Digits, sign and comma of an integer (a safe integer at most). */
function numberBytes(v) {
  const a = v < 0 ? -v : v;
  const n = a < 10 ? 1 : a < 100 ? 2 : a < 1e3 ? 3 : a < 1e4 ? 4 : a < 1e6 ? 6 : a < 1e9 ? 9 : 16;
  return n + (v < 0 ? 2 : 1);
}

function int32(v) {
  if (typeof v !== "number" || (v | 0) !== v) fail();
  bound += numberBytes(v);
  return v | 0;
}

function partition(v) {
  const p = int32(v);
  if (p < 0) fail();
  return p;
}

/** `null` or absent (undefined: JSON.stringify drops the key). */
function absent(v) {
  if (v === null) {
    bound += LITERAL_BYTES;
    return true;
  }
  return v === undefined;
}

function subtopology(s, subIndex, subIds, subBytes, i) {
  const f = fields(s, SUBTOPOLOGY);
  const id = f[0], num = f[1], stateful = f[2];
  string(id);
  if (subIndex.has(id)) fail();
  subIndex.set(id, i);
  subIds.push(id);
  // Task lists and offsets repeat the id: its exact size keeps the bound tight.
  subBytes.push(jsonBytes(id) + 3);
  int(partition(num));
  if (stateful === undefined) int(0);
  else if (typeof stateful === "boolean") {
    int(stateful ? 1 : 0);
    bound += LITERAL_BYTES + 1;
  } else fail();
}

function clientTags(tags) {
  const at = ni;
  int(0);
  let count = 0;
  if (absent(tags)) return;
  if (Array.isArray(tags)) {
    array(tags);
    for (let i = 0; i < tags.length; i++) {
      const f = fields(tags[i], KEY_VALUE);
      const key = f[0], value = f[1];
      string(key);
      string(value);
      count++;
    }
  } else {
    object(tags);
    for (const k in tags) {
      const v = tags[k];
      bound += k.length + 4;
      if (v === undefined) continue;
      string(k);
      string(v);
      count++;
    }
  }
  ints[at] = count;
}

// Consecutive entries mostly name the same subtopology: the last lookup is kept.
let lastId = null;
let lastIndex = 0;

/** Packs a task's subtopology: its index, or -1 and the id for one the spec does not
 * hold (a member may still own tasks of a removed subtopology). */
function taskSubtopology(id, subIndex, subBytes) {
  if (typeof id !== "string") fail();
  if (id === lastId) {
    int(lastIndex);
    bound += subBytes[lastIndex];
    return;
  }
  const s = subIndex.get(id);
  if (s === undefined) {
    int(-1);
    string(id);
    return;
  }
  lastId = id;
  lastIndex = s;
  int(s);
  bound += subBytes[s];
}

const EMPTY = [];

/** A list field (`Fields::list`: absent or null is empty): packs its length. */
function list(l) {
  if (absent(l)) {
    int(0);
    return EMPTY;
  }
  array(l);
  int(l.length);
  return l;
}

function taskList(l, subIndex, subBytes) {
  const a = list(l);
  for (let i = 0; i < a.length; i++) taskIds(a[i], subIndex, subBytes);
}

// TaskIds and TaskOffset read their keys by hand, not with `fields`: a spec may hold
// hundreds of thousands of them, and the generic lookup costs ~15% of the walk there.
function taskIds(t, subIndex, subBytes) {
  object(t);
  let id, parts;
  for (const k in t) {
    const v = t[k];
    bound += k.length + 4;
    if (k === "subtopologyId") id = v;
    else if (k === "partitions") parts = v;
    else if (v !== undefined) fail();
  }
  taskSubtopology(id, subIndex, subBytes);
    array(parts);
    int(parts.length);
  for (let j = 0; j < parts.length; j++) int(partition(parts[j]));
}

function offsetList(l, subIndex, subBytes) {
  const a = list(l);
  for (let i = 0; i < a.length; i++) taskOffset(a[i], subIndex, subBytes);
}

function taskOffset(o, subIndex, subBytes) {
  object(o);
  let id, p, offset;
  for (const k in o) {
    const v = o[k];
    bound += k.length + 4;
    if (k === "subtopologyId") id = v;
    else if (k === "partition") p = v;
    else if (k === "offset") offset = v;
    else if (v !== undefined) fail();
  }
  taskSubtopology(id, subIndex, subBytes);
  int(partition(p));
  if (typeof offset !== "number" || !Number.isSafeInteger(offset)) fail();
  float(offset);
  bound += numberBytes(offset);
}

function member(m, subIndex, subBytes, memberIds) {
  const [memberId, processId, epoch, rackId, tags, active, standby, warmup, offsets, ends] =
    fields(m, MEMBER);
  // A result key "__proto__" would set the prototype instead of adding a member.
  if (memberId === "__proto__") fail();
  string(memberId);
  memberIds.push(memberId);
  string(processId);
  if (absent(epoch)) int(0);
  else {
    int(1);
    int(int32(epoch));
  }
  if (absent(rackId)) int(0);
  else {
    int(1);
    string(rackId);
  }
  clientTags(tags);
  taskList(active, subIndex, subBytes);
  taskList(standby, subIndex, subBytes);
  taskList(warmup, subIndex, subBytes);
  offsetList(offsets, subIndex, subBytes);
  offsetList(ends, subIndex, subBytes);
}

/** Packs a group spec object; throws FALLBACK (or whatever a getter throws). */
function pack(spec, subIds, memberIds) {
  lastId = null;
  ni = 0;
  nf = 0;
  text = "";
  bound = 0;
  const [subs, members, epoch] = fields(spec, SPEC);
  array(subs);
  array(members);
  int(FORMAT);
  int(subs.length);
  int(members.length);
  int(epoch === undefined ? 0 : int32(epoch));
  const subIndex = new Map();
  const subBytes = [];
  for (let i = 0; i < subs.length; i++) subtopology(subs[i], subIndex, subIds, subBytes, i);
  for (let i = 0; i < members.length; i++) member(members[i], subIndex, subBytes, memberIds);
  if (bound > MAX_INPUT_BYTES) fail();
  return { subIndex, subBytes };
}

/** Packs an assignment to rate (`{ members: { [memberId]: { activeTasks, ... } } }`)
 * after the spec, as the strict decoder reads it. */
function packAssignment(result, { subIndex, subBytes }) {
  bound = 0;
  const members = fields(result, RESULT)[0];
  object(members);
  const at = ni;
  int(0);
  let count = 0;
  for (const id in members) {
    const m = members[id];
    bound += 4;
    if (m === undefined) continue;
    const [active, standby, warmup] = fields(m, MEMBER_RESULT);
    string(id);
    taskList(active, subIndex, subBytes);
    taskList(standby, subIndex, subBytes);
    taskList(warmup, subIndex, subBytes);
    count++;
  }
  ints[at] = count;
  if (bound > MAX_INPUT_BYTES) fail();
}

let at = 0;

// Arrays are made at their final length and filled (3x faster than push for long
// lists); every slot is written before the result is returned.
function tasks(buf, subIds) {
  const runs = buf[at++];
  if (!(at + 2 * runs <= buf.length)) return null;
  const out = new Array(runs);
  for (let r = 0; r < runs; r++) {
    const subtopologyId = subIds[buf[at++]];
    const count = buf[at++];
    if (subtopologyId === undefined || !(at + count <= buf.length)) return null;
    const partitions = new Array(count);
    for (let i = 0; i < count; i++) partitions[i] = buf[at++];
    out[r] = { subtopologyId, partitions };
  }
  return out;
}

/** The result object from the packed result, or null if the buffer is not one. */
function build(buf, subIds, memberIds) {
  const members = {};
  at = 0;
  while (at < buf.length) {
    const id = memberIds[buf[at++]];
    if (id === undefined) return null;
    const activeTasks = tasks(buf, subIds);
    if (activeTasks === null) return null;
    const standbyTasks = tasks(buf, subIds);
    if (standbyTasks === null) return null;
    const warmupTasks = tasks(buf, subIds);
    if (warmupTasks === null) return null;
    members[id] = { activeTasks, standbyTasks, warmupTasks };
  }
  if (at !== buf.length) return null;
  return { members };
}

/** Nothing that JSON.stringify and this walk would see differently: a toJSON some
 * code put on a prototype, or an enumerable property on Object.prototype (for-in
 * sees it, JSON.stringify does not). */
function prototypesClean() {
  for (const k in Object.prototype) return false;
  return (
    Object.prototype.toJSON === undefined &&
    Array.prototype.toJSON === undefined &&
    String.prototype.toJSON === undefined &&
    Number.prototype.toJSON === undefined &&
    Boolean.prototype.toJSON === undefined &&
    typeof String.prototype.isWellFormed === "function"
  );
}

/**
 * Packs `groupSpec` (and `result`, when given) and calls `packed(strings, ints, floats, subIds, memberIds)`; its
 * answer, or null for "use the strict path" (never throws).
 */
function viaPacked(groupSpec, packed, result) {
  if (busy || !plain(groupSpec) || !prototypesClean()) return null;
  busy = true;
  try {
    const subIds = [];
    const memberIds = [];
    const context = pack(groupSpec, subIds, memberIds);
    if (result !== undefined) packAssignment(result, context);
    return packed(text, ints.subarray(0, ni), floats.subarray(0, nf), subIds, memberIds);
  } catch (e) {
    return null;
  } finally {
    busy = false;
    text = "";
    lastId = null;
  }
}

/**
 * `assign(assignorName, groupSpec, config)` from the strict `assign` and a packed one
 * (`(name, config, strings, ints, floats) => Uint32Array | undefined`).
 */
export function fastAssign(strict, packed) {
  return function assign(assignorName, groupSpec, config) {
    if (typeof assignorName === "string") {
      const result = viaPacked(groupSpec, (strings, ints, floats, subIds, memberIds) => {
        const buf = packed(assignorName, config, strings, ints, floats);
        return buf === undefined ? null : build(buf, subIds, memberIds);
      });
      if (result !== null) return result;
    }
    return strict(assignorName, groupSpec, config);
  };
}

/**
 * `warmupCaughtUp(groupSpec, config)` from the strict one and a packed one
 * (`(config, strings, ints, floats) => boolean | undefined`).
 */
export function fastWarmupCaughtUp(strict, packed) {
  return function warmupCaughtUp(groupSpec, config) {
    const result = viaPacked(groupSpec, (strings, ints, floats) => {
      const b = packed(config, strings, ints, floats);
      return typeof b === "boolean" ? b : null;
    });
    return result !== null ? result : strict(groupSpec, config);
  };
}

/**
 * `assignmentQuality(groupSpec, result, config)` from the strict one and a packed one
 * (`(config, strings, ints, floats) => figures | undefined`; spec and assignment packed).
 */
export function fastAssignmentQuality(strict, packed) {
  return function assignmentQuality(groupSpec, result, config) {
    const q = plain(result)
      ? viaPacked(
          groupSpec,
          (strings, ints, floats) => {
            const figures = packed(config, strings, ints, floats);
            return figures === undefined ? null : figures;
          },
          result,
        )
      : null;
    return q !== null ? q : strict(groupSpec, result, config);
  };
}
