// Kafka's own record format through the JS binding (issue 15): kafkaRecords(),
// Coordinator.fromKafkaRecords in both text forms, and History. Tombstones, unknown
// record types, other groups' records, truncated lines and a wrong type in a field.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { Coordinator, History } = require("../../pkg/dist/node/streams_rebalance.js");
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const JSONL = readFileSync(join(fixtures, "kafka-rolling-bounce.jsonl"), "utf8");
const DUMP = readFileSync(join(fixtures, "kafka-rolling-bounce.dump.txt"), "utf8");

const TOPOLOGY = { epoch: 0, subtopologies: [{ subtopologyId: "0", sourceTopics: ["in"] }] };

function join1(c, memberId) {
  return c.heartbeat({
    groupId: "app",
    memberId,
    memberEpoch: 0,
    rebalanceTimeoutMs: 30000,
    topology: TOPOLOGY,
    activeTasks: [],
    standbyTasks: [],
    warmupTasks: [],
    processId: `p-${memberId}`,
  });
}

test("kafkaRecords() writes one record per line in the formatter's shape", () => {
  const c = new Coordinator();
  c.createTopics([{ name: "in", numPartitions: 3 }]);
  const r = join1(c, "m1");
  const text = c.kafkaRecords();
  assert.ok(text.endsWith("\n"));
  const lines = text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    [...new Set(lines.map((l) => l.key.type))].sort((a, b) => a - b),
    [17, 19, 20, 21, 22, 23],
  );
  for (const l of lines) {
    assert.deepEqual(Object.keys(l), ["key", "value"]);
    assert.deepEqual(Object.keys(l.key), ["type", "data"]);
    assert.deepEqual(Object.keys(l.value), ["version", "data"]);
    assert.equal(l.value.version, 0);
  }
  const current = lines.find((l) => l.key.type === 22);
  assert.deepEqual(current.key.data, { groupId: "app", memberId: "m1" });
  assert.equal(current.value.data.memberEpoch, r.memberEpoch);
  // Each active task with the epoch the member got it at (the tagged assignmentEpochs).
  assert.deepEqual(current.value.data.activeTasks, [
    { subtopologyId: "0", partitions: [0, 1, 2], assignmentEpochs: [1, 1, 1] },
  ]);
  // The model's own records stay out.
  assert.doesNotMatch(text, /numPartitions|sessionDeadlineMs|nowMs/);
});

test("fromKafkaRecords rebuilds the group of both fixtures alike", () => {
  const a = Coordinator.fromKafkaRecords(JSONL);
  const b = Coordinator.fromKafkaRecords(DUMP);
  assert.ok(a.coordinator instanceof Coordinator);
  assert.equal(a.format, "json-lines");
  assert.equal(b.format, "dump-log");
  assert.deepEqual(a.groups, ["orders-app"]);
  assert.deepEqual(a.inferred, [
    { topic: "orders", numPartitions: 6, from: "assignments" },
    { topic: "orders-app-order-store-changelog", numPartitions: 6, from: "assignments" },
  ]);
  assert.deepEqual(a.skipped, { blankLines: 0, otherLines: 0, otherGroups: 2, unknownTypes: 0, undecodable: 0 });
  assert.deepEqual(b.skipped, { blankLines: 0, otherLines: 42, otherGroups: 2, unknownTypes: 0, undecodable: 0 });
  const da = a.coordinator.describe(["orders-app"]).groups[0];
  const db = b.coordinator.describe(["orders-app"]).groups[0];
  assert.deepEqual(db, da);
  assert.equal(da.groupEpoch, 9);
  assert.deepEqual(
    da.members.map((m) => [m.memberId.slice(0, 4), m.assignment.activeTasks[0].partitions]),
    [
      ["Fk2p", [1, 4]],
      ["Pm9a", [2, 5]],
      ["Zc6d", [0, 3]],
    ],
  );
  // The dump's timestamps set the clock.
  assert.equal(b.coordinator.now(), 1764590466000);
  assert.equal(a.coordinator.now(), 0);
});

test("a round trip through kafkaRecords() keeps the describe", () => {
  const c = new Coordinator();
  c.createTopics([{ name: "in", numPartitions: 4 }]);
  join1(c, "m1");
  join1(c, "m2");
  const back = Coordinator.fromKafkaRecords(c.kafkaRecords(), {
    cluster: { topics: [{ name: "in", numPartitions: 4 }] },
  });
  assert.deepEqual(back.coordinator.describe(["app"]), c.describe(["app"]));
  assert.equal(back.coordinator.kafkaRecords(), c.kafkaRecords());
});

const MEMBER = (value) => JSON.stringify({ key: { type: 19, data: { groupId: "g", memberId: "m" } }, value });
const VALUE = {
  version: 0,
  data: {
    instanceId: null,
    rackId: null,
    clientId: "c",
    clientHost: "/h",
    rebalanceTimeoutMs: 1000,
    topologyEpoch: 0,
    processId: "p",
    userEndpoint: null,
    clientTags: [],
  },
};

test("tombstones, unknown types, other groups and blank lines", () => {
  const text = [
    MEMBER(VALUE),
    "",
    JSON.stringify({ key: { type: 18, data: { groupId: "g" } }, value: { version: 0, data: {} } }),
    JSON.stringify({ key: { type: 3, data: { groupId: "consumers" } }, value: { version: 0, data: { epoch: 1 } } }),
    JSON.stringify({ key: { type: 13, data: { groupId: "share", memberId: "x" } }, value: null }),
    MEMBER(null),
  ].join("\n");
  const r = Coordinator.fromKafkaRecords(text);
  assert.equal(r.records, 2);
  assert.deepEqual(r.skipped, { blankLines: 1, otherLines: 0, otherGroups: 2, unknownTypes: 1, undecodable: 0 });
  assert.deepEqual(r.coordinator.describe(["g"]).groups[0].members, []);
});

test("a truncated line and a wrong type throw an Error naming line and field", () => {
  const good = MEMBER(VALUE);
  assert.throws(
    () => Coordinator.fromKafkaRecords(`${good}\n${good.slice(0, 40)}`),
    (err) => err instanceof Error && err.kind === "decode" && err.path === "line 2" && /truncated/.test(err.message),
  );
  const wrong = MEMBER({ ...VALUE, data: { ...VALUE.data, topologyEpoch: "zero" } });
  assert.throws(
    () => Coordinator.fromKafkaRecords(`\n\n${wrong}`),
    (err) =>
      err.path === "line 3: value.data.topologyEpoch" &&
      err.message.startsWith("invalid Kafka records: line 3: value.data.topologyEpoch: "),
  );
  assert.throws(
    () => Coordinator.fromKafkaRecords(42),
    (err) => err.kind === "syntax",
  );
  assert.throws(
    () => Coordinator.fromKafkaRecords(good, { cluster: { topics: [{ name: "t", numPartitions: 0 }] } }),
    (err) => err.path === "cluster.topics[0].numPartitions",
  );
});

test("int64 values beyond 2^53 are read exactly", () => {
  const text = JSON.stringify({
    key: { type: 17, data: { groupId: "g" } },
    value: { version: 0, data: { epoch: 2, metadataHash: 0 } },
  }).replace('"metadataHash":0', '"metadataHash":8764291058312984573');
  const r = Coordinator.fromKafkaRecords(text);
  assert.match(r.coordinator.kafkaRecords(), /"metadataHash":8764291058312984573/);
  const ours = r.coordinator.records().find((x) => x.key.type === "StreamsGroupMetadataKey");
  assert.equal(ours.value.metadataHash, "8764291058312984573");
});

test("History steps through a dump: one step per batch, markers, describe at a step", () => {
  const h = History.fromKafkaRecords(DUMP);
  assert.equal(h.stepCount, 39);
  const steps = h.steps();
  assert.equal(steps[0].timestampMs, 1764590400000);
  assert.equal(steps[0].records.length, 6);
  assert.deepEqual(steps[0].records[0].key, {
    type: 19,
    data: { groupId: "orders-app", memberId: "Yw3H1jYkQ0mQ5cR2vX9kLA" },
  });
  const g0 = steps[0].groups[0];
  assert.deepEqual([g0.epochBump, g0.joined, g0.left, g0.tasksMoved], [true, ["Yw3H1jYkQ0mQ5cR2vX9kLA"], [], 6]);
  const bumps = steps.filter((s) => s.groups.some((g) => g.epochBump)).map((s) => s.index);
  assert.equal(bumps.length, 9);
  const leaves = steps.filter((s) => s.groups.some((g) => g.left.length > 0)).length;
  assert.equal(leaves, 3);
  assert.equal(h.describe(-1).groups[0].errorCode, 69);
  assert.equal(h.describe(2, ["orders-app"]).groups[0].groupEpoch, 2);
  assert.equal(h.describe(38).groups[0].groupEpoch, 9);
  assert.equal(h.snapshot(38).groups[0].members.length, 3);
  assert.equal(h.coordinator(38).describe(["orders-app"]).groups[0].groupState, "Stable");
  assert.throws(
    () => h.describe(39),
    (err) => err.kind === "decode",
  );
  // JSON lines: a step per record.
  assert.equal(History.fromKafkaRecords(JSONL).stepCount, 92);
});
