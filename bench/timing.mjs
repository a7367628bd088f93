// Timing shared by the benchmarks of the wasm build under Node.
import { PerformanceObserver, performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

// The collector, to start each case from a collected heap: Kafka's harness runs each
// case in a JVM of its own. A benchmark may set V8 flags; the package never does.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc");

// The last call's result: each is held until the next call's replaces it, as Kafka's
// harness holds its `result` (bench/kafka/KafkaAssign.java) and the native benchmark its
// own; a caller keeps what it asked for (the coordinator keeps its target assignment).
let _held;

/** Median and minimum of `fn`, measured as Kafka's harness measures its own: from a
 * collected heap, after a warm-up (at least 10 runs or 1 s), up to 2 000 runs, each
 * result held until the next. With a 200 ms warm-up and 500 runs (before 2026-12-02
 * evening) the median of a 0.2 ms case was that of a 0.1 s window: 0.35 ms in one run,
 * 0.21 in the next. */
export function time(fn, budgetMs = 1500) {
  warmUp(fn);
  const samples = [];
  const start = performance.now();
  sample(samples, fn, budgetMs, 5, 2000);
  const end = performance.now();
  _held = undefined;
  samples.sort((a, b) => a - b);
  return { median: median(samples), min: samples[0], runs: samples.length, start, end };
}

/** From a collected heap, at least 10 calls and 1 s of them, results held. */
function warmUp(fn) {
  collect();
  const warm = performance.now();
  for (let i = 0; i < 10 || performance.now() - warm < 1000; i++) _held = fn();
}

/** Appends the times of calls of `fn` to `samples` until it holds `minRuns`, then until
 * `budgetMs` have passed or it holds `maxRuns`; each result held until the next. */
function sample(samples, fn, budgetMs, minRuns, maxRuns) {
  const start = performance.now();
  while (samples.length < minRuns || (performance.now() - start < budgetMs && samples.length < maxRuns)) {
    const t = performance.now();
    _held = fn();
    samples.push(performance.now() - t);
  }
}

/** The middle value of `xs` (the upper one of an even count), as Kafka's harness takes
 * its median. */
export function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `time`, and the collector's pauses during the timed runs: `gcPerCall`, their total
 * over the number of runs (ms). A median leaves out the calls a scavenge lands in when
 * they are few, and holds it when most calls have one (a result larger than the young
 * generation): this says which. Node reports the pauses as performance entries after
 * the fact, hence async. */
export async function timeWithGc(fn, budgetMs) {
  const pauses = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  const t = time(fn, budgetMs);
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  let gc = 0;
  for (const e of pauses) if (e.startTime >= t.start && e.startTime < t.end) gc += e.duration;
  return { median: t.median, min: t.min, runs: t.runs, gcPerCall: gc / t.runs };
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
      _held = fn();
      if (r >= 10) into.push(performance.now() - t);
    }
  }
  _held = undefined;
  const at = (s, q) => s[Math.floor(q * (s.length - 1))];
  return [a, b].map((s) => {
    s.sort((x, y) => x - y);
    return { median: at(s, 0.5), p25: at(s, 0.25), min: s[0], n: s.length };
  });
}

/** `timeWithGc` taking turns with another process (bench/alternate.mjs): after the
 * warm-up of `time`, prints {"ready":true} and times calls of `fn` when told, one line
 * "run MS" at a time (answered {"runs":N}; no cap on their number), until "done" or the
 * end of its input; then the figures over every timed call. */
export async function served(fn) {
  const { createInterface } = await import("node:readline");
  const pauses = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  warmUp(fn);
  const samples = [];
  const windows = [];
  process.stdout.write('{"ready":true}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "done") break;
    const ms = /^run (\d+)$/.exec(line)?.[1];
    if (ms === undefined) throw new Error(`--serve: run MS or done, not ${line}`);
    const start = performance.now();
    sample(samples, fn, Number(ms), 10, Number.POSITIVE_INFINITY);
    windows.push([start, performance.now()]);
    process.stdout.write(`{"runs":${samples.length}}\n`);
  }
  _held = undefined;
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  let gc = 0;
  for (const e of pauses) if (windows.some(([s, t]) => e.startTime >= s && e.startTime < t)) gc += e.duration;
  samples.sort((a, b) => a - b);
  return { median: median(samples), min: samples[0], runs: samples.length, gcPerCall: gc / samples.length };
}
