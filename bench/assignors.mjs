// Assignor benchmarks for the wasm build under Node (BENCHMARKS.md, "Assignors").
//   scripts/build-wasm.sh && node bench/assignors.mjs [--grid] [--filter TEXT] [--quality]
//     [--kafka DIR [--alternate] | --against DIR [--rate]] [--same-process | --processes N]
//     [--native]
// The cases of benches/assignors.rs (bench/INPUTS.md and issue 11), built the
// same way: S subtopologies `topic-i_subtopology` of P partitions (even i stateful),
// members `member-i` in process `process-(i div K)`, standby 0 or 1, and one of
// initial (all M members), leave (`member-(M/2)` leaves the initial assignment of M),
// join (`newMember` joins the initial assignment of M - 1), replace (every member j
// with j % 10 == 3 swapped for a fresh `fresh-j`). The first assignment is made by the
// same assignor, outside the timing. highly_available runs with reported offsets
// ("owned and dormant"); for leave/join/replace sticky also runs on that input.
// Without --grid: 100 x 1k, 1 000 x 10k, 1 000 x 100k, 10 000 x 100k with K = 1; with
// it every size of INPUTS.md and K = 50 too. --quality: figures only, no timing.
//
// Per case, median and minimum of the package's assign() (pkg/node.cjs, what users
// call: group spec as a JS object in, plain object out), Kafka's median (INPUTS.md),
// and where the time goes, each part timed on its own in the same run (minimums; the
// assignment is what the minimum of assign() leaves):
//   JS in       the binding's JS side of the spec's way in: the members' owned lists
//               packed into one buffer, the rest JSON.stringify'd (AssignIoFloor.pack;
//               src/wasm/packed.rs)
//   decode      the text and the buffer into wasm and their typed decode
//               (AssignIoFloor.decode less JS in)
//   assignment  what is left of assign(): the assignment itself in wasm
//   out         the result: its flat buffer and the result object built from it in JS
//               (AssignIoFloor.run, decode and a result computed once, less decode)
//   GC per call the collector's pauses during the timed calls of assign(), over their
//               number (mean; with --kafka, Kafka's too: its JVM's collectors' time)
// and the quality figures of the output (assignmentQuality with the config) beside
// Kafka's on the same case (INPUTS.md's figures; --kafka below reproduces them).
// Each case is timed in a Node process of its own, as Kafka's harness runs each case in
// a JVM of its own. In one process a case's figures depended on the cases before it:
// at 10 000 x 100 000 building the result costs about 14 or about 30 ms, as V8 has or
// has not decided to allocate its objects in the old generation (allocation-site
// pretenuring), and that decision follows the heap's history. In a process of its own
// it still goes either way now and then (BENCHMARKS.md, 2026-12-03, session 13):
// --processes N times each case in N processes of its own, and gives the median of their
// medians and the least of their minimums and parts. --same-process times every case in
// this process instead (the tables before that).
//
// --kafka DIR: Kafka's figures measured in this run instead of INPUTS.md's. DIR is an
// Apache Kafka source tree (a checkout, or a git directory without a work tree); its
// StickyTaskAssignor is compiled with javac and run, each case just before ours, on
// the same inputs (bench/kafka/run.mjs, bench/kafka/KafkaAssign.java): Kafka's median
// and minimum after a 5 s warm-up (5 s timed), and the quality figures of its output,
// computed here by assignmentQuality on its own input (its previous assignment is its
// own initial one). The ratio column then gives median / median and min / min.
//
// --against DIR: this package against another build of it (DIR/pkg/node.cjs, e.g. a
// copy of pkg/ from before a change), both loaded in this process and called in turn
// on each case, so that the host's slow and fast phases fall on both alike (on the
// project's VM one build's median moved by up to 1.8x between runs, and by 2x
// between stretches of one run). Prints both medians, p25 and minimums, and the ratio.
// With --rate, the call timed is assignmentQuality() of the case's assignment (this
// build's, given to both) instead of assign().
//
// --native: ours timed natively instead (the Rust crate's assignor, no JS: the native
// benchmark benches/assignors.rs with --measure, each case in a process of its own,
// timed as Kafka's harness times its own), with the bytes one assignment allocates
// beside Kafka's (its thread's allocation counter over the timed calls, per call),
// and whether the native output is the package's assign() output on the case (it
// must be: the quality columns are computed from the package's).
//
// --alternate (with --kafka): Kafka's side and ours (the package in a Node process of its
// own, or natively with --native) take turns instead of running one after the other:
// each warmed up as above (Kafka 5 s, ours 1 s), then told to time calls for 100 ms
// each in turn, fifty times (bench/alternate.mjs), so that both medians are taken over
// the same stretches of the host's time, 5 s of calls each, with no cap on their number.
// Run one after the other, each side's median is that of the mix of the host's two
// speeds its own seconds caught (BENCHMARKS.md, session 23).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, Served } from "./alternate.mjs";
import { buildKafka, runKafka, serveKafka } from "./kafka/run.mjs";
import { median, served, time, timeBoth, timeWithGc } from "./timing.mjs";

const require = createRequire(import.meta.url);
const pkg = require("../pkg/node.cjs");
const { assign, assignmentQuality, AssignIoFloor } = pkg;

const args = process.argv.slice(2);
const GRID = args.includes("--grid") || args.includes("--full");
const QUALITY_ONLY = args.includes("--quality");
const SAME_PROCESS = args.includes("--same-process");
const processesAt = args.indexOf("--processes");
const PROCESSES = processesAt >= 0 ? Math.max(1, Number.parseInt(args[processesAt + 1], 10) || 1) : 1;
// Internal: time one case (by its exact name) and print the timings as JSON.
const measureAt = args.indexOf("--measure");
const MEASURE = measureAt >= 0 ? args[measureAt + 1] : null;
const serveAt = args.indexOf("--serve");
const SERVE = serveAt >= 0 ? args[serveAt + 1] : null;
const filterAt = args.indexOf("--filter");
const FILTER = filterAt >= 0 ? args[filterAt + 1] : null;
const againstAt = args.indexOf("--against");
const AGAINST = againstAt >= 0 ? require(path.resolve(args[againstAt + 1], "pkg/node.cjs")) : null;
const RATE = args.includes("--rate");
const NATIVE = args.includes("--native");
const kafkaAt = args.indexOf("--kafka");
const KAFKA_BUILD = kafkaAt >= 0 ? kafkaBuild(args[kafkaAt + 1]) : null;
const ALTERNATE = args.includes("--alternate");
if (ALTERNATE && !KAFKA_BUILD) {
  console.error("--alternate takes turns with Kafka's assignor: give --kafka DIR too");
  process.exit(2);
}

function kafkaBuild(dir) {
  try {
    return buildKafka(dir ?? ".");
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
}
const END_OFFSET = 1_000_000;
const KINDS = ["initial", "leave", "join", "replace"];

// Kafka's StickyTaskAssignor, K = 1: [members, tasks, standby, kind, ms (INPUTS.md),
// spread mean, spread max, standby spread mean, standby spread max, fan-out mean,
// landed, of] (quality: benches/assignors.rs, the same figures).
const KAFKA = [
  [100, 1000, 0, "initial", 0.42, 0, 0, 0, 0, 0, 0, 0],
  [100, 1000, 0, "leave", 0.3, 1, 1, 0, 0, 0, 0, 5],
  [100, 1000, 0, "join", 0.25, 2.5, 7, 0, 0, 0, 0, 0],
  [100, 1000, 0, "replace", 0.3, 0, 0, 0, 0, 0, 0, 50],
  [100, 1000, 1, "initial", 0.82, 0, 0, 0, 0, 4.8, 0, 0],
  [100, 1000, 1, "leave", 0.54, 1, 1, 2, 2, 4.8, 5, 5],
  [100, 1000, 1, "join", 0.49, 2.5, 7, 2.2, 3, 4.8, 0, 0],
  [100, 1000, 1, "replace", 0.66, 0, 0, 0, 0, 4.8, 0, 50],
  [1000, 10000, 0, "initial", 4.7, 1, 1, 0, 0, 0, 0, 0],
  [1000, 10000, 0, "leave", 5.4, 1, 1, 0, 0, 0, 0, 4],
  [1000, 10000, 0, "join", 5.9, 1.15, 7, 0, 0, 0, 0, 0],
  [1000, 10000, 0, "replace", 4.2, 1, 1, 0, 0, 0, 0, 504],
  [1000, 10000, 1, "initial", 9.6, 1, 1, 1, 1, 5, 0, 0],
  [1000, 10000, 1, "leave", 12, 1.01, 2, 1.02, 2, 5, 4, 4],
  [1000, 10000, 1, "join", 14, 1.15, 7, 1.1, 2, 4.9, 0, 0],
  [1000, 10000, 1, "replace", 10, 1, 1, 1, 1, 5, 0, 504],
  [1000, 100000, 0, "initial", 82, 0, 0, 0, 0, 0, 0, 0],
  [1000, 100000, 0, "leave", 117, 1, 1, 0, 0, 0, 0, 50],
  [1000, 100000, 0, "join", 126, 2.29, 21, 0, 0, 0, 0, 0],
  [1000, 100000, 0, "replace", 133, 0, 0, 0, 0, 0, 0, 5000],
  [1000, 100000, 1, "initial", 168, 0, 0, 0, 0, 44.4, 0, 0],
  [1000, 100000, 1, "leave", 240, 1, 1, 1.92, 2, 44.4, 46, 50],
  [1000, 100000, 1, "join", 251, 2.29, 21, 2.1, 4, 45.3, 0, 0],
  [1000, 100000, 1, "replace", 232, 0, 0, 0, 0, 45.1, 0, 5000],
  [10000, 100000, 0, "initial", 99, 1, 1, 0, 0, 0, 0, 0],
  [10000, 100000, 0, "leave", 129, 1, 1, 0, 0, 0, 0, 5],
  [10000, 100000, 0, "join", 104, 1.16, 8, 0, 0, 0, 0, 0],
  [10000, 100000, 0, "replace", 137, 1, 1, 0, 0, 0, 0, 4999],
  [10000, 100000, 1, "initial", 223, 1, 1, 1, 1, 5, 0, 0],
  [10000, 100000, 1, "leave", 283, 1, 1, 1, 1, 5, 5, 5],
  [10000, 100000, 1, "join", 453, 1.16, 8, 1.12, 3, 5, 0, 0],
  [10000, 100000, 1, "replace", 427, 1, 1, 1, 1, 5, 0, 4999],
];

/** Whether Kafka's side has the case (its harness: K = 1, no reported offsets). */
const kafkaTakes = (c) => c.perProcess === 1 && !c.offsets;

function kafka(c) {
  if (!kafkaTakes(c)) return null;
  if (KAFKA_BUILD) return kafkaMeasured(c);
  const row = KAFKA.find(
    (r) => r[0] === c.members && r[1] === c.subtopologies * c.partitions && r[2] === c.standby && r[3] === c.kind,
  );
  if (!row) return null;
  const [, , , , ms, sm, sx, bm, bx, fan, landed, of] = row;
  return { ms, spread: [sm, sx], standbySpread: [bm, bx], fan, landed: [landed, of] };
}

/** Kafka's assignor on the case, now (--kafka): its time, and the quality figures of
 * its output computed by assignmentQuality on its own input, as for ours. */
function kafkaMeasured(c) {
  return kafkaFigures(c, runKafka(KAFKA_BUILD, c));
}

/** The same from Kafka's harness's answer `r` (run or served). */
function kafkaFigures(c, r) {
  const { spec, config } = group("sticky", c, () => r.first);
  return {
    ms: r.medianMs,
    min: r.minMs,
    gcPerCall: r.gcMs / r.runs,
    allocatedMb: r.allocatedBytes >= 0 ? r.allocatedBytes / r.runs / 1e6 : undefined,
    ...figures(assignmentQuality(spec, r.result, config)),
  };
}

/** The quality figures of the table, from assignmentQuality's answer (the shape of
 * kafka()'s, which INPUTS.md's figures have all of but `moved` and `unfilled`). */
function figures(q) {
  return {
    spread: [q.subtopologySpread.mean, q.subtopologySpread.max],
    standbySpread: [q.standbySubtopologySpread.mean, q.standbySubtopologySpread.max],
    moved: [q.activeTasksMoved, q.activeTasksMovedMinimum],
    fan: q.standbyFanOut.mean,
    landed: [q.orphanedStatefulToStandby.landed, q.orphanedStatefulToStandby.total],
    unfilled: q.standbysUnfilled,
  };
}

function label(assignor, c) {
  return `${assignor}/M${c.members}/T${c.subtopologies * c.partitions}/sb${c.standby}/K${c.perProcess}/${c.kind}${c.offsets ? "/offsets" : ""}`;
}

function subtopologies(c) {
  const subs = [];
  for (let i = 0; i < c.subtopologies; i++) {
    subs.push({ subtopologyId: `topic-${i}_subtopology`, numPartitions: c.partitions, stateful: i % 2 === 0 });
  }
  return subs;
}

function isStateful(id) {
  return Number(id.slice("topic-".length, id.indexOf("_"))) % 2 === 0;
}

function reportOffsets(members) {
  const n = members.length;
  const firstStateful = (m) => {
    for (const t of m.activeTasks ?? []) {
      if (isStateful(t.subtopologyId) && t.partitions.length > 0) {
        return { subtopologyId: t.subtopologyId, partition: t.partitions[0] };
      }
    }
    return null;
  };
  const next = members.map((_, i) => firstStateful(members[(i + 1) % n]));
  members.forEach((m, i) => {
    const offsets = [];
    const ends = [];
    const report = (subtopologyId, partition, lag) => {
      offsets.push({ subtopologyId, partition, offset: END_OFFSET - lag });
      ends.push({ subtopologyId, partition, offset: END_OFFSET });
    };
    const owned = new Set();
    for (const t of m.activeTasks) {
      if (!isStateful(t.subtopologyId)) continue;
      for (const p of t.partitions) {
        report(t.subtopologyId, p, 0);
        owned.add(`${t.subtopologyId}:${p}`);
      }
    }
    for (const t of m.standbyTasks) {
      for (const p of t.partitions) {
        report(t.subtopologyId, p, 2000);
        owned.add(`${t.subtopologyId}:${p}`);
      }
    }
    const dormant = next[i];
    if (dormant && !owned.has(`${dormant.subtopologyId}:${dormant.partition}`)) {
      report(dormant.subtopologyId, dormant.partition, 50000);
    }
    // Offsets sorted by task, as a member reports them (the Rust side sorts maps).
    const byTask = (a, b) =>
      a.subtopologyId < b.subtopologyId ? -1 : a.subtopologyId > b.subtopologyId ? 1 : a.partition - b.partition;
    m.taskOffsets = offsets.sort(byTask);
    m.taskEndOffsets = ends.sort(byTask);
  });
}

const byId = (a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0);

/** The case's spec; on reassignments from `first`, the previous assignment (by default
 * the same assignor's initial one; Kafka's own for Kafka's side, as INPUTS.md says). */
function group(assignor, c, first = (spec, config) => assign(assignor, spec, config)) {
  const config = { numStandbyReplicas: c.standby };
  const n = c.kind === "join" ? c.members - 1 : c.members;
  let members = Array.from({ length: n }, (_, i) => ({
    memberId: `member-${i}`,
    processId: `process-${Math.floor(i / c.perProcess)}`,
  })).sort(byId);
  const spec = { subtopologies: subtopologies(c), members, groupTopologyEpoch: 0 };
  if (c.kind === "initial") return { spec, config };
  const previous = first(spec, config);
  for (const m of members) {
    const a = previous.members[m.memberId];
    m.activeTasks = a.activeTasks;
    m.standbyTasks = a.standbyTasks;
    m.warmupTasks = a.warmupTasks;
  }
  if (c.offsets) reportOffsets(members);
  const number = (id) => Number(id.slice("member-".length));
  if (c.kind === "leave") {
    members = members.filter((m) => m.memberId !== `member-${Math.floor(c.members / 2)}`);
  } else if (c.kind === "join") {
    members.push({ memberId: "newMember", processId: "process-newMember" });
  } else if (c.kind === "replace") {
    members = members.map((m) => {
      const j = number(m.memberId);
      return j % 10 === 3 ? { memberId: `fresh-${j}`, processId: `process-fresh-${j}` } : m;
    });
  }
  spec.members = members.sort(byId);
  return { spec, config };
}

function grid() {
  const sizes = GRID
    ? [
        [100, 10, 100],
        [100, 100, 100],
        [100, 100, 1000],
        [1000, 10, 100],
        [1000, 100, 100],
        [1000, 100, 1000],
        [10000, 10, 100],
        [10000, 100, 100],
        [10000, 100, 1000],
      ]
    : [
        [100, 10, 100],
        [1000, 100, 100],
        [1000, 100, 1000],
        [10000, 100, 1000],
      ];
  const out = [];
  for (const [members, subs, partitions] of sizes) {
    for (const perProcess of GRID ? [1, 50] : [1]) {
      for (const standby of [0, 1]) {
        for (const kind of KINDS) {
          out.push({ members, subtopologies: subs, partitions, standby, perProcess, kind, offsets: false });
        }
      }
    }
  }
  return out;
}

/** The grid's runs that --filter selects: each case with sticky (and, on reassignments,
 * sticky with offsets too) and highly_available with offsets. */
function* cases() {
  for (const base of grid()) {
    const runs = [["sticky", base]];
    if (base.kind !== "initial") runs.push(["sticky", { ...base, offsets: true }]);
    runs.push(["highly_available", { ...base, offsets: true }]);
    for (const [assignor, c] of runs) {
      const name = label(assignor, c);
      if (FILTER && !(FILTER.endsWith("$") ? name === FILTER.slice(0, -1) : name.includes(FILTER))) continue;
      yield { assignor, c, name };
    }
  }
}

/** Where the time of one assign() goes: the parts, each timed on its own. */
function split(assignor, spec, config) {
  const floor = new AssignIoFloor(assignor, spec, config);
  // Minimums: the parts are differences of separate runs, and garbage collection
  // (building the result makes many small objects) lands in one run or another.
  const stringify = time(() => floor.pack(spec)).min;
  const decoded = time(() => floor.decode(spec)).min;
  const io = time(() => floor.run(spec)).min;
  floor.free();
  return {
    jsIn: stringify,
    wasmIn: Math.max(0, decoded - stringify),
    out: Math.max(0, io - decoded),
    floor: io,
  };
}

function against() {
  console.log(
    `| case | this median ms | other median ms | this / other (median) | this / other (p25) | this / other (min) | calls each |`,
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const { assignor, c, name } of cases()) {
    const { spec, config } = group(assignor, c);
    const result = RATE ? assign(assignor, spec, config) : null;
    const call = RATE ? (p) => p.assignmentQuality(spec, result, config) : (p) => p.assign(assignor, spec, config);
    if (JSON.stringify(call(pkg)) !== JSON.stringify(call(AGAINST))) {
      console.log(`| ${name} | the two builds answer differently: not compared | | | | | |`);
      continue;
    }
    const [ours, theirs] = timeBoth(
      () => call(pkg),
      () => call(AGAINST),
    );
    const r = (k) => (ours[k] / theirs[k]).toFixed(2);
    console.log(
      `| ${name} | ${f(ours.median)} | ${f(theirs.median)} | ${r("median")} | ${r("p25")} | ${r("min")} | ${ours.n} |`,
    );
  }
}

// Kafka's median over ours; with Kafka measured in this run, the minimums' ratio too
// (on a noisy host both sides' minimums are their least disturbed runs).
const ratios = (k, t) =>
  `${(k.ms / t.median).toFixed(1)}x${k.min === undefined ? "" : `; ${(k.min / t.min).toFixed(1)}x`}`;
const f = (x) => (x === null || Number.isNaN(x) ? "-" : x < 1 ? x.toFixed(3) : x.toFixed(2));
const mm = ([mean, max]) => `${mean.toFixed(2)} / ${max}`;
const landing = ([landed, total]) => (total === 0 ? "-" : `${landed} of ${total}`);

/** assign()'s median and minimum on the case, the collector's pauses per call, and
 * where its time goes. Timed for 5 s (at most 2 000 calls), as Kafka's harness times
 * its own: the host runs at two speeds that alternate within seconds (BENCHMARKS.md,
 * session 23), and a shorter window than Kafka's takes a less even share of each. */
async function measured(assignor, spec, config) {
  return { t: await timeWithGc(() => assign(assignor, spec, config), 5000), s: split(assignor, spec, config) };
}

const unmeasured = {
  t: { median: NaN, min: NaN, gcPerCall: NaN },
  s: { jsIn: NaN, wasmIn: NaN, out: NaN, floor: NaN },
};

/** `measured` in a Node process of its own (this script with --measure NAME), or in
 * PROCESSES of them: then the median of their medians, and the least of the rest. */
function inOwnProcess(name) {
  const argv = [fileURLToPath(import.meta.url), "--measure", name, ...(GRID ? ["--grid"] : [])];
  const runs = Array.from({ length: PROCESSES }, () =>
    JSON.parse(
      execFileSync(process.execPath, argv, {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 1 << 20,
      }),
    ),
  );
  const middle = (get) => median(runs.map(get));
  const least = (get) => Math.min(...runs.map(get));
  return {
    t: { median: middle((r) => r.t.median), min: least((r) => r.t.min), gcPerCall: middle((r) => r.t.gcPerCall) },
    s: {
      jsIn: least((r) => r.s.jsIn),
      wasmIn: least((r) => r.s.wasmIn),
      out: least((r) => r.s.out),
      floor: least((r) => r.s.floor),
    },
  };
}

/** The native benchmark's executable (--native), built once by cargo. */
function nativeBench() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const messages = execFileSync("cargo", ["bench", "--bench", "assignors", "--no-run", "--message-format=json"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 28,
  });
  for (const line of messages.split("\n")) {
    const m = line.startsWith("{") ? JSON.parse(line) : null;
    if (m?.reason === "compiler-artifact" && m.target?.name === "assignors" && m.executable) return m.executable;
  }
  throw new Error("--native: cargo built no assignors benchmark");
}
const NATIVE_BENCH = NATIVE && !QUALITY_ONLY ? nativeBench() : null;

/** An assignment as text that two equal assignments share whatever their order. */
function canonical(result) {
  const tasks = (entries) =>
    entries
      .flatMap((e) => e.partitions.map((p) => `${e.subtopologyId}:${p}`))
      .sort()
      .join(",");
  return Object.keys(result.members)
    .sort()
    .map((id) => {
      const m = result.members[id];
      return `${id}=${tasks(m.activeTasks)};${tasks(m.standbyTasks)};${tasks(m.warmupTasks)}`;
    })
    .join("\n");
}

/** Ours natively (--native): the native benchmark's figures for the case, and whether
 * its output is `result` (the package's). */
function nativeMeasured(name, result) {
  const r = JSON.parse(
    execFileSync(NATIVE_BENCH, ["--measure", name], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 30,
    }),
  );
  return nativeFigures(r, result);
}

/** The same from the native benchmark's answer `r` (measured or served). */
function nativeFigures(r, result) {
  return {
    t: { median: r.median, min: r.min },
    allocatedMb: r.allocatedMb,
    peakMb: r.peakMb,
    same: canonical(r.result) === canonical(result),
  };
}

/** Kafka's side and ours on one case, taking turns (--alternate): Kafka's figures (as
 * `kafka()`), ours (`t`, with --native `native` as `nativeMeasured`, else `s` as
 * `measured`). Kafka warms up first, alone, then ours. */
async function alternated(c, name, result) {
  const theirs = serveKafka(KAFKA_BUILD, c);
  await theirs.next();
  const ours = NATIVE
    ? new Served(NATIVE_BENCH, ["--serve", name])
    : new Served(process.execPath, [fileURLToPath(import.meta.url), "--serve", name, ...(GRID ? ["--grid"] : [])]);
  await ours.next();
  await alternate(theirs, ours);
  const k = kafkaFigures(c, await theirs.done());
  if (NATIVE) {
    const native = nativeFigures(await ours.done(), result);
    return { k, t: native.t, s: null, native };
  }
  const { t, s } = await ours.done();
  return { k, t, s, native: null };
}

if (SERVE !== null) {
  const one = [...cases()].find((x) => x.name === SERVE);
  if (!one) throw new Error(`--serve: no case ${SERVE}`);
  const { spec, config } = group(one.assignor, one.c);
  const t = await served(() => assign(one.assignor, spec, config));
  process.stdout.write(`${JSON.stringify({ t, s: split(one.assignor, spec, config) })}\n`);
  process.exit(0);
}

if (MEASURE !== null) {
  const one = [...cases()].find((x) => x.name === MEASURE);
  if (!one) throw new Error(`--measure: no case ${MEASURE}`);
  const { spec, config } = group(one.assignor, one.c);
  process.stdout.write(JSON.stringify(await measured(one.assignor, spec, config)));
  process.exit(0);
}

const [l1, l5, l15] = os.loadavg();
console.log(
  `node ${process.version}, ${new Date().toISOString()}, load average ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)}`,
);
if (AGAINST) {
  against();
  console.log(`load average at the end ${os.loadavg()[0].toFixed(2)}`);
  process.exit(0);
}
console.log(
  KAFKA_BUILD
    ? `Kafka: StickyTaskAssignor measured in this run ${ALTERNATE ? "taking turns with ours (100 ms each, fifty times)" : "before ours"} on each case (source ${KAFKA_BUILD.commit ?? "work tree"}, ${KAFKA_BUILD.java}, bench/kafka/run.mjs)`
    : "Kafka: the figures of bench/INPUTS.md (2026-12-01); --kafka DIR measures them in this run",
);
console.log(
  NATIVE
    ? `Ours: natively, each case timed in a process of its own (benches/assignors.rs ${ALTERNATE ? "--serve" : "--measure"})`
    : SAME_PROCESS
      ? "Ours: every case timed in this process"
      : PROCESSES > 1
        ? `Ours: each case timed in ${PROCESSES} Node processes of its own (median of their medians, least minimum)`
        : "Ours: each case timed in a Node process of its own",
);
const QUALITY_HEADS =
  "spread (Kafka) | standby spread (Kafka) | moved / minimum (Kafka) | fan-out mean (Kafka) | warm landing (Kafka) | unfilled (Kafka) |";
console.log(
  NATIVE
    ? `| case | native median ms | min ms | Kafka ms (median / min) | Kafka / ours (median; min) | MB allocated per call (Kafka) | peak MB | output is the package's | ${QUALITY_HEADS}`
    : `| case | median ms | min ms | Kafka ms (median / min) | Kafka / ours (median; min) | JS in | decode | assignment | out | GC per call (Kafka) | ${QUALITY_HEADS}`,
);
console.log(`|---|---|---|---|---|---|---|${NATIVE ? "" : "---|---|"}---|---|---|---|---|---|---|`);
for (const { assignor, c, name } of cases()) {
  const { spec, config } = group(assignor, c);
  const result = assign(assignor, spec, config);
  const ours = figures(assignmentQuality(spec, result, config));
  const turns = ALTERNATE && !QUALITY_ONLY && kafkaTakes(c) ? await alternated(c, name, result) : null;
  const k = turns ? turns.k : kafka(c);
  const native = turns ? turns.native : NATIVE_BENCH ? nativeMeasured(name, result) : null;
  const { t, s } = turns
    ? turns
    : QUALITY_ONLY
      ? unmeasured
      : native
        ? { t: native.t, s: null }
        : SAME_PROCESS
          ? await measured(assignor, spec, config)
          : inOwnProcess(name);
  // Ours, and Kafka's in brackets where it has that figure.
  const pair = (mine, theirs, fmt) => (theirs === undefined ? fmt(mine) : `${fmt(mine)} (${fmt(theirs)})`);
  const cell = (key, fmt) => pair(ours[key], k?.[key], fmt);
  const parts = NATIVE
    ? [
        pair(native?.allocatedMb ?? NaN, k?.allocatedMb, f),
        f(native?.peakMb ?? NaN),
        native ? (native.same ? "yes" : "NO") : "-",
      ]
    : [f(s.jsIn), f(s.wasmIn), f(Math.max(0, t.min - s.floor)), f(s.out), pair(t.gcPerCall, k?.gcPerCall, f)];
  console.log(
    [
      "",
      name,
      f(t.median),
      f(t.min),
      k ? (k.min === undefined ? f(k.ms) : `${f(k.ms)} / ${f(k.min)}`) : "",
      k && !QUALITY_ONLY ? ratios(k, t) : "",
      ...parts,
      cell("spread", mm),
      cell("standbySpread", mm),
      cell("moved", ([moved, minimum]) => `${moved} / ${minimum}`),
      cell("fan", (x) => x.toFixed(1)),
      cell("landed", landing),
      cell("unfilled", String),
      "",
    ]
      .join(" | ")
      .trim(),
  );
}
