// A trapped WebAssembly instance in the playground: after the module traps (here on
// purpose, through its internal __trap()), the page's next call into it fails with an
// Error of kind "trapped"; the page reloads a fresh instance, replays the scenario to
// the step shown, says so, and keeps working.

import assert from "node:assert/strict";
import { test } from "node:test";
import { epochs, open, usePage } from "./harness.mjs";

const env = usePage();

test("the page recovers from a trapped module by reloading it and replaying", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=5`);
  const shown = await epochs(page);
  const kind = await page.evaluate(async () => {
    const m = await import("./pkg/index.js");
    try {
      m.__trap();
    } catch (e) {
      return `${e.kind}: ${e.message}`;
    }
    return "no trap";
  });
  assert.match(kind, /^trapped: the WebAssembly instance trapped in __trap/);
  // The next call into the module (choosing a preset) finds it dead: the page recovers.
  await page.selectOption("#preset", "crash");
  await page.waitForFunction(() => document.getElementById("toast").textContent.includes("was reloaded"), null, {
    timeout: 20000,
  });
  await page.waitForSelector("body:not([data-busy])", { timeout: 60000 });
  const after = await epochs(page);
  assert.equal(after.step, shown.step);
  assert.equal(after.groupEpoch, shown.groupEpoch);
  // And it keeps working on the fresh instance.
  await page.selectOption("#preset", "crash");
  await page.waitForFunction(() => document.body.dataset.step === "0", null, { timeout: 20000 });
  // The one error the page met is the trapped call it recovered from.
  assert.deepEqual(
    errors.filter((x) => !/favicon|WebAssembly instance trapped/.test(x)),
    [],
  );
  await context.close();
});
