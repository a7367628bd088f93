// The playground in headless Chromium: the rolling-bounce preset step by step, the
// controls, shared links, hostile input, and a module that fails to load. What the
// page shows is checked against the same scenario run in Node through the package's
// own Simulation (both are deterministic), and against the seed's story.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { board, epochs, open, screenshot, usePage } from "./harness.mjs";

const require = createRequire(import.meta.url);
const wasm = require("../../pkg/dist/node/streams_rebalance.js");

const env = usePage();

function taskList(list) {
  return (list || []).flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`)).sort();
}

/** The simulation state after everything at `t`, computed in Node. */
function expectedAt(scenario, t) {
  const sim = wasm.Simulation.fromScenario(scenario);
  sim.step(t);
  const snap = sim.snapshot();
  sim.free();
  return snap;
}

function activeByLane(b) {
  const out = {};
  for (const [id, lane] of Object.entries(b)) out[id] = [...lane.active].sort();
  return out;
}

function expectedLanes(snap) {
  const out = {};
  for (const p of snap.processes) for (const m of p.members) out[m.memberId] = taskList(m.activeTasks);
  return out;
}

async function step(page) {
  await page.keyboard.press("ArrowRight");
}

test("the rolling-bounce preset, step by step, shows what the protocol does", async () => {
  const { page, context, errors } = await open(env.browser, env.server.url);
  assert.match(await page.textContent("#story-title"), /Rolling bounce/);
  const scenario = JSON.parse(await page.inputValue("#scenario-json"));
  assert.equal(scenario.name, "rolling-bounce");

  const seen = { balanced0: false, staleAfterC: false, cTook: false };
  let e = await epochs(page);
  assert.equal(e.step, 0);
  const steps = e.steps;
  assert.ok(steps > 30, `a real timeline (${steps} steps)`);
  let shots = 0;
  for (let i = 1; i <= steps; i++) {
    await step(page);
    e = await epochs(page);
    assert.equal(e.step, i);
    const t = await page.evaluate(
      () => Number(document.getElementById("clock").textContent.replace(/[^0-9.]/g, "")) * 1000,
    );
    const want = expectedAt(scenario, Math.round(t));
    const b = await board(page);
    // Which member holds which task: exactly what the simulated clients run.
    const wantLanes = expectedLanes(want);
    for (const [id, tasks] of Object.entries(wantLanes)) {
      assert.deepEqual(activeByLane(b)[id], tasks, `step ${i} (t=${t}): ${id}`);
    }
    // The epochs panel: the coordinator's numbers.
    const g = want.group;
    if (g) {
      assert.equal(e.state, g.groupState, `step ${i}`);
      assert.equal(e.groupEpoch, String(g.groupEpoch), `step ${i}`);
      assert.equal(e.assignmentEpoch, String(g.assignmentEpoch), `step ${i}`);
      assert.equal(e.topologyEpoch, String(g.topologyEpoch), `step ${i}`);
    }
    // STALE_TOPOLOGY marks exactly the members whose last response said so.
    for (const p of want.processes) {
      for (const m of p.members) {
        const stale = !["Left", "Crashed", "Failed"].includes(m.state) && m.statuses.some((s) => s.statusCode === 0);
        assert.equal(b[m.memberId].staleTag, stale, `step ${i}: ${m.memberId} STALE_TOPOLOGY`);
      }
    }
    // The seed's story, checked on the page itself.
    const counts = Object.values(b)
      .map((l) => l.active.length)
      .filter((n) => n > 0)
      .sort();
    if (t < 20000 && e.state === "Stable" && counts.join() === "3,3,3") {
      seen.balanced0 = true;
      if (shots++ === 0) await screenshot(page, "rolling-bounce-1-balanced");
    }
    if (t >= 40000 && t < 60000 && e.topologyEpoch === "1" && b["A-1"].staleTag && b["B-1"].staleTag) {
      if (!seen.staleAfterC) await screenshot(page, "rolling-bounce-2-stale");
      seen.staleAfterC = true;
      assert.equal(b["C-1.2"].staleTag, false);
      if (b["C-1.2"].active.length === 3 && e.state === "Stable") seen.cTook = true;
    }
    if (t >= 40000 && t < 60000 && b["C-1.2"]?.revoking.length === 0 && b["A-1"].revoking.length > 0 && shots < 3) {
      shots = 3;
      await screenshot(page, "rolling-bounce-3-revoking");
    }
  }
  assert.ok(seen.balanced0, "3/3/3 at topology epoch 0");
  assert.ok(seen.staleAfterC, "A and B marked STALE_TOPOLOGY once C bumped the topology epoch");
  assert.ok(seen.cTook, "C took its three tasks while A and B were stale");
  const end = await board(page);
  const final = Object.values(end)
    .map((l) => l.active.length)
    .filter((n) => n > 0);
  assert.deepEqual(final, [3, 3, 3]);
  assert.ok(Object.values(end).every((l) => !l.staleTag));
  assert.equal((await epochs(page)).state, "Stable");
  await screenshot(page, "rolling-bounce-4-end");
  // Back and scrub replay, they do not undo: step 10 looks the same however we get there.
  await page.fill("#scrub", "10");
  await page.dispatchEvent("#scrub", "input");
  const viaScrub = await board(page);
  await page.keyboard.press("Home");
  for (let i = 0; i < 10; i++) await step(page);
  assert.deepEqual(await board(page), viaScrub);
  await page.keyboard.press("ArrowLeft");
  assert.equal((await epochs(page)).step, 9);
  assert.deepEqual(
    errors.filter((x) => !/favicon/.test(x)),
    [],
  );
  await context.close();
});

/** Steps forward until `done(board, epochs)` holds (at most `max` steps). */
async function stepUntil(page, done, max = 80) {
  for (let i = 0; i < max; i++) {
    const b = await board(page);
    const e = await epochs(page);
    if (done(b, e)) return { b, e };
    await step(page);
  }
  assert.fail("the page never reached the expected state");
}

test("the controls: add a process, crash one, redeploy with topology epoch + 1", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=scale-out&step=0`);
  await page.keyboard.press("End");
  const e = await epochs(page);
  assert.equal(e.state, "Stable");

  // Add a process E with two threads, a rack and client tags (sent as the protocol's
  // list of { key, value }: an object is refused).
  await page.fill("#add-id", "E");
  await page.fill("#add-threads", "2");
  await page.fill("#add-rack", "rack-9");
  await page.fill("#add-tags", "zone=z1 tier=gold");
  await page.click("#add-process");
  const running = (b) => Object.values(b).reduce((n, l) => n + l.active.length, 0);
  let r = await stepUntil(page, (b, e) => e.state === "Stable" && b["E-1"] && b["E-2"] && running(b) === 8);
  assert.ok(r.b["E-1"].active.length + r.b["E-2"].active.length > 0, "E runs tasks");
  const all = Object.values(r.b)
    .flatMap((l) => l.active)
    .sort();
  assert.deepEqual(all, ["0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "0_6", "0_7"], "all eight tasks run, once each");
  assert.ok(await page.isVisible(".rack[data-rack='rack-9'] .process[data-process='E']"), "E is drawn in its rack");
  const head = await page.textContent(".process[data-process='E'] .process-head");
  assert.ok(head.includes("zone=z1") && head.includes("tier=gold"), head);

  // Crash B: its tasks stay assigned to it (drawn as held by a dead member) until the
  // session timeout, then move.
  await page.selectOption("#proc-select", "B");
  await page.click("#crash-process");
  assert.equal(await page.getAttribute(".process[data-process='B']", "data-state"), "crashed");
  r = await board(page);
  assert.ok(r["B-1"].orphan.length > 0, "B's tasks are held by a dead member");
  await screenshot(page, "controls-crash");
  r = await stepUntil(page, (b, e) => e.state === "Stable" && b["B-1"].orphan.length === 0 && running(b) === 8);
  assert.equal(r.b["B-1"].active.length, 0);
  assert.ok((await page.locator("#markers .m.crash").count()) > 0, "a crash marker on the timeline");

  // Redeploy A with topology epoch 1: the group's topology epoch follows, the others are stale.
  await page.selectOption("#proc-select", "A");
  await page.click("#redeploy-process");
  r = await stepUntil(page, (b, e) => e.topologyEpoch === "1" && e.state === "Stable" && b["C-1"].staleTag);
  for (const id of ["C-1", "D-1", "E-1", "E-2"]) assert.ok(r.b[id].staleTag, `${id} is STALE_TOPOLOGY`);
  assert.equal(r.b["A-1.2"].staleTag, false);
  assert.ok((await page.locator("#markers .m.topology").count()) >= 2, "topology change marked");
  await screenshot(page, "controls-redeploy");

  // Topics, assignor, standby replicas: recorded into the scenario and shown.
  await page.fill("#topic-name", "audit");
  await page.fill("#topic-partitions", "3");
  await page.click("#create-topic");
  assert.match(await page.textContent("#topics"), /audit \(3 partitions\)/);
  await page.selectOption("#assignor-select", "highly_available");
  await page.click("#set-assignor");
  assert.equal(await page.textContent("#assignor"), "highly_available");
  await page.fill("#standby-count", "1");
  await page.click("#set-standbys");
  assert.equal(await page.textContent("#standbys"), "1");
  const scenario = JSON.parse(await page.inputValue("#scenario-json"));
  const types = scenario.actions.map((a) => a.type);
  for (const t of ["crashProcess", "restartProcess", "createTopics", "setAssignor", "setStandbyReplicas"])
    assert.ok(types.includes(t), t);
  assert.ok(
    scenario.actions.some(
      (a) => a.type === "addProcess" && a.processId === "E" && a.threads === 2 && a.rackId === "rack-9",
    ),
  );

  // A bad control input is an error message, and changes nothing.
  await page.fill("#topic-name", "bad name!");
  await page.click("#create-topic");
  assert.match(await page.textContent("#control-error"), /bad name!/);

  // The inspector: pick a heartbeat from the timeline, edit it, send it.
  await page.click("#tab-controls");
  await page.keyboard.press("End");
  for (let i = 0; i < 30 && (await page.locator("#events li[data-kind=heartbeat]").count()) === 0; i++)
    await page.keyboard.press("ArrowLeft");
  await page.locator("#events li[data-kind=heartbeat]").first().click();
  const req = JSON.parse(await page.inputValue("#insp-request"));
  assert.equal(req.groupId, "orders-app");
  assert.ok(JSON.parse(await page.textContent("#insp-response")).memberEpoch !== undefined);
  await page.fill(
    "#insp-request",
    JSON.stringify({
      ...req,
      memberId: "intruder",
      memberEpoch: 7,
      activeTasks: null,
      standbyTasks: null,
      warmupTasks: null,
    }),
  );
  await page.click("#insp-send");
  const resp = JSON.parse(await page.textContent("#insp-response"));
  assert.equal(resp.errorCode, 25, "UNKNOWN_MEMBER_ID for a member the group does not know");
  await page.fill("#insp-request", '{"groupId": 5}');
  await page.click("#insp-send");
  assert.match(await page.textContent("#insp-response"), /groupId: invalid type: integer `5`, expected a string/);
  assert.deepEqual(
    errors.filter((x) => !/favicon/.test(x)),
    [],
  );
  await context.close();
});

test("a shared link reproduces the same state", async () => {
  const first = await open(env.browser, `${env.server.url}#preset=crash&step=0`);
  const page = first.page;
  for (let i = 0; i < 6; i++) await step(page);
  await page.fill("#add-id", "Z");
  await page.click("#add-process");
  for (let i = 0; i < 5; i++) await step(page);
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#s="));
  const link = await page.evaluate(() => location.href);
  const want = { board: await board(page), epochs: await epochs(page), clock: await page.textContent("#clock") };
  const second = await open(env.browser, link);
  assert.deepEqual(await board(second.page), want.board);
  assert.deepEqual(await epochs(second.page), want.epochs);
  assert.equal(await second.page.textContent("#clock"), want.clock);
  assert.ok(JSON.parse(await second.page.inputValue("#scenario-json")).actions.some((a) => a.processId === "Z"));
  // A preset link names the preset and the step.
  const third = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=12`);
  assert.equal((await epochs(third.page)).step, 12);
  for (const p of [first, second, third]) await p.context.close();
});

test("ids from input are shown as text, never as HTML", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=scale-out&step=3`);
  let dialogs = 0;
  page.on("dialog", async (d) => {
    dialogs++;
    await d.dismiss();
  });
  const evil = "<img src=x onerror=alert(1)>";
  await page.fill("#add-id", evil);
  await page.click("#add-process");
  for (let i = 0; i < 4; i++) await step(page);
  const b = await board(page);
  assert.ok(b[`${evil}-1`], "the lane exists under its literal id");
  assert.equal(b[`${evil}-1`].label, `${evil}-1`);
  assert.equal(await page.locator("#lanes img, #events img, #member-rows img").count(), 0);
  assert.match(await page.textContent("#events"), /<img src=x onerror=alert\(1\)>/);
  // A hand-made heartbeat with a hostile member id and topic name.
  await page.click("#tab-inspector");
  await page.fill(
    "#insp-request",
    JSON.stringify({
      groupId: "orders-app",
      memberId: "<b onmouseover=alert(2)>x</b>",
      memberEpoch: 0,
      rebalanceTimeoutMs: 1000,
      topology: { epoch: 0, subtopologies: [{ subtopologyId: "0", sourceTopics: ["orders"] }] },
      activeTasks: [],
      standbyTasks: [],
      warmupTasks: [],
      processId: "<script>alert(3)</script>",
    }),
  );
  await page.click("#insp-send");
  assert.equal(await page.locator("#lanes b, #lanes script, #member-rows b").count(), 0);
  assert.match(await page.textContent("#member-rows"), /<b onmouseover=alert\(2\)>x<\/b>/);
  await page.waitForTimeout(300);
  assert.equal(dialogs, 0, "no script ran");
  await screenshot(page, "hostile-ids");
  assert.deepEqual(
    errors.filter((x) => !/favicon/.test(x)),
    [],
  );
  await context.close();
});

test("keyboard shortcuts step and play", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=0`);
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  assert.equal((await epochs(page)).step, 2);
  await page.keyboard.press("k");
  assert.equal((await epochs(page)).step, 1);
  await page.selectOption("#speed", "10");
  await page.focus("body");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => Number(document.body.dataset.step) >= 5);
  await page.keyboard.press(" ");
  const s = (await epochs(page)).step;
  await page.waitForTimeout(400);
  assert.equal((await epochs(page)).step, s, "paused");
  await context.close();
});

test("dark mode is readable and a broken module gives a clear message", async () => {
  const dark = await open(env.browser, `${env.server.url}#preset=standbys-racks&step=30`, { colorScheme: "dark" });
  const bg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, "rgb(18, 21, 28)");
  await screenshot(dark.page, "dark-standbys");
  await dark.context.close();

  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.route("**/*.wasm", (r) => r.abort());
  await page.goto(env.server.url);
  await page.waitForSelector("#load-error:not([hidden])");
  assert.match(await page.textContent("#load-error"), /WebAssembly module failed to load/);
  await context.close();
});
