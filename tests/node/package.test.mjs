// The packed npm package, used as a user would: `npm pack` in pkg/, install the
// tarball into a fresh folder, then require() it, import it, and type-check a program
// against its types. Needs the wasm build first (scripts/build-wasm.sh).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkgDir = join(root, "pkg");
let work;
let app;
let packed;

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs a script in the consumer folder and returns what it printed, parsed as JSON. */
function runScript(name, source) {
  writeFileSync(join(app, name), source);
  return JSON.parse(run(process.execPath, [name], app));
}

const JOIN = {
  groupId: "app",
  memberId: "",
  memberEpoch: 0,
  rebalanceTimeoutMs: 30000,
  topology: { epoch: 0, subtopologies: [{ subtopologyId: "0", sourceTopics: ["input"] }] },
  activeTasks: [],
  standbyTasks: [],
  warmupTasks: [],
  processId: "process-1",
};
const INVALID = { ...JOIN, rebalanceTimeoutMs: -1 };

// What every script does with the package `m`: version, a heartbeat that fails
// validation, a malformed one that must throw, then a valid join (as JSON text) of a
// group reading a 3-partition topic, and a describe of the group.
const SCENARIO = `
const c = new m.Coordinator({ seed: 1 });
const created = c.createTopics([{ name: "input", numPartitions: 3 }]);
const invalid = c.heartbeat(${JSON.stringify(INVALID)});
let thrown = null;
try { c.heartbeat({ groupId: "app", memberId: "", memberEpoch: "zero" }); } catch (e) { thrown = { isError: e instanceof Error, message: e.message, kind: e.kind, path: e.path }; }
const joined = c.heartbeat(JSON.stringify(${JSON.stringify(JOIN)}));
const described = c.describe(["app"]);
const spec = { subtopologies: [{ subtopologyId: "0", numPartitions: 3 }], members: [{ memberId: "b", processId: "p2" }, { memberId: "a", processId: "p1" }] };
const assigned = m.assign("sticky", spec);
let assignThrown = null;
try { m.assign("sticky", { ...spec, members: [{ memberId: "a" }] }); } catch (e) { assignThrown = e.message; }
console.log(JSON.stringify({ version: m.version(), created, invalid, thrown, joined, described, assigned, assignThrown, keys: Object.keys(m).sort() }));
`;

before(() => {
  assert.ok(
    existsSync(join(pkgDir, "dist", "node", "streams_rebalance.js")) &&
      existsSync(join(pkgDir, "dist", "web", "streams_rebalance_bg.wasm")),
    "pkg/dist is missing: run scripts/build-wasm.sh first",
  );
  work = mkdtempSync(join(tmpdir(), "streams-rebalance-pack-"));
  const out = run("npm", ["pack", "--json", "--pack-destination", work], pkgDir);
  packed = JSON.parse(out)[0];
  app = join(work, "app");
  run("mkdir", ["-p", app], work);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--offline", join(work, packed.filename)], app);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test("the tarball ships the hand-written files and both builds, and nothing else", () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of [
    "LICENSE",
    "README.md",
    "bin/streams-rebalance.mjs",
    "index.d.ts",
    "index.d.mts",
    "node.cjs",
    "node.mjs",
    "package.json",
    "dist/node/streams_rebalance.js",
    "dist/web/streams_rebalance.js",
    "dist/web/streams_rebalance_bg.wasm",
    "dist/web/index.js",
  ]) {
    assert.ok(files.includes(f), `${f} is missing from the tarball: ${files.join(", ")}`);
  }
  for (const f of files) {
    assert.match(
      f,
      /^(LICENSE|README\.md|bin\/streams-rebalance\.mjs|index\.d\.m?ts|node\.cjs|node\.mjs|package\.json|dist\/(node|web)\/.+)$/,
      f,
    );
  }
  // The wasm once (the Node build reads the web build's): it was shipped twice.
  assert.deepEqual(
    files.filter((f) => f.endsWith(".wasm")),
    ["dist/web/streams_rebalance_bg.wasm"],
  );
  const wasm = packed.files.find((f) => f.path.endsWith(".wasm")).size;
  assert.ok(packed.unpackedSize < wasm * 1.5, `unpacked ${packed.unpackedSize} bytes for a ${wasm}-byte wasm`);
  const installed = JSON.parse(readFileSync(join(app, "node_modules", "streams-rebalance", "package.json"), "utf8"));
  assert.equal(installed.name, "streams-rebalance");
  assert.equal(installed.license, "Apache-2.0");
  assert.match(installed.repository.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  assert.equal(installed.repository.directory, "pkg");
  assert.match(installed.homepage, /^https:\/\/github\.com\/[\w-]+\/[\w-]+#readme$/);
  assert.match(installed.bugs.url, /^https:\/\/github\.com\/[\w-]+\/[\w-]+\/issues$/);
});

function checkScenario(r) {
  assert.deepEqual(r.version, { package: "0.1.0", protocol: "KIP-1071 revision 58" });
  assert.ok(r.keys.includes("Coordinator") && r.keys.includes("version"), r.keys.join(","));
  assert.equal(r.invalid.errorCode, 42, JSON.stringify(r.invalid));
  assert.equal(r.invalid.errorMessage, "RebalanceTimeoutMs must be provided in first request.");
  assert.deepEqual(r.thrown, {
    isError: true,
    message: 'invalid heartbeat: memberEpoch: invalid type: string "zero", expected i32',
    kind: "decode",
    path: "memberEpoch",
  });
  assert.deepEqual(r.created, [{ name: "input", errorCode: 0, errorMessage: null }]);
  // The same coordinator still answers after the throw: the join succeeds, and the
  // only member gets every task.
  const j = r.joined;
  assert.equal(j.errorCode, 0, JSON.stringify(j));
  assert.ok(j.memberEpoch >= 1, JSON.stringify(j));
  assert.equal(typeof j.memberId, "string");
  assert.ok(j.memberId.length > 0, JSON.stringify(j));
  assert.equal(j.heartbeatIntervalMs, 5000);
  assert.deepEqual(j.activeTasks, [{ subtopologyId: "0", partitions: [0, 1, 2] }]);
  assert.deepEqual(j.standbyTasks, []);
  assert.deepEqual(j.warmupTasks, []);
  const g = r.described.groups[0];
  assert.equal(g.groupId, "app");
  assert.equal(g.errorCode, 0);
  assert.deepEqual(
    g.members.map((m) => [m.memberId, m.memberEpoch, m.processId]),
    [[j.memberId, j.memberEpoch, "process-1"]],
  );
  // assign() in every entry point, and its error: members
  // in sorted order, every task once, balanced.
  assert.deepEqual(Object.keys(r.assigned.members), ["a", "b"]);
  const owned = Object.values(r.assigned.members).map((ma) => {
    assert.deepEqual(ma.standbyTasks, []);
    assert.deepEqual(ma.warmupTasks, []);
    return ma.activeTasks.flatMap((t) => {
      assert.equal(t.subtopologyId, "0");
      return t.partitions;
    });
  });
  assert.deepEqual(owned.flat().sort(), [0, 1, 2]);
  assert.ok(
    owned.every((ps) => ps.length >= 1 && ps.length <= 2),
    JSON.stringify(owned),
  );
  assert.equal(r.assignThrown, "invalid groupSpec: members[0].processId: missing field `processId`");
}

test("require() loads the package synchronously and answers heartbeats", () => {
  const r = runScript("use.cjs", `const m = require("streams-rebalance");\n${SCENARIO}`);
  checkScenario(r);
  assert.ok(r.keys.includes("init") && r.keys.includes("initSync"), r.keys.join(","));
});

test("import loads the package without init() and answers heartbeats", () => {
  const r = runScript("use.mjs", `import * as m from "streams-rebalance";\n${SCENARIO}`);
  checkScenario(r);
  assert.ok(r.keys.includes("default"), r.keys.join(","));
});

test("browser-style code (await init()) runs unchanged in Node", () => {
  const r = runScript("universal.mjs", `import init, * as m from "streams-rebalance";\nawait init();\n${SCENARIO}`);
  checkScenario(r);
});

test("the web build loads with initSync() from the bytes of its .wasm", () => {
  const r = runScript(
    "web.mjs",
    `import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as m from "streams-rebalance/web";
const wasmPath = createRequire(import.meta.url).resolve("streams-rebalance/streams_rebalance_bg.wasm");
m.initSync({ module: readFileSync(wasmPath) });
${SCENARIO}`,
  );
  checkScenario(r);
});

test("int64 offsets beyond 2^53 come back exactly, as strings", () => {
  const r = runScript(
    "int64.cjs",
    `const m = require("streams-rebalance");
const c = new m.Coordinator({ acceptableRecoveryLag: "9007199254740993" });
const small = new m.Coordinator({ acceptableRecoveryLag: 9007199254740991 });
const join = ${JSON.stringify(JOIN)};
console.log(JSON.stringify({ big: c.heartbeat(join).acceptableRecoveryLag, small: small.heartbeat(join).acceptableRecoveryLag }));`,
  );
  assert.deepEqual(r, { big: "9007199254740993", small: 9007199254740991 });
});

test("a TypeScript program type-checks against the packed types (tsc --strict)", () => {
  copyFileSync(join(root, "tests", "node", "types-check.ts"), join(app, "types-check.ts"));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        lib: ["ES2022", "DOM"],
        types: [],
      },
      files: ["types-check.ts"],
    }),
  );
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  assert.ok(existsSync(tsc), "typescript is not installed: run scripts/setup.sh");
  try {
    run(process.execPath, [tsc, "-p", "tsconfig.json"], app);
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
  assert.ok(readdirSync(app).includes("types-check.ts"));
});

/** The README's browser example: the fenced block that calls `await init()`. */
function readmeBrowserExample() {
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const example = blocks.find((b) => /^import init, /m.test(b) && /await init\(\)/.test(b));
  assert.ok(example, "the README has a browser example with `import init` and `await init()`");
  return example;
}

for (const [moduleResolution, module] of [
  ["nodenext", "nodenext"],
  ["bundler", "esnext"],
]) {
  test(`the README's browser example type-checks under moduleResolution ${moduleResolution}`, () => {
    const example = readmeBrowserExample();
    const dir = join(app, `readme-${moduleResolution}`);
    run("mkdir", ["-p", dir], app);
    // As written, and with the entry the README names as an alternative.
    writeFileSync(join(dir, "example.ts"), `${example}\nexport {};\n`);
    writeFileSync(
      join(dir, "example-web.ts"),
      `${example.replace(/from "streams-rebalance"/, 'from "streams-rebalance/web"')}\nexport {};\n`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          module,
          moduleResolution,
          lib: ["ES2022", "DOM"],
          types: [],
        },
        files: ["example.ts", "example-web.ts"],
      }),
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    try {
      run(process.execPath, [tsc, "-p", "tsconfig.json"], dir);
    } catch (e) {
      assert.fail(`tsc (${moduleResolution}) failed on the README's example:\n${e.stdout}${e.stderr}`);
    }
  });
}
