// The quality panel: how good the current target assignment is, as the module's
// assignmentQuality() measures it (src/assignor/quality.rs). The group spec is the
// previous step's snapshot (what each member owned then, its offsets) with the
// current topology and members; the result is the current step's target. So a learner
// sees, step by step, whether every subtopology is spread evenly, how many tasks moved
// against the fewest the balance needs, and where a crashed member's tasks went.
// Text only, never HTML.

import { el } from "./view.js";

/** The figures shown, each with its label and what it means (the tooltip). */
export const QUALITY_FIGURES = [
  [
    "spread",
    "spread per subtopology",
    "For each subtopology, the most minus the fewest of its active tasks any member holds (mean / max over subtopologies). 0 or 1 is even.",
  ],
  ["standbySpread", "standby spread", "The same for standby tasks, over stateful subtopologies."],
  [
    "moved",
    "moved / fewest needed",
    "Active tasks that changed owner, against the fewest any assignment as balanced would move.",
  ],
  [
    "balance",
    "balance (active / all)",
    "The most minus the fewest tasks any member holds: actives, then actives + standbys + warm-ups.",
  ],
  [
    "fanOut",
    "standby fan-out",
    "Per member with stateful actives: on how many members their standbys are (min / mean / max). More means a crash restores on many members at once.",
  ],
  [
    "standbys",
    "standbys unfilled / beside active",
    "Standby slots wanted and not filled; standbys on their active's process (must be 0).",
  ],
  [
    "landing",
    "orphans on warm standbys",
    "Stateful tasks whose owner left: how many went to a member that held a standby or warm-up of them.",
  ],
];

function tasks(list) {
  return (list || []).map((t) => ({ subtopologyId: t.subtopologyId, partitions: [...t.partitions] }));
}

function offsets(list) {
  return (list || []).map((o) => ({ subtopologyId: o.subtopologyId, partition: o.partition, offset: o.offset }));
}

/**
 * The group spec and result to rate for this frame, or null when there is no target to
 * rate (no group, no configured topology, a source topic missing).
 */
export function qualityInput(snap, prev) {
  const group = snap && snap.group;
  if (!group || !group.topology || group.members.length === 0) return null;
  const partitions = new Map((snap.topics || []).map((t) => [t.name, t.numPartitions]));
  const subtopologies = [];
  for (const s of group.topology.subtopologies) {
    if ((s.sourceTopicRegex || []).length > 0) return null;
    let n = 0;
    for (const name of s.sourceTopics || []) {
      if (!partitions.has(name)) return null;
      n = Math.max(n, partitions.get(name));
    }
    for (const r of s.repartitionSourceTopics || []) {
      const p = typeof r === "object" && r !== null ? (r.partitions ?? partitions.get(r.name)) : partitions.get(r);
      if (Number.isInteger(p)) n = Math.max(n, p);
    }
    subtopologies.push({
      subtopologyId: s.subtopologyId,
      numPartitions: n,
      stateful: (s.stateChangelogTopics || []).length > 0,
    });
  }
  const before = new Map(((prev && prev.group && prev.group.members) || []).map((m) => [m.memberId, m]));
  const members = [];
  const result = { members: {} };
  for (const m of group.members) {
    const old = before.get(m.memberId);
    const owned = old ? old.assignment : null;
    members.push({
      memberId: m.memberId,
      processId: m.processId,
      topologyEpoch: m.topologyEpoch,
      rackId: m.rackId ?? undefined,
      clientTags: m.clientTags,
      activeTasks: tasks(owned && owned.activeTasks),
      standbyTasks: tasks(owned && owned.standbyTasks),
      warmupTasks: tasks(owned && owned.warmupTasks),
      taskOffsets: offsets(old && old.taskOffsets),
      taskEndOffsets: offsets(old && old.taskEndOffsets),
    });
    const target = m.targetAssignment;
    result.members[m.memberId] = {
      activeTasks: tasks(target.activeTasks),
      standbyTasks: tasks(target.standbyTasks),
      warmupTasks: tasks(target.warmupTasks),
    };
  }
  const spec = { subtopologies, members, groupTopologyEpoch: group.topology.epoch };
  return { spec, result, config: { numStandbyReplicas: snap.numStandbyReplicas } };
}

const mm = (x) => `${x.mean.toFixed(2)} / ${x.max}`;

/** The text of each figure for the quality `q`. */
export function qualityTexts(q) {
  const landed = q.orphanedStatefulToStandby;
  const fan = q.standbyFanOut;
  return {
    spread: mm(q.subtopologySpread),
    standbySpread: q.standbyTasks > 0 ? mm(q.standbySubtopologySpread) : "-",
    moved: `${q.activeTasksMoved} / ${q.activeTasksMovedMinimum}`,
    balance: `${q.activeBalance.spread} / ${q.totalBalance.spread}`,
    fanOut: q.standbyTasks > 0 ? `${fan.min} / ${fan.mean.toFixed(1)} / ${fan.max}` : "-",
    standbys: `${q.standbysUnfilled ?? "-"} / ${q.standbysOnActiveProcess}`,
    landing: landed.total > 0 ? `${landed.landed} of ${landed.total}` : "-",
  };
}

/** Draws the panel into `box`; `rate` is the module's assignmentQuality. */
export function renderQuality(box, rate, snap, prev) {
  const input = qualityInput(snap, prev);
  if (!input) {
    box.replaceChildren(el("p", { class: "explain" }, "No target assignment to rate yet."));
    return;
  }
  let q;
  try {
    q = rate(input.spec, input.result, input.config);
  } catch (e) {
    box.replaceChildren(el("p", { class: "explain" }, `Could not rate: ${e && e.message ? e.message : e}`));
    return;
  }
  const texts = qualityTexts(q);
  box.replaceChildren(
    el("h4", {}, `Target quality (${snap.assignor})`),
    el(
      "dl",
      { class: "quality-figures" },
      ...QUALITY_FIGURES.map(([key, label, meaning]) =>
        el("div", { title: meaning, dataset: { figure: key } }, el("dt", {}, label), el("dd", {}, texts[key])),
      ),
    ),
  );
}
