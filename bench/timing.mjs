// Timing shared by the benchmarks of the wasm build under Node.
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

// The collector, to start each case from a collected heap: Kafka's harness runs each
// case in a JVM of its own. A benchmark may set V8 flags; the package never does.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc");

/** Median and minimum of `fn`, measured as Kafka's harness measures its own: from a
 * collected heap, after a warm-up (at least 10 runs or 1 s), up to 2 000 runs. With a
 * 200 ms warm-up and 500 runs (before 2026-12-02 evening) the median of a 0.2 ms case
 * was that of a 0.1 s window: 0.35 ms in one run, 0.21 in the next. */
export function time(fn, budgetMs = 1500) {
  collect();
  const warm = performance.now();
  for (let i = 0; i < 10 || performance.now() - warm < 1000; i++) fn();
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < budgetMs && samples.length < 2000)) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}
