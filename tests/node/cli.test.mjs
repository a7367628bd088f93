// The command-line tool (issue 15 item 5), run as a user runs it: from the packed
// tarball installed into a fresh folder, through the `bin` link npm creates. Each
// subcommand, --help, the exit codes (0 done, 1 bad input, 2 usage) and the error
// texts. Needs the wasm build first (scripts/build-wasm.sh).

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkgDir = join(root, "pkg");
const fixtures = join(root, "tests", "fixtures");
let work;
let app;
let bin;

before(() => {
  assert.ok(
    existsSync(join(pkgDir, "dist", "node", "streams_rebalance.js")),
    "pkg/dist is missing: run scripts/build-wasm.sh first",
  );
  work = mkdtempSync(join(tmpdir(), "streams-rebalance-cli-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: pkgDir, encoding: "utf8" });
  const packed = JSON.parse(out)[0];
  app = join(work, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--offline", join(work, packed.filename)],
    { cwd: app, stdio: "ignore" },
  );
  bin = join(app, "node_modules", ".bin", "streams-rebalance");
  assert.ok(existsSync(bin), "npm linked no streams-rebalance binary");
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs the installed binary; stderr is not a terminal here, so no progress bar. */
function cli(...args) {
  const r = spawnSync(bin, args, { cwd: app, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function file(name, content) {
  const path = join(app, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return name;
}

const SPEC = {
  subtopologies: [{ subtopologyId: "0", numPartitions: 4, stateful: false }],
  members: [
    { memberId: "a", processId: "p1" },
    { memberId: "b", processId: "p2" },
  ],
};

test("--help, help <command> and <command> --help print usage and exit 0", () => {
  const main = cli("--help");
  assert.equal(main.code, 0);
  assert.match(main.out, /^Usage: streams-rebalance <command>/);
  for (const c of ["assign", "simulate", "replay"]) {
    assert.match(main.out, new RegExp(`\\n  ${c} `));
    const a = cli(c, "--help");
    const b = cli("help", c);
    assert.equal(a.code, 0);
    assert.equal(b.code, 0);
    assert.equal(a.out, b.out);
    assert.match(a.out, new RegExp(`^Usage: streams-rebalance ${c} `));
  }
  assert.match(cli("--version").out, /^\d+\.\d+\.\d+\n$/);
});

test("usage errors exit 2 and say what is wrong", () => {
  const none = cli();
  assert.equal(none.code, 2);
  let r = cli("frobnicate");
  assert.equal(r.code, 2);
  assert.match(r.err, /^streams-rebalance: unknown command frobnicate\n/);
  r = cli("assign", file("spec.json", SPEC), "--colour");
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown option --colour\n\nUsage: streams-rebalance assign/);
  r = cli("assign");
  assert.equal(r.code, 2);
  assert.match(r.err, /assign takes one file, found 0/);
  r = cli("assign", "spec.json", "--assignor", "round_robin");
  assert.equal(r.code, 2);
  assert.match(r.err, /--assignor: expected sticky or highly_available, found round_robin/);
  r = cli("replay", join(fixtures, "kafka-rolling-bounce.jsonl"), "--at", "1000");
  assert.equal(r.code, 2);
  assert.match(r.err, /--at: expected a step from -1 to 91, found 1000/);
});

test("assign prints the assignment, and its quality with --quality", () => {
  const spec = file("spec.json", SPEC);
  const r = cli("assign", spec);
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.deepEqual(Object.keys(out.members), ["a", "b"]);
  const parts = Object.values(out.members).flatMap((m) => m.activeTasks.flatMap((t) => t.partitions));
  assert.deepEqual(parts.sort(), [0, 1, 2, 3]);
  const q = cli("assign", spec, "--assignor", "highly_available", "--quality");
  assert.equal(q.code, 0, q.err);
  const withQuality = JSON.parse(q.out);
  assert.ok(withQuality.assignment.members.a);
  assert.equal(typeof withQuality.quality, "object");
  assert.ok(Object.keys(withQuality.quality).length > 0);
});

test("bad input exits 1 naming the file, the line and the field", () => {
  const bad = file("bad-spec.json", {
    ...SPEC,
    members: [
      { memberId: "a", processId: "p1" },
      { memberId: "b", processId: 7 },
    ],
  });
  let r = cli("assign", bad);
  assert.equal(r.code, 1);
  // members[1].processId is on line 11 of the pretty-printed file.
  const line =
    readFileSync(join(app, bad), "utf8")
      .split("\n")
      .findIndex((l) => l.includes('"processId": 7')) + 1;
  assert.equal(
    r.err,
    `streams-rebalance: bad-spec.json:${line}: invalid groupSpec: members[1].processId: invalid type: integer \`7\`, expected a string\n`,
  );
  r = cli("assign", file("broken.json", '{\n  "members": [\n'));
  assert.equal(r.code, 1);
  assert.match(r.err, /^streams-rebalance: broken\.json(:\d+)?: not valid JSON/);
  r = cli("assign", "missing.json");
  assert.equal(r.code, 1);
  assert.match(r.err, /^streams-rebalance: missing\.json: cannot read \(ENOENT\)\n$/);
  const dump = readFileSync(join(fixtures, "kafka-rolling-bounce.dump.txt"), "utf8").split("\n");
  dump[8] = dump[8].replace('"memberEpoch":1', '"memberEpoch":"one"');
  r = cli("replay", file("bad.dump.txt", dump.join("\n")));
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /^streams-rebalance: bad\.dump\.txt:9: invalid Kafka records: line 9: payload\.data\.memberEpoch: /,
  );
});

test("simulate plays a scenario: a summary, the events, the describe", () => {
  const presets = JSON.parse(
    execFileSync(
      process.execPath,
      ["-e", 'console.log(JSON.stringify(require("streams-rebalance").Simulation.presets()))'],
      { cwd: app, encoding: "utf8" },
    ),
  );
  const scenario = file("scenario.json", presets[0].scenario);
  const group = presets[0].scenario.groupId ?? "app";
  let r = cli("simulate", scenario, "--until-stable");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`^\\d+ ms: group ${group} Stable at epoch \\d+, \\d+ members, \\d+ events\\n$`));
  assert.equal(r.err, "");
  r = cli("simulate", scenario, "--events");
  assert.equal(r.code, 0, r.err);
  const events = r.out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.ok(events.length > 0);
  assert.ok(
    events.every((e) => typeof e.atMs === "number" && typeof e.kind === "string"),
    r.out.slice(0, 300),
  );
  r = cli("simulate", scenario, "--until-stable", "--describe");
  assert.equal(r.code, 0, r.err);
  const [header, ...rows] = r.out.trim().split("\n");
  assert.match(
    header,
    /^GROUP\s+TARGET-ASSIGNMENT-EPOCH\s+TOPOLOGY-EPOCH\s*MEMBER\s+MEMBER-PROTOCOL\s+MEMBER-EPOCH\s+PROCESS\s+CLIENT-ID\s+ASSIGNMENTS$/,
  );
  assert.ok(rows.length > 0);
  assert.ok(
    rows.every(
      (row) => row.startsWith(group) && / streams /.test(row) && /ACTIVE: /.test(row) && /TARGET-ACTIVE: /.test(row),
    ),
    r.out,
  );
  r = cli("simulate", scenario, "--until-stable", "--describe", "--json");
  assert.equal(JSON.parse(r.out).groups[0].groupState, "Stable");
});

test("replay prints one line per written batch of a dump, with epochs, joins, leaves and moves", () => {
  const r = cli("replay", join(fixtures, "kafka-rolling-bounce.dump.txt"));
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split("\n");
  // 40 batches, one of them only another group's records.
  assert.equal(lines.length, 39);
  assert.equal(
    lines[0],
    "#0 2025-12-01T12:00:00.000Z orders-app Stable epoch 1 target 1 members 1 moved 6 [epoch bump +Yw3H1jYkQ0mQ5cR2vX9kLA]",
  );
  assert.match(
    lines[12],
    /^#12 2025-12-01T12:00:20\.000Z orders-app Assigning epoch 4 target 3 members 2 moved 2 \[epoch bump -Yw3H1jYkQ0mQ5cR2vX9kLA\]$/,
  );
  assert.match(lines.at(-1), /^#38 2025-12-01T12:01:06\.000Z orders-app Stable epoch 9 target 9 members 3 moved 2$/);
  // JSON lines show no batches: a step per record.
  const perRecord = cli("replay", join(fixtures, "kafka-rolling-bounce.jsonl"));
  assert.equal(perRecord.out.trim().split("\n").length, 92);
  assert.match(perRecord.out, /^#0 - orders-app /);
});

test("replay --describe shows the group at a step, in the kafka-streams-groups layout or as JSON", () => {
  const dump = join(fixtures, "kafka-rolling-bounce.dump.txt");
  let r = cli("replay", dump, "--describe");
  assert.equal(r.code, 0, r.err);
  const rows = r.out.trim().split("\n");
  assert.equal(rows.length, 4);
  assert.match(
    rows[1],
    /^orders-app\s+9\s+0\s+Fk2pQ7wXRbyN4vE9hT1mCs\s+streams\s+9\s+5f1c2a9e-3b7d-4c61-9a0e-2d8f6b4c1e07\s+orders-app-5f1c2a9e-3b7d-4c61-9a0e-2d8f6b4c1e07-StreamThread-1\s+ACTIVE: 0:\[1,4\]; TARGET-ACTIVE: 0:\[1,4\]; $/,
  );
  r = cli("replay", dump, "--at", "2", "--json", "--group", "orders-app");
  assert.equal(r.code, 0, r.err);
  const g = JSON.parse(r.out).groups[0];
  assert.equal(g.groupEpoch, 2);
  assert.deepEqual(
    g.members.map((m) => [m.memberEpoch, m.memberState]),
    [
      [1, "UnrevokedTasks"],
      [2, "UnreleasedTasks"],
    ],
  );
  r = cli("replay", dump, "--group", "billing");
  assert.equal(r.code, 1);
  assert.match(r.err, /no streams group billing in the dump \(found: orders-app\)/);
});
