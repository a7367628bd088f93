// The timeline's semantics (issue 14, item 4): Play stops at the last computed step;
// End shows what an action added at the last step causes; an action at step 0 shows
// its result; a failed action is not recorded and its error clears on the next good
// one; a preset with changes is a custom scenario and says so.

import assert from "node:assert/strict";
import { test } from "node:test";
import { board, epochs, open, usePage } from "./harness.mjs";

const env = usePage();

const scenarioOf = async (page) => JSON.parse(await page.inputValue("#scenario-json"));

test("Play stops at the last computed step, and starts over from there", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=static-restart&step=0`);
  const last = (await epochs(page)).steps;
  await page.selectOption("#speed", "10");
  await page.focus("#step-last");
  await page.keyboard.press("Enter");
  assert.equal((await epochs(page)).step, last);
  await page.click("#step-back");
  await page.click("#step-back");
  await page.click("#play");
  await page.waitForFunction(() => document.getElementById("play").getAttribute("aria-label") === "Play", null, {
    timeout: 5000,
  });
  const e = await epochs(page);
  assert.equal(e.step, last, "stopped at the last step");
  assert.equal(e.steps, last, "and computed nothing past it");
  await page.waitForTimeout(400);
  assert.equal((await epochs(page)).step, last, "stays stopped");
  // Play at the end starts again from the start.
  await page.click("#play");
  await page.waitForFunction(() => Number(document.body.dataset.step) >= 1);
  await page.click("#play");
  assert.ok((await epochs(page)).step < last);
  await context.close();
});

test("an action at the last step: End shows what it causes", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=scale-out&step=0`);
  await page.keyboard.press("End");
  const before = await epochs(page);
  await page.fill("#add-id", "Z");
  await page.click("#add-process");
  assert.equal(await page.textContent("#control-error"), "");
  // The action's own frame: Z joining.
  assert.ok((await board(page))["Z-1"], "Z's lane is shown at once");
  await page.keyboard.press("End");
  const e = await epochs(page);
  assert.ok(e.steps > before.steps, "the timeline runs on past the action");
  assert.equal(e.state, "Stable");
  const b = await board(page);
  assert.ok(b["Z-1"].active.length > 0, "at the end Z runs tasks");
  const scenario = await scenarioOf(page);
  assert.ok(
    scenario.endMs >= scenario.actions.at(-1).atMs + 45000,
    "the scenario's end leaves time for the consequences",
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test("a control used at step 0 shows its result", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=0`);
  assert.equal((await epochs(page)).step, 0);
  await page.fill("#add-id", "Q");
  await page.click("#add-process");
  const e = await epochs(page);
  assert.ok(e.step >= 1, `shows the frame of the action (step ${e.step})`);
  assert.ok((await board(page))["Q-1"], "Q's lane is there");
  assert.match(await page.textContent("#events"), /Q/);
  await context.close();
});

test("a failed action is not recorded, and its error clears on the next good action", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=12`);
  const step = (await epochs(page)).step;
  const before = await scenarioOf(page);
  // A process id that is taken: the check passes, running it fails.
  await page.fill("#add-id", "A");
  await page.click("#add-process");
  assert.equal(await page.textContent("#control-error"), 'process "A" already exists');
  assert.deepEqual(await scenarioOf(page), before, "the scenario is unchanged");
  assert.equal((await epochs(page)).step, step, "the page stays where it was");
  assert.equal(await page.textContent("#story-title"), "Rolling bounce to topology epoch 1", "still the preset");
  assert.equal(await page.inputValue("#add-id"), "A", "the form keeps what failed, to fix it");
  await page.waitForTimeout(400);
  assert.match(await page.evaluate(() => location.hash), /^#preset=rolling-bounce&step=12$/);
  // A good action clears the error.
  await page.selectOption("#proc-select", "A");
  await page.click("#crash-process");
  assert.equal(await page.textContent("#control-error"), "");
  assert.equal((await scenarioOf(page)).actions.filter((a) => a.type === "crashProcess").length, 1);
  assert.equal(
    (await scenarioOf(page)).actions.filter((a) => a.type === "addProcess").length,
    before.actions.filter((a) => a.type === "addProcess").length,
  );
  await context.close();
});

test("an edited preset is a custom scenario: title, narration, select, link and export say so", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=30`);
  await page.selectOption("#proc-select", "A");
  await page.click("#crash-process");
  assert.equal(await page.textContent("#story-title"), "Rolling bounce to topology epoch 1 (edited)");
  assert.ok(await page.isVisible("#edited-note"));
  assert.equal(await page.inputValue("#preset"), "", "the select shows a custom scenario");
  assert.match(await page.textContent("#narration"), /^\(Edited at \d+\.\d s: this is the preset's own narration/);
  await page.waitForFunction(() => location.hash.startsWith("#s="), null, { timeout: 3000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  assert.equal(download.suggestedFilename(), "rolling-bounce-edited.json");
  // The link carries the edit: opened again, it is still the edited scenario.
  const link = await page.evaluate(() => location.href);
  const again = await open(env.browser, link);
  assert.equal(await again.page.textContent("#story-title"), "Rolling bounce to topology epoch 1 (edited)");
  assert.equal(await again.page.inputValue("#preset"), "");
  // Before the edit, the narration is the preset's own, unmarked.
  await again.page.keyboard.press("Home");
  await again.page.keyboard.press("ArrowRight");
  assert.doesNotMatch(await again.page.textContent("#narration"), /Edited/);
  await again.context.close();
  await context.close();
});
