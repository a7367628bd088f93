// Keyboard, phone and colour (issue 14, item 5): keys act on the focused control
// before the timeline; Import is reachable by keyboard; nothing scrolls sideways at
// 390 px; roles read without colour; text contrast >= 4.5:1 in both schemes; every
// field labelled; the Add form resets its ids after use.

import assert from "node:assert/strict";
import { test } from "node:test";
import { lowContrast } from "./contrast.mjs";
import { board, epochs, open, usePage } from "./harness.mjs";

const env = usePage();

test("Space and arrows act on the focused button or tab, not on the timeline", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=5`);
  // Arrows on a tab move between tabs.
  await page.focus("#tab-controls");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.getAttribute("#tab-inspector", "aria-selected"), "true");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-inspector");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("End");
  assert.equal(await page.getAttribute("#tab-help", "aria-selected"), "true");
  assert.equal((await epochs(page)).step, 5, "the timeline did not move");
  // Space on a focused button presses that button: it does not start playing.
  await page.focus("#view-toggle");
  await page.keyboard.press(" ");
  assert.equal(await page.getAttribute("#board", "data-mode"), "overview");
  assert.equal(await page.getAttribute("#play", "aria-label"), "Play", "not playing");
  await page.keyboard.press("Enter");
  assert.equal(await page.getAttribute("#board", "data-mode"), "lanes");
  await page.focus("#step-fwd");
  await page.keyboard.press(" ");
  assert.equal((await epochs(page)).step, 6, "Space pressed the focused step button");
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute("#play", "aria-label"), "Play");
  // Elsewhere the keys drive the timeline.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("ArrowRight");
  assert.equal((await epochs(page)).step, 7);
  await context.close();
});

test("Import, the overview and the controls are reachable by keyboard", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=crash&step=3`);
  const reached = new Set();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    reached.add(await page.evaluate(() => document.activeElement.id));
  }
  for (const id of [
    "preset",
    "share",
    "export",
    "import-button",
    "view-toggle",
    "step-first",
    "play",
    "step-last",
    "scrub",
    "tab-controls",
    "add-id",
    "add-process",
    "stop-process",
  ]) {
    assert.ok(reached.has(id), `${id} is reached by Tab`);
  }
  // Enter and Space on Import open the file input (its click opens the browser's chooser).
  await page.evaluate(() => {
    window.opened = 0;
    const input = document.getElementById("import");
    input.addEventListener("click", (e) => {
      window.opened++;
      e.preventDefault();
    });
  });
  await page.focus("#import-button");
  await page.keyboard.press("Enter");
  await page.keyboard.press(" ");
  assert.equal(await page.evaluate(() => window.opened), 2, "Enter and Space on Import open the file input");
  await context.close();
});

test("at 390 px nothing scrolls sideways, and the lane's label sits above its chips", async () => {
  const links = ["#preset=rolling-bounce&step=24", "#preset=standbys-racks&step=20", "#preset=crash&step=14"];
  for (const link of links) {
    const { page, context, errors } = await open(env.browser, `${env.server.url}${link}`, { width: 390, height: 844 });
    for (const tab of ["controls", "inspector", "describe", "scenario", "help"]) {
      await page.click(`#tab-${tab}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `${link} ${tab}: the page is ${wide} px wide`);
    }
    const lane = await page.evaluate(() => {
      const l = document.querySelector(".lane");
      const a = l.querySelector(".lane-label").getBoundingClientRect();
      const b = l.querySelector(".chips").getBoundingClientRect();
      return { labelBottom: a.bottom, chipsTop: b.top, chipsWidth: b.width };
    });
    assert.ok(lane.labelBottom <= lane.chipsTop + 1, `${link}: the label is above the chips`);
    assert.ok(lane.chipsWidth > 300, `${link}: the chips take the width (${lane.chipsWidth} px)`);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // A big group's overview fits too.
  const { page, context } = await open(env.browser, env.server.url, { width: 390, height: 844 });
  await page.click("#view-toggle");
  assert.equal(await page.getAttribute("#board", "data-mode"), "overview");
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  await context.close();
});

test("roles read without colour: a letter on every chip, a shape per timeline marker", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=warmup&step=6`);
  const letters = await page.$$eval("#lanes .chip, .legend .chip", (chips) =>
    chips.map((c) => [c.dataset.role || c.classList[1], getComputedStyle(c, "::before").content]),
  );
  assert.ok(letters.length > 5);
  const want = { active: '"A"', standby: '"S"', warmup: '"W"' };
  for (const [role, content] of letters) assert.equal(content, want[role], `${role} chip`);
  assert.ok(letters.some(([r]) => r === "warmup") && letters.some(([r]) => r === "standby"));
  const shapes = await page.$$eval(".marker-legend .m", (ms) =>
    ms.map((m) => `${getComputedStyle(m).clipPath}|${getComputedStyle(m).borderRadius}`),
  );
  assert.equal(new Set(shapes).size, 6, `six distinct marker shapes: ${shapes.join(" ; ")}`);
  const tops = await page.$$eval("#markers .m", (ms) => new Map(ms.map((m) => [m.classList[1], m.style.top])).size);
  assert.ok(tops >= 3, "markers of different kinds");
  await context.close();
});

test("text and chips have a contrast of at least 4.5:1, light and dark", async () => {
  for (const colorScheme of ["light", "dark"]) {
    for (const link of [
      "#preset=rolling-bounce&step=24",
      "#preset=crash&step=14",
      "#preset=warmup&step=6",
      "#preset=missing-source-topic&step=6",
    ]) {
      const { page, context } = await open(env.browser, `${env.server.url}${link}`, { colorScheme });
      const low = await page.evaluate(`(${lowContrast.toString()})(4.5)`);
      assert.deepEqual(low, [], `${colorScheme} ${link}`);
      await context.close();
    }
  }
});

test("every form field has a label, and the Add form resets its ids after use", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=static-restart&step=8`);
  const unlabelled = await page.$$eval("input, select, textarea", (fields) =>
    fields
      .filter(
        (f) => !(f.labels && f.labels.length) && !f.getAttribute("aria-label") && !f.getAttribute("aria-labelledby"),
      )
      .map((f) => f.id || f.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unlabelled, []);
  await page.fill("#add-id", "E");
  await page.fill("#add-instance", "payments-e");
  await page.click("#add-process");
  assert.equal(await page.textContent("#control-error"), "");
  assert.equal(await page.inputValue("#add-id"), "", "the id is cleared");
  assert.equal(
    await page.inputValue("#add-instance"),
    "",
    "the instance id is cleared (a second Add must not reuse it)",
  );
  // A second Add gets a new automatic id and no instance id: it succeeds.
  await page.click("#add-process");
  assert.equal(await page.textContent("#control-error"), "");
  const adds = JSON.parse(await page.inputValue("#scenario-json")).actions.filter((a) => a.type === "addProcess");
  assert.deepEqual(
    adds.slice(-2).map((a) => [a.processId, a.instanceId || null]),
    [
      ["E", "payments-e"],
      ["D", null],
    ],
  );
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
  assert.ok((await board(page))["D-1"]);
  await context.close();
});
