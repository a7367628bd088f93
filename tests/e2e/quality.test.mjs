// The playground's quality panel (www/quality.js): at every step of the scale-out
// preset it rates the current target with assignmentQuality(); once four processes
// share eight tasks the spread per subtopology is even and no more tasks moved than
// the balance needs. Each figure's tooltip says what it means.

import assert from "node:assert/strict";
import { test } from "node:test";
import { open, usePage } from "./harness.mjs";

const env = usePage();

async function figures(page) {
  return page.$$eval("#quality .quality-figures > div", (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.figure, { text: e.querySelector("dd").textContent, title: e.title }])),
  );
}

test("the quality panel shows the spread and the moves of the target at every step", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=scale-out`);
  const steps = Number(await page.getAttribute("body", "data-steps"));
  assert.ok(steps > 5, `${steps} steps`);
  let rated = 0;
  for (let i = 0; i <= steps; i++) {
    const f = await figures(page);
    if (Object.keys(f).length > 0) {
      rated++;
      assert.match(f.spread.text, /^\d+\.\d\d \/ \d+$/, `step ${i}: spread ${f.spread.text}`);
      const [moved, fewest] = f.moved.text.split(" / ").map(Number);
      assert.ok(moved >= fewest, `step ${i}: moved ${f.moved.text}`);
    }
    await page.keyboard.press("ArrowRight");
  }
  assert.ok(rated > steps / 2, `rated ${rated} of ${steps + 1} steps`);
  await page.keyboard.press("End");
  const f = await figures(page);
  // 8 tasks of one subtopology over 4 processes: 2 each.
  assert.equal(f.spread.text, "0.00 / 0");
  assert.equal(f.balance.text, "0 / 0");
  assert.match(f.spread.title, /most minus the fewest/);
  assert.match(await page.textContent("#quality h4"), /Target quality \(sticky\)/);
  assert.deepEqual(
    errors.filter((x) => !/favicon/.test(x)),
    [],
  );
  await context.close();
});
