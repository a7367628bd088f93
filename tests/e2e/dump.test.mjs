// Opening a broker dump in the playground (issue 15 item 3): a kafka-dump-log file
// through "Open a broker dump", JSON lines pasted into the Scenario tab. The timeline
// steps through the real history with the same lanes, markers at epoch bumps, joins
// and leaves, and the inspector shows each step's records; the link stays small.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { board, epochs, open, usePage } from "./harness.mjs";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const DUMP = path.join(fixtures, "kafka-rolling-bounce.dump.txt");

const env = usePage();

test("a kafka-dump-log file opens as the timeline: lanes, markers, records, a small link", async () => {
  const { page, errors } = await open(env.browser, env.server.url);
  await page.setInputFiles("#dump-file", DUMP);
  await page.waitForSelector("body[data-dump]");
  assert.match(await page.textContent("#story-title"), /^Broker dump: kafka-rolling-bounce\.dump\.txt$/);
  const start = await epochs(page);
  assert.equal(start.steps, 39);
  assert.equal(start.step, 0);
  // Markers: 9 epoch bumps, 6 joins, 3 leaves.
  const marks = await page.evaluate(() =>
    ["epoch", "join", "leave"].map((k) => document.querySelectorAll(`#markers .m.${k}`).length),
  );
  assert.deepEqual(marks, [9, 6, 3]);
  // The first step: the first member joins and holds all six tasks.
  await page.keyboard.press("ArrowRight");
  let b = await board(page);
  assert.deepEqual(Object.keys(b), ["Yw3H1jYkQ0mQ5cR2vX9kLA"]);
  assert.deepEqual(b.Yw3H1jYkQ0mQ5cR2vX9kLA.active.length, 6);
  assert.equal((await epochs(page)).groupEpoch, "1");
  // Step 3 (a1 revoking three tasks for b1): the lanes show the revocation.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  b = await board(page);
  assert.equal(b.Yw3H1jYkQ0mQ5cR2vX9kLA.revoking.length, 3);
  // The last step: three new members, each with two tasks, all Stable at epoch 9.
  await page.keyboard.press("End");
  const end = await epochs(page);
  assert.deepEqual([end.step, end.state, end.groupEpoch, end.assignmentEpoch], [39, "Stable", "9", "9"]);
  b = await board(page);
  assert.deepEqual(Object.keys(b).sort(), [
    "Fk2pQ7wXRbyN4vE9hT1mCs",
    "Pm9aS4eVQf7tB1yK6jD0Ho",
    "Zc6dJ3nKTh0sW8qL5xG2Ru",
  ]);
  assert.ok(
    Object.values(b).every((m) => m.active.length === 2),
    JSON.stringify(b),
  );
  // The inspector shows the step's record.
  await page.click("#events li");
  const shown = JSON.parse(await page.textContent("#insp-response"));
  assert.equal(shown.recordType, 22);
  assert.equal(shown.key.data.memberId, "Pm9aS4eVQf7tB1yK6jD0Ho");
  assert.equal(shown.value.data.memberEpoch, 9);
  // The link names the dump and the step, not its content.
  await page.waitForFunction(() => location.hash.startsWith("#dump="));
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, "#dump=kafka-rolling-bounce.dump.txt&step=39");
  // The dump cannot be edited: a control refuses, and nothing changes.
  assert.deepEqual(errors, []);
});

test("JSON lines pasted into the Scenario tab open with one step per record; a bad dump changes nothing", async () => {
  const { page, errors } = await open(env.browser, env.server.url);
  await page.click("#tab-scenario");
  const bad = fs.readFileSync(DUMP, "utf8").replace('"memberEpoch":1,', '"memberEpoch":"one",');
  await page.fill("#dump-text", bad);
  await page.click("#dump-open");
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /^Could not open pasted dump: line 9: payload\.data\.memberEpoch: /);
  assert.equal(await page.evaluate(() => document.body.dataset.dump), undefined);
  await page.fill("#dump-text", fs.readFileSync(path.join(fixtures, "kafka-rolling-bounce.jsonl"), "utf8"));
  await page.click("#dump-open");
  await page.waitForSelector("body[data-dump]");
  assert.equal((await epochs(page)).steps, 92);
  assert.deepEqual(errors, []);
});
