// Coordinator benchmarks for the wasm build under Node (BENCHMARKS.md, "Coordinator").
//   scripts/build-wasm.sh && node bench/coordinator.mjs [members] [initialRebalanceDelayMs]
// 1. Join storm: `members` (default 1000) members join an empty group one after
//    another (10 subtopologies x 1000 partitions = 10 000 tasks, sticky), then every
//    member heartbeats until the group is Stable. Reports time, records() size, peak RSS.
// 2. Steady heartbeats on that Stable group, nothing changed, through the JS API with
//    request objects and with JSON strings.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const { Coordinator } = require("../pkg/dist/node/streams_rebalance.js");

const MEMBERS = Number(process.argv[2] ?? 1000);
// 0 (the model's default): every join computes a new target. Kafka's default is 3000:
// the joins then wait, and one target is computed when the delay ends.
const DELAY = Number(process.argv[3] ?? 0);
const SUBTOPOLOGIES = 10;
const PARTITIONS = 1000;

const topology = {
  epoch: 0,
  subtopologies: Array.from({ length: SUBTOPOLOGIES }, (_, i) => ({
    subtopologyId: String(i),
    sourceTopics: [`topic-${i}`],
  })),
};

const c = new Coordinator({ assignor: "sticky", initialRebalanceDelayMs: DELAY });
c.createTopics(Array.from({ length: SUBTOPOLOGIES }, (_, i) => ({ name: `topic-${i}`, numPartitions: PARTITIONS })));

const members = Array.from({ length: MEMBERS }, (_, i) => ({
  groupId: "bench",
  memberId: `member-${String(i).padStart(4, "0")}`,
  memberEpoch: 0,
  rebalanceTimeoutMs: 60000,
  topology,
  activeTasks: [],
  standbyTasks: [],
  warmupTasks: [],
}));

function beat(req) {
  const r = c.heartbeat(req);
  if (r.errorCode !== 0) throw new Error(`${r.errorCode} ${r.errorMessage}`);
  req.memberEpoch = r.memberEpoch;
  // Epoch 0 (the first target still waits for the initial delay) is still a join.
  if (r.memberEpoch > 0) delete req.topology;
  if (r.activeTasks) {
    req.activeTasks = r.activeTasks;
    req.standbyTasks = r.standbyTasks;
    req.warmupTasks = r.warmupTasks;
  }
  return r;
}

const state = () => c.describe(["bench"]).groups[0].groupState;

const t0 = performance.now();
for (const m of members) beat(m);
const joined = performance.now() - t0;
// The delay ends (time moves only through advanceTime here); the next heartbeats get
// the one target computed then.
if (DELAY > 0) c.advanceTime(DELAY);
let rounds = 0;
let beats = members.length;
while (rounds < 50) {
  rounds++;
  for (const m of members) beat(m);
  beats += members.length;
  if (state() === "Stable") break;
}
const storm = performance.now() - t0;
for (const m of members) beat(m); // every member acknowledges its assignment
const recordsJson = JSON.stringify(c.records());
const records = c.records().length;
console.log(
  `join storm: ${MEMBERS} members, ${SUBTOPOLOGIES * PARTITIONS} tasks, sticky, initial delay ${DELAY} ms: joins ${(joined / 1000).toFixed(2)} s, ` +
    `until Stable ${(storm / 1000).toFixed(2)} s (${rounds} rounds, ${beats} heartbeats), state ${state()}; ` +
    `records(): ${records} records, ${(recordsJson.length / 1e6).toFixed(1)} MB as JSON`,
);

// Five timed rounds of 20 000 after a warm-up: the median round and the range (one
// round moved by up to 8% from run to run on the 2-core VM).
function steady(label, reqs, send) {
  const n = 20000;
  for (let i = 0; i < 2000; i++) send(reqs[i % reqs.length]); // warm-up
  const rates = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const r = send(reqs[i % reqs.length]);
      if (r.errorCode !== 0 || r.activeTasks !== null) throw new Error("not steady");
    }
    rates.push((n / (performance.now() - t)) * 1000);
  }
  rates.sort((a, b) => a - b);
  const median = rates[2];
  console.log(
    `steady heartbeat (${label}): ${median.toFixed(0)} heartbeats/s (${(1e6 / median).toFixed(1)} µs each; ` +
      `rounds ${rates[0].toFixed(0)}-${rates[4].toFixed(0)})`,
  );
}

steady("objects", members, (req) => c.heartbeat(req));
// The same requests as object literals made for each heartbeat, as a client that
// builds its request each time sends them (the objects above had `topology` deleted,
// which leaves V8 objects in dictionary mode, slower for JSON.stringify).
steady("object literals", members, (m) =>
  c.heartbeat({
    groupId: m.groupId,
    memberId: m.memberId,
    memberEpoch: m.memberEpoch,
    rebalanceTimeoutMs: m.rebalanceTimeoutMs,
    activeTasks: m.activeTasks,
    standbyTasks: m.standbyTasks,
    warmupTasks: m.warmupTasks,
  }),
);
const texts = members.map((m) => JSON.stringify(m));
steady("JSON strings", texts, (text) => c.heartbeat(text));
// What a Kafka Streams client sends when nothing changed: null owned lists ("same as
// I last reported", PROTOCOL.md section 1).
const unchanged = members.map(({ activeTasks, standbyTasks, warmupTasks, ...rest }) => rest);
steady("objects, owned lists null", unchanged, (req) => c.heartbeat(req));
if (c.records().length !== records) throw new Error("steady heartbeats wrote records");
const mem = process.memoryUsage();
console.log(
  `memory: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, ` +
    `rss now ${(mem.rss / 1e6).toFixed(0)} MB, array buffers (wasm memory) ${(mem.arrayBuffers / 1e6).toFixed(0)} MB`,
);
