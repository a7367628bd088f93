// Regex-source configuration through the wasm build under Node (BENCHMARKS.md,
// "Topology configuration"): 100 groups each join with one member whose topology has
// 10 source-topic patterns over a cluster of 1 000 topics; best of 5 rounds.
//   scripts/build-wasm.sh && node bench/topology-regex.mjs
// PKG=<dir of another node build> compares builds.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const { Coordinator } = require(`${process.env.PKG ?? "../pkg/dist/node"}/streams_rebalance.js`);
const S = 10,
  T = 100;
const topology = {
  epoch: 0,
  subtopologies: Array.from({ length: S }, (_, i) => ({
    subtopologyId: String(i),
    sourceTopicRegex: [`t${i}-(a|b)[0-9]+\\.v.*`],
  })),
};
let best = Infinity;
for (let rep = 0; rep < 5; rep++) {
  const c = new Coordinator({ assignor: "sticky" });
  c.createTopics(Array.from({ length: S * T }, (_, k) => ({ name: `t${k % S}-a${k}.v1`, numPartitions: 4 })));
  const t = performance.now();
  for (let g = 0; g < 100; g++) {
    const r = c.heartbeat({
      groupId: `g${g}`,
      memberId: "m",
      memberEpoch: 0,
      rebalanceTimeoutMs: 60000,
      topology,
      activeTasks: [],
      standbyTasks: [],
      warmupTasks: [],
    });
    if (r.errorCode !== 0 || !r.activeTasks || r.activeTasks.length !== S)
      throw new Error(JSON.stringify(r).slice(0, 300));
  }
  best = Math.min(best, performance.now() - t);
}
console.log(`regex topology join (10 patterns x 1000 topics): ${(best / 100).toFixed(2)} ms per group (best of 5)`);
