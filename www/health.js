// Health badges: the module's invariant checker (checkInvariants, src/invariants) run
// on the frame's snapshot and the one before it. One badge per rule: green while it
// holds, red with the checker's sentence when it does not. Text only, never HTML.

import { el } from "./view.js";

/** What each badge says, by the checker's rule name. */
const RULE_WORDS = [
  ["activeOnce", "one active owner", "No task is active on two members."],
  ["processOnce", "one copy per process", "No process holds a task twice, in any roles."],
  ["standbyApart", "standbys apart", "A standby or warm-up never sits on the process of its active."],
  [
    "epochsForward",
    "epochs forward",
    "Group, assignment, topology and member epochs never go back (a member's only on rejoin).",
  ],
  ["assignmentEpochBound", "epochs bounded", "Assignment epoch <= group epoch; member epochs <= assignment epoch."],
  ["stableOwnsTarget", "stable = target", "A member Stable at the assignment epoch owns exactly its target."],
  ["staleGainsNothing", "stale gains nothing", "A member behind the group's topology epoch never gains a task."],
  [
    "stableCoversTopology",
    "all targeted",
    "A Stable group with a ready topology has every task active in some member's target.",
  ],
];

/** The rules as the module names them (invariantRules(), but `settled`, which only
 * a settled snapshot is checked for), each with its label and meaning. */
export function healthRules(wasm) {
  const words = new Map(RULE_WORDS.map(([rule, label, meaning]) => [rule, [label, meaning]]));
  return wasm
    .invariantRules()
    .filter((rule) => rule !== "settled")
    .map((rule) => [rule, ...(words.get(rule) || [rule, ""])]);
}

/** Draws the badges into `box`; `check` is the module's checkInvariants. */
export function renderHealth(box, check, snap, prev, rules) {
  let violations;
  try {
    // The coordinator's part is what the checker reads: passing only it halves the cost.
    violations = check(snap.coordinator || snap, prev ? prev.coordinator || prev : null);
  } catch (e) {
    box._sig = null;
    box.replaceChildren(el("span", { class: "health-badge broken" }, `checker: ${e && e.message ? e.message : e}`));
    return;
  }
  const by = new Map();
  for (const v of violations) {
    if (!by.has(v.rule)) by.set(v.rule, []);
    by.get(v.rule).push(v.message);
  }
  // Unchanged badges are left alone (they are redrawn at every step).
  const sig = JSON.stringify(violations);
  if (box._sig === sig && box.children.length) return;
  box._sig = sig;
  box.replaceChildren(
    ...rules.map(([rule, label, meaning]) => {
      const broken = by.get(rule);
      return el(
        "span",
        {
          class: `health-badge ${broken ? "broken" : "ok"}`,
          title: broken ? broken.join("\n") : meaning,
          dataset: { rule },
        },
        `${broken ? "\u2717" : "\u2713"} ${label}`,
      );
    }),
  );
}
