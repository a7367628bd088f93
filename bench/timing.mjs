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

/** Two calls (two builds on one input), in turn for about `budgetMs`: the median, p25,
 * minimum and count of each. */
export function timeBoth(fnA, fnB, budgetMs = 3000) {
  const a = [];
  const b = [];
  const both = [
    [fnA, a],
    [fnB, b],
  ];
  const start = performance.now();
  for (let r = 0; r < 40 || (performance.now() - start < budgetMs && a.length < 2000); r++) {
    // Alternate which goes first, so that neither always runs after the other's garbage.
    for (const [fn, into] of r % 2 === 0 ? both : [...both].reverse()) {
      const t = performance.now();
      fn();
      if (r >= 10) into.push(performance.now() - t);
    }
  }
  const at = (s, q) => s[Math.floor(q * (s.length - 1))];
  return [a, b].map((s) => {
    s.sort((x, y) => x - y);
    return { median: at(s, 0.5), p25: at(s, 0.25), min: s[0], n: s.length };
  });
}
