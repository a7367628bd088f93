// The playground's speed in headless Chromium (a benchmark, not a test: it asserts
// nothing, it prints figures). For each group size it opens the page on a generated
// scenario (tests/e2e/big-scenario.mjs), waits for the timeline to be computed, then
// steps forward from step 0 as a person pressing the right arrow would, and times each
// step from the key press to the first paint after it (the key event dispatched in the
// page; the time read in a timer queued from the next animation frame, i.e. once the
// frame with the new step is drawn). Chip animations are on (no reduced motion).
// "settled" adds the work deferred to idle time (the invariant badges of big groups).
//
//   node bench/page.mjs                    # the sizes of issue 14
//   node bench/page.mjs --sizes 30x4x600 --steps 40
//   node bench/page.mjs --link             # also: a 30x4 link with &step=4999
//   node bench/page.mjs --cpu              # also: main-thread CPU per step (a trace)
//   node bench/page.mjs --sizes "" --bomb  # a 400 KB link inflating to 300 MiB: time to refuse
//   node bench/page.mjs --sizes "" --screenshot docs/screenshot.png
//
// Needs the wasm build (scripts/build-wasm.sh) and Debian's /usr/bin/chromium. The
// machine's load average is printed before and after: quote it with the figures.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bigScenario } from "../tests/e2e/big-scenario.mjs";
import { launch, serve } from "../tests/e2e/harness.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const sizes = opt("sizes", "30x4x600,100x4x1200,250x4x10000")
  .split(",")
  .filter(Boolean)
  .map((s) => s.split("x").map(Number));
const maxSteps = Number(opt("steps", "120"));
const withLink = args.includes("--link");
const lanesToo = args.includes("--lanes");
const reduced = args.includes("--reduced-motion");
const withCpu = args.includes("--cpu");

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (x) => x.toFixed(1);

async function openScenario(browser, url, scenario, step = 0, view = null) {
  const context = await browser.newContext({
    viewport: { width: 1920, height: 1080 },
    reducedMotion: reduced ? "reduce" : "no-preference",
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  const hash = await page.evaluate(async ([s, k]) => (await import("/share.js")).encodeHash(s, k), [scenario, step]);
  const t0 = Date.now();
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await page.waitForFunction(
    ([k, title]) =>
      document.getElementById("story-title").textContent === title &&
      Number(document.body.dataset.step) === k &&
      !document.body.dataset.busy,
    [step, scenario.title],
    { timeout: 600000, polling: 100 },
  );
  const computeMs = Date.now() - t0;
  if (
    view === "lanes" &&
    (await page.getAttribute("#board", "data-mode")) !== "lanes" &&
    !(await page.isDisabled("#view-toggle"))
  )
    await page.click("#view-toggle");
  return { context, page, computeMs, hash };
}

/**
 * Times `n` steps forward from step 0: [{ paint, settled }] in ms. `rapid`: the next
 * key comes as soon as the step is painted (as a held-down key), so no idle time lets
 * the page compute the next step ahead.
 */
async function stepTimes(page, n, rapid = false) {
  return page.evaluate(
    async ([count, fast]) => {
      const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
      const paint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const idle = () => new Promise((r) => requestIdleCallback(r, { timeout: 2000 }));
      key("Home");
      await paint();
      await idle();
      const out = [];
      const last = Number(document.body.dataset.steps);
      for (let i = 0; i < Math.min(count, last); i++) {
        const t0 = performance.now();
        key("ArrowRight");
        await paint();
        const t1 = performance.now();
        if (fast) {
          out.push({ paint: t1 - t0, settled: t1 - t0 });
          continue;
        }
        await idle();
        out.push({ paint: t1 - t0, settled: performance.now() - t0 });
        // Let the slide animations of this step finish, as between two key presses.
        await new Promise((r) => setTimeout(r, 50));
      }
      return out;
    },
    [n, rapid],
  );
}

/**
 * Main-thread CPU per step, from a Chrome trace (thread time of the renderer's tasks:
 * what the page itself costs, whatever else runs on the machine), over `n` steps
 * forward from step 0 at a person's pace (idle time between steps included).
 */
async function cpuPerStep(browser, page, n) {
  const file = path.join(os.tmpdir(), `page-bench-trace-${process.pid}.json`);
  await page.evaluate(() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", bubbles: true })));
  await page.waitForTimeout(500);
  await browser.startTracing(page, {
    path: file,
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel"],
  });
  const steps = await page.evaluate(async (count) => {
    const last = Number(document.body.dataset.steps);
    for (let i = 0; i < Math.min(count, last); i++) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      await new Promise((r) => requestIdleCallback(r, { timeout: 2000 }));
      await new Promise((r) => setTimeout(r, 50));
    }
    return Math.min(count, last);
  }, n);
  await browser.stopTracing();
  const trace = JSON.parse(fs.readFileSync(file, "utf8"));
  fs.rmSync(file, { force: true });
  const events = trace.traceEvents || trace;
  const main = new Set(
    events.filter((e) => e.name === "thread_name" && e.args.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  let us = 0;
  for (const e of events) {
    if (
      e.ph === "X" &&
      e.name === "ThreadControllerImpl::RunTask" &&
      e.tdur !== undefined &&
      main.has(`${e.pid}:${e.tid}`)
    )
      us += e.tdur;
  }
  return us / 1000 / steps;
}

async function heapMb(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

const server = await serve();
const browser = await launch();
console.log(`# playground step latency, headless Chromium (${os.cpus().length} cores, ${os.cpus()[0].model})`);
console.log(`# load average before: ${load()}`);
console.log(
  `| group (processes x threads x tasks) | view | timeline compute | steps timed | paint median | paint p90 | paint max | settled p90 | held key: paint p90 | JS heap |${withCpu ? " main-thread CPU per step |" : ""}`,
);
console.log(`|---|---|---|---|---|---|---|---|---|---|${withCpu ? "---|" : ""}`);
for (const [p, t, n] of sizes) {
  const views = lanesToo ? [null, "lanes"] : [null];
  for (const view of views) {
    const scenario = bigScenario({ processes: p, threads: t, tasks: n });
    const { context, page, computeMs } = await openScenario(browser, server.url, scenario, 0, view);
    const mode = await page.evaluate(() => document.getElementById("board")?.dataset.mode || "lanes");
    const times = await stepTimes(page, maxSteps);
    const paint = times.map((x) => x.paint);
    const settled = times.map((x) => x.settled);
    const held = (await stepTimes(page, maxSteps, true)).map((x) => x.paint);
    const heap = await heapMb(page);
    const cpu = withCpu ? ` ${fmt(await cpuPerStep(browser, page, maxSteps))} ms |` : "";
    console.log(
      `| ${p} x ${t} x ${n} | ${mode} | ${(computeMs / 1000).toFixed(1)} s | ${times.length} | ${fmt(pct(paint, 50))} ms | ${fmt(pct(paint, 90))} ms | ${fmt(Math.max(...paint))} ms | ${fmt(pct(settled, 90))} ms | ${fmt(pct(held, 90))} ms | ${heap.toFixed(0)} MB |${cpu}`,
    );
    await context.close();
  }
}
if (withLink) {
  const scenario = bigScenario({ processes: 30, threads: 4, tasks: 600, endMs: 3600000 });
  const { context, page, computeMs } = await openScenario(browser, server.url, scenario, 4999);
  const heap = await heapMb(page);
  const back = await page.evaluate(async () => {
    const t0 = performance.now();
    const input = document.getElementById("scrub");
    input.value = "2500";
    input.dispatchEvent(new Event("input"));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
  console.log(
    `\n# a 30 x 4 x 600 link with &step=4999: reached in ${(computeMs / 1000).toFixed(1)} s, JS heap ${heap.toFixed(0)} MB after; a jump back to step 2500 ${fmt(back)} ms`,
  );
  await context.close();
}
if (args.includes("--bomb")) {
  // 300 MiB of spaces, deflated (about 400 KB as base64url): refused at the 32 MiB cap.
  const { deflateRawSync } = await import("node:zlib");
  const link = deflateRawSync(Buffer.alloc(300 << 20, 0x20), { level: 9 }).toString("base64url");
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  const times = [];
  for (let i = 0; i < 5; i++) {
    times.push(
      await page.evaluate(async (h) => {
        const { decodeHash } = await import("/share.js");
        const t0 = performance.now();
        try {
          await decodeHash(h);
        } catch {
          return performance.now() - t0;
        }
        return Number.NaN;
      }, `#s=${link}`),
    );
  }
  times.sort((a, b) => a - b);
  console.log(
    `\n# a ${(link.length / 1024).toFixed(0)} KB link inflating to 300 MiB: refused in ${fmt(times[2])} ms (median of 5; min ${fmt(times[0])}, max ${fmt(times[4])})`,
  );
  await context.close();
}
const shot = opt("screenshot", null);
if (shot) {
  // docs/screenshot.png: a 1 000-member group just after p000's session timed out
  // (its tasks move), one of the members that took some picked, its process beside.
  const scenario = bigScenario({ processes: 250, threads: 4, tasks: 10000, endMs: 90000 });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, reducedMotion: "reduce" });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  const hash = await page.evaluate(async (s) => (await import("/share.js")).encodeHash(s, 0), scenario);
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await page.waitForFunction(
    (t) => document.getElementById("story-title").textContent === t && !document.body.dataset.busy,
    scenario.title,
    { timeout: 600000 },
  );
  const clock = () => page.evaluate(() => Number(document.getElementById("clock").textContent.replace(/[^0-9.]/g, "")));
  const moved = () =>
    page.evaluate(() =>
      Number((document.getElementById("overview-summary").textContent.match(/(\d+) moved/) || [0, 0])[1]),
    );
  do await page.keyboard.press("ArrowRight");
  while ((await clock()) < 75 || (await moved()) === 0);
  // A member that took tasks: its row starts with the "moved" mark.
  const at = await page.evaluate(() => {
    const c = document.getElementById("overview-canvas");
    const want = getComputedStyle(document.documentElement).getPropertyValue("--moved").trim();
    const rgb = [1, 3, 5].map((i) => parseInt(want.slice(i, i + 2), 16));
    const dpr = window.devicePixelRatio || 1;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    for (let y = 0; y < d.height; y++) {
      for (let x = 0; x < d.width; x++) {
        const i = (y * d.width + x) * 4;
        if (rgb.every((v, k) => Math.abs(d.data[i + k] - v) < 4)) return { x: x / dpr + 4, y: y / dpr + 1 };
      }
    }
    return null;
  });
  if (at) await page.click("#overview-canvas", { position: at });
  // The health badges and the quality panel are drawn once stepping pauses.
  await page.waitForSelector("#quality h4", { timeout: 60000 });
  await page.screenshot({ path: shot });
  console.log(
    `# screenshot: ${shot} (step ${await page.getAttribute("body", "data-step")}, ${await page.textContent("#overview-summary")})`,
  );
  await context.close();
}
console.log(`# load average after: ${load()}`);
await browser.close();
await server.close();
