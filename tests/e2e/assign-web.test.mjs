// The web build's assign() in headless Chromium: www/pkg/index.js (the package's
// `./web` entry, dist/web/index.js) gives the packed fast path after init(), and it
// answers exactly as the strict wasm export (www/pkg/streams_rebalance.js) does, for
// valid specs and for hostile ones, results and error messages alike.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serve, launch, WWW } from "./harness.mjs";

let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(WWW, "pkg", "index.js")), "run scripts/build-wasm.sh first");
  server = await serve();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

function spec(members, subs, partitions, extra = {}) {
  return {
    subtopologies: Array.from({ length: subs }, (_, i) => ({ subtopologyId: `s${i}`, numPartitions: partitions, stateful: i % 2 === 0 })),
    members: Array.from({ length: members }, (_, i) => ({ memberId: `m${i}`, processId: `p${i % 3}`, ...extra })),
  };
}

test("the web build's assign() is the fast path and equals the strict export", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.url);
  const valid = [
    spec(3, 2, 4),
    spec(10, 3, 7, { clientTags: { zone: "a" }, rackId: "r" }),
    { ...spec(2, 1, 3), groupTopologyEpoch: 2 },
    {
      subtopologies: [{ subtopologyId: "zé", numPartitions: 3, stateful: true }],
      members: [
        { memberId: "10", processId: "p", activeTasks: [{ subtopologyId: "zé", partitions: [2, 0] }], taskOffsets: [{ subtopologyId: "zé", partition: 0, offset: 9007199254740991 }] },
        { memberId: "9", processId: "q", clientTags: [{ key: "zone", value: "😀" }] },
      ],
    },
  ];
  const r = await page.evaluate(async (valid) => {
    const fast = await import("./pkg/index.js");
    await fast.default();
    const strict = await import("./pkg/streams_rebalance.js");
    const outcome = (f) => {
      try {
        return JSON.stringify(f());
      } catch (e) {
        return `Error: ${e.message}`;
      }
    };
    const hostile = [
      { subtopologies: [{ subtopologyId: "a", numPartitions: 1 }], members: [{ memberId: "m", processId: "p", taskOffsets: [{ subtopologyId: "a", partition: 0, offset: 5n }] }] },
      { subtopologies: [{ subtopologyId: "a", numPartitions: 1 }], members: [{ memberId: "m", processId: "p\ud800" }] },
      // eslint-disable-next-line no-sparse-arrays
      { subtopologies: [{ subtopologyId: "a", numPartitions: 1 }], members: [, { memberId: "m", processId: "p" }] },
      { subtopologies: [{ subtopologyId: "a", numPartitions: 1.5 }], members: [] },
      { subtopologies: [], members: [{ memberId: "m", processId: "p", extra: 1 }] },
      { subtopologies: [{ subtopologyId: "a", numPartitions: 1 }], members: [{ memberId: "m", processId: "p" }, { memberId: "m", processId: "q" }] },
    ];
    const cases = [...valid, ...hostile];
    const config = { numStandbyReplicas: 1 };
    return {
      same: cases.map((s) => [outcome(() => fast.assign("sticky", s, config)), outcome(() => strict.assign("sticky", s, config))]),
      fastIsWrapper: fast.assign !== strict.assign,
      // The fast path alone (no strict fall-back) answers every valid case.
      fastOnly: await (async () => {
        const { fastAssign } = await import("./pkg/fast-assign.js");
        const only = fastAssign(() => {
          throw new Error("fell back");
        }, strict.__assignPacked);
        return valid.map((s, i) => outcome(() => only("sticky", s, config)) === outcome(() => strict.assign("sticky", s, config)) || i);
      })(),
      errorsThrown: hostile.map((s) => outcome(() => fast.assign("sticky", s, config)).startsWith("Error: ")).filter(Boolean).length,
    };
  }, valid);
  assert.deepEqual(errors, []);
  assert.ok(r.fastIsWrapper, "the web entry's assign is the fast wrapper");
  for (const [i, [fast, strict]] of r.same.entries()) assert.equal(fast, strict, `case ${i}`);
  assert.ok(r.errorsThrown >= 5, `hostile cases throw the strict errors: ${r.errorsThrown}`);
  assert.ok(!r.same[0][0].startsWith("Error"), r.same[0][0]);
  assert.deepEqual(r.fastOnly, r.fastOnly.map(() => true), "the fast path answered the valid cases");
  await page.close();
});
