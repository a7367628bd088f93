// Assignor benchmarks for the wasm build under Node (BENCHMARKS.md, "Assignors").
//   scripts/build-wasm.sh && node bench/assignors.mjs [--full] [--filter TEXT]
// Inputs exactly as shared/bench/INPUTS.md (the same generator as benches/assignors.rs):
// S subtopologies `topic-i_subtopology` of P partitions (even i stateful), members
// `member-i` in process `process-(i div K)`, standby 0 or 1, initial or reassignment
// (M - 1 members assigned first, outside the timing, then `newMember` joins).
// highly_available runs with reported offsets ("owned and dormant").
// Per case, median and minimum of:
//   assign      the package's assign() (pkg/node.cjs, what users call): group spec as
//               a JS object in, plain object out
//   JSON text   the same call with the group spec and config as JSON text
//   I/O floor   the same decoding and encoding without the assignment, measured in the
//               same run: AssignIoFloor.run (decodes the spec, encodes a result
//               computed once)
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const { assign, AssignIoFloor } = require("../pkg/node.cjs");

const args = process.argv.slice(2);
const FULL = args.includes("--full");
const filterAt = args.indexOf("--filter");
const FILTER = filterAt >= 0 ? args[filterAt + 1] : null;
const END_OFFSET = 1_000_000;

const KAFKA = [
  // members, tasks, standby, initial ms, reassignment ms (INPUTS.md, K = 1)
  [100, 1000, 0, 0.4, 0.24],
  [100, 1000, 1, 0.65, 0.46],
  [1000, 10000, 0, 5.7, 6.2],
  [1000, 10000, 1, 11.1, 10.4],
  [1000, 100000, 0, 102, 171],
  [1000, 100000, 1, 185, 358],
  [10000, 100000, 0, 211, 103],
  [10000, 100000, 1, 299, 300],
];

function kafkaMs(c) {
  if (c.perProcess !== 1 || c.offsets) return null;
  const row = KAFKA.find((r) => r[0] === c.members && r[1] === c.subtopologies * c.partitions && r[2] === c.standby);
  return row ? (c.kind === "initial" ? row[3] : row[4]) : null;
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

function member(i, perProcess) {
  return { memberId: `member-${i}`, processId: `process-${Math.floor(i / perProcess)}` };
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
    m.taskOffsets = offsets;
    m.taskEndOffsets = ends;
  });
}

function group(assignor, c) {
  const config = { numStandbyReplicas: c.standby };
  const n = c.kind === "initial" ? c.members : c.members - 1;
  const members = Array.from({ length: n }, (_, i) => member(i, c.perProcess));
  const spec = { subtopologies: subtopologies(c), members, groupTopologyEpoch: 0 };
  if (c.kind === "reassignment") {
    const first = assign(assignor, spec, config);
    for (const m of members) {
      m.activeTasks = first.members[m.memberId].activeTasks;
      m.standbyTasks = first.members[m.memberId].standbyTasks;
    }
    if (c.offsets) reportOffsets(members);
    members.push({ memberId: "newMember", processId: "process-newMember" });
  }
  return { spec, config };
}

function time(fn, budgetMs = 1500) {
  fn();
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < budgetMs && samples.length < 500)) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

function grid() {
  const sizes = FULL
    ? [[100, 10, 100], [100, 100, 100], [100, 100, 1000], [1000, 10, 100], [1000, 100, 100], [1000, 100, 1000],
       [10000, 10, 100], [10000, 100, 100], [10000, 100, 1000]]
    : [[100, 10, 100], [1000, 100, 100], [1000, 100, 1000], [10000, 100, 1000]];
  const out = [];
  for (const [members, subs, partitions] of sizes) {
    for (const perProcess of FULL ? [1, 50] : [1]) {
      for (const standby of [0, 1]) {
        for (const kind of ["initial", "reassignment"]) {
          out.push({ members, subtopologies: subs, partitions, standby, perProcess, kind, offsets: false });
        }
      }
    }
  }
  return out;
}

const f = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(2));
console.log(`node ${process.version}, ${new Date().toISOString()}`);
console.log(
  "| case | median ms | min ms | Kafka ms | Kafka / ours | JSON text median ms | I/O floor ms | assign / floor |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const base of grid()) {
  // highly_available always runs with reported offsets; for reassignments sticky runs
  // on that same input too ("/offsets"), the fair comparison for "within 3x of sticky".
  const runs = [["sticky", base]];
  if (base.kind === "reassignment") runs.push(["sticky", { ...base, offsets: true }]);
  runs.push(["highly_available", { ...base, offsets: true }]);
  for (const [assignor, c] of runs) {
    const name = label(assignor, c);
    if (FILTER && !name.includes(FILTER)) continue;
    const { spec, config } = group(assignor, c);
    const t = time(() => assign(assignor, spec, config));
    const specText = JSON.stringify(spec);
    const configText = JSON.stringify(config);
    const text = time(() => assign(assignor, specText, configText));
    const floor = new AssignIoFloor(assignor, spec, config);
    const fl = time(() => floor.run(spec));
    floor.free();
    const kafka = kafkaMs(c);
    console.log(
      `| ${name} | ${f(t.median)} | ${f(t.min)} | ${kafka ?? ""} | ${kafka ? (kafka / t.median).toFixed(1) + "x" : ""} | ${f(text.median)} | ${f(fl.median)} | ${(t.median / fl.median).toFixed(2)} |`,
    );
  }
}
