// The way into assign() on 1 000 x 100 000 after one member leaves (BENCHMARKS.md "Owned
// task lists as one buffer"): the spec as JSON text against the spec as a JS object,
// whose owned lists the binding packs into one buffer (src/wasm/packed.rs).
//   scripts/build-wasm.sh && node bench/assign-boundary.mjs
import { createRequire } from "node:module";
import os from "node:os";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const { assign, AssignIoFloor } = require("../pkg/node.cjs");
function time(fn) {
  for (let i = 0; i < 10; i++) fn();
  const s = [];
  const t0 = performance.now();
  while (s.length < 5 || (performance.now() - t0 < 1500 && s.length < 300)) {
    const t = performance.now();
    fn();
    s.push(performance.now() - t);
  }
  s.sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)].toFixed(2)} / ${s[0].toFixed(2)}`;
}
const M = 1000,
  S = 100,
  P = 1000;
const subs = [];
for (let i = 0; i < S; i++)
  subs.push({ subtopologyId: `topic-${i}_subtopology`, numPartitions: P, stateful: i % 2 === 0 });
const members = Array.from({ length: M }, (_, i) => ({ memberId: `member-${i}`, processId: `process-${i}` })).sort(
  (a, b) => (a.memberId < b.memberId ? -1 : 1),
);
const s = { subtopologies: subs, members, groupTopologyEpoch: 0 };
const first = assign("sticky", s, { numStandbyReplicas: 0 });
for (const m of members) {
  const a = first.members[m.memberId];
  m.activeTasks = a.activeTasks;
  m.standbyTasks = a.standbyTasks;
  m.warmupTasks = a.warmupTasks;
}
s.members = members.filter((m) => m.memberId !== `member-${M / 2}`);
const text = JSON.stringify(s);
const floor = new AssignIoFloor("sticky", s, { numStandbyReplicas: 0 });
console.log(`load ${os.loadavg()[0].toFixed(2)}; median / min ms, 1000 x 100000 leave`);
const cfg = { numStandbyReplicas: 0 };
const steps = [
  ["JSON.stringify(spec)", () => JSON.stringify(s)],
  ["decode of the JSON text", () => floor.decode(text)],
  ["pack (JS)", () => floor.pack(s)],
  ["decode of the object (packed)", () => floor.decode(s)],
  ["assign(JSON text)", () => assign("sticky", text, cfg)],
  ["assign(JSON.stringify(object))", () => assign("sticky", JSON.stringify(s), cfg)],
  ["assign(object)", () => assign("sticky", s, cfg)],
];
for (const [label, f] of steps) console.log(label, time(f));
