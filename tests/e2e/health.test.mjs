// The playground's health badges (www/health.js): the invariant checker's rules are
// shown for every frame of the rolling-bounce preset, all holding; each badge's
// tooltip says what its rule means.

import assert from "node:assert/strict";
import { test } from "node:test";
import { open, usePage } from "./harness.mjs";

const env = usePage();

async function badges(page) {
  return page.$$eval("#health .health-badge", (els) =>
    els.map((e) => ({ rule: e.dataset.rule, ok: e.classList.contains("ok"), title: e.title })),
  );
}

test("health badges hold at every step of the rolling bounce", async () => {
  const { page, context, errors } = await open(env.browser, env.server.url);
  const steps = Number(await page.getAttribute("body", "data-steps"));
  assert.ok(steps > 10, `${steps} steps`);
  for (let i = 0; i <= steps; i++) {
    const b = await badges(page);
    assert.equal(b.length, 8, `step ${i}: ${b.length} badges`);
    const broken = b.filter((x) => !x.ok);
    assert.deepEqual(broken, [], `step ${i}`);
    await page.keyboard.press("ArrowRight");
  }
  const b = await badges(page);
  assert.match(b.find((x) => x.rule === "activeOnce").title, /No task is active on two members/);
  assert.deepEqual(
    errors.filter((x) => !/favicon/.test(x)),
    [],
  );
  await context.close();
});
