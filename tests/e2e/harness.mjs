// Shared by the playground's end-to-end tests: a tiny static server for www/ on
// 127.0.0.1 (a free port), and headless Chromium through playwright-core.

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const WWW = path.join(ROOT, "www");
export const ARTIFACTS = path.join(ROOT, "test-artifacts");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** Serves www/ on 127.0.0.1; resolves to { url, close }. */
export function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let file = path.normalize(path.join(WWW, decodeURIComponent(url.pathname)));
    if (!file.startsWith(WWW)) {
      res.writeHead(403).end();
      return;
    }
    if (file.endsWith(path.sep)) file = path.join(file, "index.html");
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] || "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Opens the page and waits until it has loaded a scenario; collects page errors.
 * `init`: a script run in the page before its own (Playwright's addInitScript).
 */
export async function open(browser, url, { colorScheme = "light", width = 1400, height = 1000, init } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, reducedMotion: "reduce" });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  await page.waitForSelector("body:not([data-busy])", { timeout: 60000 });
  return { page, context, errors };
}

export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** What the board shows: { memberId: { process, active: [...], standby, warmup, revoking, incoming, stale } }. */
export async function board(page) {
  return page.evaluate(() => {
    const out = {};
    for (const lane of document.querySelectorAll(".lane[data-member]")) {
      const chips = (sel) => [...lane.querySelectorAll(sel)].map((c) => c.dataset.task);
      out[lane.dataset.member] = {
        process: lane.dataset.process,
        active: chips(".chip.active:not(.incoming):not(.orphan)"),
        standby: chips(".chip.standby:not(.incoming):not(.orphan)"),
        warmup: chips(".chip.warmup:not(.incoming):not(.orphan)"),
        revoking: chips(".chip.revoking"),
        incoming: chips(".chip.incoming"),
        orphan: chips(".chip.orphan"),
        stale: lane.classList.contains("stale"),
        staleTag: [...lane.querySelectorAll(".tag.stale")].some((t) => t.textContent === "STALE_TOPOLOGY"),
        label: lane.querySelector(".mid").textContent,
      };
    }
    return out;
  });
}

export async function epochs(page) {
  return page.evaluate(() => ({
    state: document.getElementById("group-state").textContent,
    groupEpoch: document.getElementById("group-epoch").textContent,
    assignmentEpoch: document.getElementById("assignment-epoch").textContent,
    topologyEpoch: document.getElementById("group-topology-epoch").textContent,
    step: Number(document.body.dataset.step),
    steps: Number(document.body.dataset.steps),
  }));
}

/**
 * For a test file: serves www/ and starts Chromium before its tests, closes both after.
 * The returned object's `server` and `browser` are set once the tests start.
 */
export function usePage() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
