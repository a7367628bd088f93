// The web build's assign() in headless Chromium (www/pkg/index.js, the package's
// `./web` entry): after init() it gives exactly the native output of the shared
// fixture (tests/fixtures/assign_cases.json, kept by tests/it/assign_json.rs), a member
// named "__proto__" is an own property of the result, and hostile specs throw Errors
// that carry .kind and .path.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { usePage, WWW } from "./harness.mjs";

const env = usePage();

before(() => {
  assert.ok(existsSync(join(WWW, "pkg", "index.js")), "run scripts/build-wasm.sh first");
});

const CASES = JSON.parse(readFileSync(new URL("../fixtures/assign_cases.json", import.meta.url), "utf8"));

test("the web build's assign() gives the native results and throws Errors with kind and path", async () => {
  const page = await env.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url);
  const r = await page.evaluate(async (cases) => {
    const m = await import("./pkg/index.js");
    await m.default();
    const thrown = (f) => {
      try {
        f();
        return null;
      } catch (e) {
        return { isError: e instanceof Error, kind: e.kind, path: e.path, message: e.message };
      }
    };
    const one = {
      subtopologies: [{ subtopologyId: "a", numPartitions: 2 }],
      members: [{ memberId: "__proto__", processId: "p" }],
    };
    const proto = m.assign("sticky", one);
    return {
      results: cases.map((c) => m.assign(c.assignor, c.groupSpec, c.config)),
      proto: [Object.keys(proto.members), Object.getPrototypeOf(proto.members) === Object.prototype],
      hostile: [
        thrown(() => m.assign("sticky", { subtopologies: [{ subtopologyId: "a", numPartitions: 1.5 }], members: [] })),
        thrown(() => m.assign("sticky", { subtopologies: [], members: [{ memberId: "m", processId: "p", extra: 1 }] })),
        thrown(() =>
          m.assign("sticky", {
            subtopologies: [],
            members: [
              { memberId: "m", processId: "p" },
              { memberId: "m", processId: "q" },
            ],
          }),
        ),
        thrown(() =>
          m.assign("sticky", { subtopologies: [], members: [{ memberId: "m", processId: "p".repeat(40000) }] }),
        ),
        thrown(() => m.assign("sticky", "{")),
      ],
    };
  }, CASES);
  assert.deepEqual(errors, []);
  for (const [i, got] of r.results.entries()) assert.deepEqual(got, CASES[i].expected, CASES[i].name);
  assert.deepEqual(r.proto, [["__proto__"], true]);
  assert.deepEqual(
    r.hostile.map((e) => [e.isError, e.kind, e.path]),
    [
      [true, "decode", "subtopologies[0].numPartitions"],
      [true, "decode", "members[0].extra"],
      [true, "invalid", "members[1].memberId"],
      [true, "limit", "members[0].processId"],
      [true, "syntax", ""],
    ],
  );
  await page.close();
});
