// What building `assign()`'s result object costs in JavaScript alone, whatever made the
// assignment (BENCHMARKS.md "The JS boundary", the floor of the result's shape). For an
// initial assignment (members `member-i` in process `process-i`, S subtopologies of P
// partitions, even ones stateful, sticky), it times:
//   assign()      the package's call, spec object in, result object out
//   plain JS      the same result built by a plain loop from a flat Int32Array and the
//                 id strings, all made beforehand (per member: run count, per run:
//                 subtopology index, partition count, partitions): objects and arrays
//                 only, no wasm
//   JSON.parse    the same result parsed from its JSON text made beforehand: V8's own
//                 C++ builder of the same objects
// each timed twice: with every result dropped at once (as bench/assignors.mjs times
// assign()) and with each kept until the next is made (as a caller keeps its
// assignment), which V8's collector treats differently. Timed as bench/assignors.mjs
// times (bench/timing.mjs), with 2 s per figure. A result shaped as API.md fixes it ({ subtopologyId, partitions } per run)
// is not made faster than the plain loop by any codec. Each case runs in a Node process
// of its own (V8's collector makes a case's figures depend on what ran before it).
//   scripts/build-wasm.sh && node bench/result-floor.mjs
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { time } from "./timing.mjs";

const require = createRequire(import.meta.url);
const { assign } = require("../pkg/node.cjs");

/** The result as a flat buffer of ints, with its id tables. */
function flatten(result, subtopologyIds) {
  const index = new Map(subtopologyIds.map((id, i) => [id, i]));
  const ids = Object.keys(result.members);
  const ints = [ids.length];
  for (const id of ids) {
    for (const role of ["activeTasks", "standbyTasks", "warmupTasks"]) {
      const runs = result.members[id][role];
      ints.push(runs.length);
      for (const run of runs) ints.push(index.get(run.subtopologyId), run.partitions.length, ...run.partitions);
    }
  }
  return { ids, ints: Int32Array.from(ints) };
}

function runs(ints, i, subtopologyIds, list) {
  for (let r = 0; r < list.length; r++) {
    const subtopologyId = subtopologyIds[ints[i++]];
    const partitions = new Array(ints[i++]);
    for (let p = 0; p < partitions.length; p++) partitions[p] = ints[i++];
    list[r] = { subtopologyId, partitions };
  }
  return i;
}

/** The result object from the flat buffer: the loop of the binding's own builder. */
function build({ ids, ints }, subtopologyIds) {
  const members = {};
  let i = 1;
  for (let m = 0; m < ints[0]; m++) {
    const activeTasks = new Array(ints[i++]);
    i = runs(ints, i, subtopologyIds, activeTasks);
    const standbyTasks = new Array(ints[i++]);
    i = runs(ints, i, subtopologyIds, standbyTasks);
    const warmupTasks = new Array(ints[i++]);
    i = runs(ints, i, subtopologyIds, warmupTasks);
    members[ids[m]] = { activeTasks, standbyTasks, warmupTasks };
  }
  return { members };
}

const CASES = [
  { members: 1000, subtopologies: 100, partitions: 100, standby: 0 },
  { members: 1000, subtopologies: 100, partitions: 1000, standby: 0 },
  { members: 1000, subtopologies: 100, partitions: 1000, standby: 1 },
  { members: 10000, subtopologies: 100, partitions: 1000, standby: 1 },
];

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The table's two rows (results dropped, kept) for one case. */
function rows(c) {
  const subtopologyIds = Array.from({ length: c.subtopologies }, (_, i) => `topic-${i}_subtopology`);
  const spec = {
    subtopologies: subtopologyIds.map((subtopologyId, i) => ({
      subtopologyId,
      numPartitions: c.partitions,
      stateful: i % 2 === 0,
    })),
    members: Array.from({ length: c.members }, (_, i) => ({ memberId: `member-${i}`, processId: `process-${i}` })),
    groupTopologyEpoch: 0,
  };
  const config = { numStandbyReplicas: c.standby };
  const result = assign("sticky", spec, config);
  const flat = flatten(result, subtopologyIds);
  const text = JSON.stringify(result);
  const built = build(flat, subtopologyIds);
  if (JSON.stringify(built) !== text) throw new Error("the plain loop built another result");
  let entries = 0;
  for (const m of Object.values(result.members)) entries += m.activeTasks.length + m.standbyTasks.length;
  const name = `M${c.members}/T${c.subtopologies * c.partitions}/sb${c.standby}/initial`;
  const f = (t) => `${t.median.toFixed(2)} / ${t.min.toFixed(2)}`;
  const out = [];
  for (const kept of [false, true]) {
    // The last result, when kept.
    const held = { result: null };
    const hold = (r) => {
      if (r === null) throw new Error("unreachable");
      if (kept) held.result = r;
    };
    const ours = time(() => hold(assign("sticky", spec, config)), 2000);
    const plain = time(() => hold(build(flat, subtopologyIds)), 2000);
    const parsed = time(() => hold(JSON.parse(text)), 2000);
    out.push(`| ${name} | ${entries} | ${kept ? "kept" : "dropped"} | ${f(ours)} | ${f(plain)} | ${f(parsed)} |`);
    held.result = null;
  }
  return out.join("\n");
}

// Internal: one case (by its index), in a process of its own.
const caseAt = process.argv.indexOf("--case");
if (caseAt >= 0) {
  process.stdout.write(rows(CASES[Number(process.argv[caseAt + 1])]));
  process.exit(0);
}

console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${load()}`);
console.log(
  "| case | result entries | results | assign() median / min ms | plain JS median / min ms | JSON.parse median / min ms |",
);
console.log("|---|---|---|---|---|---|");
for (let i = 0; i < CASES.length; i++) {
  const argv = [fileURLToPath(import.meta.url), "--case", String(i)];
  console.log(execFileSync(process.execPath, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
}
console.log(`load average after: ${load()}`);
