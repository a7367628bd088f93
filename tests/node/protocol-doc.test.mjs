// docs/PROTOCOL.md is what the code, the tests and the playground cite: every
// "PROTOCOL.md §N" in the repository must name a section that exists, and every link
// of the playground's rules must land on a heading of the file, in the repository
// that Cargo.toml names. Reads files only (no wasm).

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROTOCOL_URL, RULE_SECTIONS, RULES, ruleUrl } from "../../www/rules.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const doc = readFileSync(join(root, "docs/PROTOCOL.md"), "utf8");

// GitHub's heading anchors: lower case, punctuation dropped (hyphens and underscores
// kept), each space a hyphen.
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_ -]/gu, "")
    .replace(/ /g, "-");

const headings = doc
  .split("\n")
  .filter((l) => /^#{2,4} /.test(l))
  .map((l) => l.replace(/^#+ /, ""));
const anchors = headings.map(slug);
// "4.4 Topology epochs" -> 4.4; "4. Epochs, ..." -> 4.
const sections = new Set(headings.map((h) => /^(\d+(?:\.\d+)*)\.? /.exec(h)?.[1]).filter(Boolean));

test("the document's headings are unique anchors and number the sections", () => {
  assert.equal(new Set(anchors).size, anchors.length, "duplicate headings get suffixed anchors");
  for (const s of ["1", "1.3", "2", "3", "4.1", "4.2", "4.3", "4.4", "5", "6", "7", "8", "12"]) {
    assert.ok(sections.has(s), `section ${s}`);
  }
  assert.ok(anchors.includes("44-topology-epochs"));
  assert.ok(anchors.includes("history"));
});

test("the rules link to sections of PROTOCOL.md in the repository Cargo.toml names", () => {
  const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
  const repo = /^repository\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
  assert.ok(repo, "Cargo.toml has a repository");
  assert.equal(PROTOCOL_URL, `${repo}/blob/main/docs/PROTOCOL.md`);
  for (const [rule, anchor] of Object.entries(RULE_SECTIONS)) {
    assert.ok(rule in RULES, `${rule} is a rule`);
    assert.ok(anchors.includes(anchor), `${rule}: #${anchor} is a heading of PROTOCOL.md`);
    assert.equal(ruleUrl(rule), `${PROTOCOL_URL}#${anchor}`);
  }
  for (const rule of Object.keys(RULES)) assert.ok(ruleUrl(rule), `${rule} has a section`);
  assert.equal(ruleUrl("toString"), null);
});

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "target" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(rs|mjs|js|ts|md|json|html)$/.test(name)) yield path;
  }
}

// The file the code used to cite, which is not in the repository: "SPEC" then ".md",
// a section number or "section" (spelt in pieces so this file does not match).
const FORMER = new RegExp(`\\b${"SP" + "EC"}(\\.md\\b| \\d| section)`);

test("every PROTOCOL.md reference names a section that exists, and nothing cites the former spec", () => {
  const places = ["src", "tests", "www", "docs", "pkg", "README.md", "HARDENING.md", "BENCHMARKS.md"];
  let refs = 0;
  const dangling = [];
  const former = [];
  for (const place of places) {
    const path = join(root, place);
    const list = statSync(path).isDirectory() ? [...files(path)] : [path];
    for (const file of list) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/PROTOCOL\.md §(\d+(?:\.\d+)*)/g)) {
        refs++;
        if (!sections.has(m[1])) dangling.push(`${file}: §${m[1]}`);
      }
      if (!file.endsWith(join("docs", "PROTOCOL.md")) && FORMER.test(text)) former.push(file);
    }
  }
  assert.deepEqual(dangling, [], "references to sections PROTOCOL.md does not have");
  assert.deepEqual(former, [], "files citing a file that is not in the repository");
  assert.ok(refs > 0, "the code cites PROTOCOL.md");
});
