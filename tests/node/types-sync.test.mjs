// pkg/index.d.ts is generated from the Rust types for the data (messages, records,
// configs, snapshots: ts-rs, so those follow the Rust types by construction) and
// written by hand for the rest (pkg/types/api.d.ts). This test keeps the hand-written
// part honest against the built module: every exported function, class, method and
// static it declares exists at run time and nothing exported is left undeclared; and
// the outputs whose types are written by hand carry exactly the fields declared.
// Needs the wasm build (scripts/build-wasm.sh).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);
const ts = require(join(root, "node_modules", "typescript"));
assert.ok(existsSync(join(root, "pkg", "dist", "web", "streams_rebalance_bg.wasm")), "run scripts/build-wasm.sh first");
const m = require(join(root, "pkg", "node.cjs"));

const dtsPath = join(root, "pkg", "index.d.ts");
const source = ts.createSourceFile(dtsPath, readFileSync(dtsPath, "utf8"), ts.ScriptTarget.ES2022, true);

const isExported = (n) => n.modifiers?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword);
const isStatic = (n) => n.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);

/** Declared functions and classes (with their instance and static members). */
const functions = new Set();
const classes = new Map();
/** Declared interfaces: name -> { required: Set, optional: Set, open: bool } */
const interfaces = new Map();
for (const n of source.statements) {
  if (ts.isFunctionDeclaration(n) && isExported(n)) {
    const isDefault = n.modifiers?.some((x) => x.kind === ts.SyntaxKind.DefaultKeyword);
    functions.add(isDefault ? "default" : n.name.text);
  } else if (ts.isClassDeclaration(n) && isExported(n)) {
    const instance = new Set();
    const statics = new Set();
    for (const member of n.members) {
      if (!member.name) continue;
      (isStatic(member) ? statics : instance).add(member.name.text);
    }
    classes.set(n.name.text, { instance, statics });
  } else if (ts.isInterfaceDeclaration(n) && isExported(n)) {
    const required = new Set();
    const optional = new Set();
    let open = false;
    for (const member of n.members) {
      if (ts.isIndexSignatureDeclaration(member)) open = true;
      else if (member.name) (member.questionToken ? optional : required).add(member.name.text);
    }
    interfaces.set(n.name.text, { required, optional, open });
  }
}

// What the runtime exports beyond the API: wasm-bindgen's start function and the
// internals of its classes (named with a leading `__`).
const INTERNAL_NAMES = new Set(["start", "__destroy_into_raw", "__wrap", "constructor", "length", "name", "prototype"]);
const INTERNAL = { has: (name) => INTERNAL_NAMES.has(name) || name.startsWith("__") };

test("every export of the module is declared, and every declaration exists", () => {
  const runtimeFunctions = new Set();
  const runtimeClasses = new Map();
  for (const [name, value] of Object.entries(m)) {
    if (INTERNAL.has(name)) continue;
    const proto = typeof value === "function" && value.prototype ? Object.getOwnPropertyNames(value.prototype) : [];
    if (proto.includes("free")) {
      runtimeClasses.set(name, {
        instance: new Set(proto.filter((p) => !INTERNAL.has(p))),
        statics: new Set(Object.getOwnPropertyNames(value).filter((p) => !INTERNAL.has(p))),
      });
    } else {
      runtimeFunctions.add(name);
    }
  }
  // node.cjs adds init() and initSync(); ESM's default export is init.
  runtimeFunctions.add("default");
  runtimeFunctions.delete("init");
  assert.deepEqual([...runtimeFunctions].sort(), [...functions].sort(), "exported functions (index.d.ts vs module)");
  assert.deepEqual([...runtimeClasses.keys()].sort(), [...classes.keys()].sort(), "exported classes");
  for (const [name, rt] of runtimeClasses) {
    const declared = classes.get(name);
    // Getters declared as readonly properties show up on the prototype too.
    assert.deepEqual([...rt.instance].sort(), [...declared.instance].sort(), `methods of ${name}`);
    assert.deepEqual([...rt.statics].sort(), [...declared.statics].sort(), `static methods of ${name}`);
  }
});

/** Asserts that `value` has the fields `interface` declares: all required, none unknown. */
function conforms(value, name, where = name) {
  const decl = interfaces.get(name);
  assert.ok(decl, `index.d.ts declares no interface ${name}`);
  assert.equal(typeof value, "object", `${where} is not an object`);
  const keys = Object.keys(value);
  for (const k of decl.required)
    assert.ok(keys.includes(k), `${where}: declared field ${k} of ${name} is missing at run time`);
  if (!decl.open) {
    for (const k of keys) {
      assert.ok(decl.required.has(k) || decl.optional.has(k), `${where}: field ${k} is not declared in ${name}`);
    }
  }
}

test("the outputs typed by hand have the declared fields", () => {
  const spec = {
    subtopologies: [
      { subtopologyId: "0", numPartitions: 4, stateful: true },
      { subtopologyId: "1", numPartitions: 2, stateful: false },
    ],
    members: [
      { memberId: "a", processId: "p1" },
      { memberId: "b", processId: "p2" },
    ],
  };
  const result = m.assign("sticky", spec, { numStandbyReplicas: 1 });
  // AssignmentQuality is derived from the Rust type (ts-rs): nothing to check by hand.
  assert.equal(typeof m.assignmentQuality(spec, result).subtopologySpread.mean, "number");
  assert.equal(typeof m.warmupCaughtUp(spec), "boolean");
  conforms(m.version(), "Version");
  const codes = m.errorCodes();
  conforms(codes, "CodeTable");
  assert.equal(codes.byName.FENCED_MEMBER_EPOCH, 110);
  assert.equal(codes.byCode["110"], "FENCED_MEMBER_EPOCH");
  assert.equal(m.statusCodes().byName.STALE_TOPOLOGY, 0);
  assert.deepEqual(m.invariantRules().slice(0, 2), ["activeOnce", "processOnce"]);
  assert.ok(m.eventKinds().coordinator.includes("sessionTimeout"));
  assert.equal(m.nextProcessId(["A", "B", "D"]), "C");
});
