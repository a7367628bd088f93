// Drawing one frame: the members x tasks board (with animated moves), the epochs
// panel, the describe text, the timeline's markers and events. Every string that
// came from input is set with textContent, never parsed as HTML.

import { RULES, GROUP_STATE_WORDS, MEMBER_STATE_WORDS, statusWords, errorName, errorWords } from "./rules.js";

/** `el("div", { class: "x", title: "y" }, child, "text", ...)`; strings become text nodes. */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function taskIds(list) {
  const out = [];
  for (const t of list || []) for (const p of t.partitions) out.push(`${t.subtopologyId}_${p}`);
  return out;
}

function taskSort(a, b) {
  const [sa, pa] = splitTask(a);
  const [sb, pb] = splitTask(b);
  return sa < sb ? -1 : sa > sb ? 1 : pa - pb;
}

function splitTask(t) {
  const i = t.lastIndexOf("_");
  return [t.slice(0, i), Number(t.slice(i + 1))];
}

const ROLES = [
  ["active", "activeTasks"],
  ["standby", "standbyTasks"],
  ["warmup", "warmupTasks"],
];

function roleSets(lists) {
  const out = {};
  for (const [role, key] of ROLES) out[role] = new Set(taskIds(lists ? lists[key] : []));
  return out;
}

/** Positions of chips in the last render, by key, to animate moves (FLIP). */
const lastRects = new Map();

function chip(key, task, role, extra, title) {
  return el("span", {
    class: `chip ${role} ${extra || ""}`.trim(),
    title,
    dataset: { key, task, role, state: extra || "running" },
  }, task);
}

function tag(text, cls, title) {
  return el("span", { class: `tag ${cls || ""}`.trim(), title }, text);
}

/** The lane of one member: its label and its task chips. */
function memberLane(p, m, gm, group, counters) {
  const alive = !["Left", "Crashed", "Failed"].includes(m.state);
  const groupTopo = group && group.topology ? group.topologyEpoch : null;
  const stale = alive && (m.statuses || []).some((s) => statusWords(s).name === "STALE_TOPOLOGY");
  const err = m.lastError;
  const fenced = err && (err.name === "FENCED_MEMBER_EPOCH" || err.name === "UNKNOWN_MEMBER_ID");
  const cls = ["lane"];
  if (stale) cls.push("stale");
  if (fenced) cls.push("fenced");
  if (!alive) cls.push("dead");

  const meta = [];
  meta.push(tag(`thread ${m.thread}`));
  meta.push(tag(`epoch ${m.memberEpoch}`, "", RULES.memberEpoch));
  if (gm) meta.push(tag(gm.memberState, gm.memberState === "Stable" ? "good" : "", `The coordinator's view. ${RULES.memberState} Now: ${MEMBER_STATE_WORDS[gm.memberState] || gm.memberState}.`));
  if (!alive) meta.push(tag(m.state.toUpperCase(), "bad", m.state === "Crashed" ? RULES.orphan : undefined));
  else if (m.state === "Joining") meta.push(tag("joining", "", "The client sends epoch 0 with its topology and empty task lists."));
  else if (m.state === "Reconciling") {
    const closing = m.revoking ? taskIds(m.revoking.activeTasks).length + taskIds(m.revoking.standbyTasks).length + taskIds(m.revoking.warmupTasks).length : 0;
    meta.push(tag(closing ? `closing ${closing} task${closing > 1 ? "s" : ""}` : "starting tasks", "",
      "The client is applying its new assignment; when done it heartbeats at once, listing the tasks it owns (which confirms revocations)."));
  }
  if (stale) meta.push(tag("STALE_TOPOLOGY", "stale", RULES.stale));
  if (fenced) meta.push(tag("FENCED", "bad", `${errorName(err.code)}: ${err.message}. ${RULES.fenced}`));
  else if (err) meta.push(tag(errorName(err.code), "bad", `${err.message} (${errorWords(err.code)})`));
  if (m.instanceId) meta.push(tag(`static: ${m.instanceId}`, "", "group.instance.id: a static member keeps its assignment for a session timeout when it leaves with epoch -2."));

  const chips = [];
  const owned = roleSets(m);
  const revoking = roleSets(m.revoking);
  const target = roleSets(gm ? gm.targetAssignment : null);
  const pendingTarget = roleSets(m.reconcilingTo);
  for (const [role] of ROLES) {
    for (const t of [...owned[role]].sort(taskSort)) {
      const n = (counters[`${role}:${t}`] = (counters[`${role}:${t}`] || 0) + 1);
      const isRevoking = revoking[role].has(t);
      chips.push(chip(`${role}:${t}#${n}`, t, role, isRevoking ? "revoking" : "",
        isRevoking ? `${t} (${role}) is being revoked. ${RULES.revoking}` : `${t}: ${role} task running on ${m.memberId}`));
    }
  }
  if (alive) {
    for (const [role] of ROLES) {
      const want = new Set([...target[role], ...pendingTarget[role]]);
      for (const t of [...want].sort(taskSort)) {
        if (owned[role].has(t)) continue;
        chips.push(chip(`in:${m.memberId}:${role}:${t}`, t, role, "incoming", `${t} (${role}): ${RULES.incoming}`));
      }
    }
  } else if (gm) {
    const held = roleSets(gm.assignment);
    for (const [role] of ROLES) {
      for (const t of [...held[role]].sort(taskSort)) {
        chips.push(chip(`orphan:${role}:${t}`, t, role, "orphan", `${t}: ${RULES.orphan}`));
      }
    }
  }
  if (chips.length === 0) chips.push(el("span", { class: "none" }, alive ? "no tasks" : "gone"));

  return el("div", { class: cls.join(" "), dataset: { member: m.memberId, process: p.processId, thread: String(m.thread) } },
    el("div", { class: "lane-label" }, el("span", { class: "mid" }, m.memberId), el("span", { class: "meta" }, meta)),
    el("div", { class: "chips" }, chips));
}

/** A lane for a member the coordinator still has but no simulated thread runs now. */
function ghostLane(pid, gm) {
  const chips = [];
  const held = roleSets(gm.assignment);
  for (const [role] of ROLES) {
    for (const t of [...held[role]].sort(taskSort)) chips.push(chip(`orphan:${role}:${t}`, t, role, "orphan", `${t}: ${RULES.orphan}`));
  }
  if (chips.length === 0) chips.push(el("span", { class: "none" }, "no tasks"));
  return el("div", { class: "lane dead", dataset: { member: gm.memberId, process: pid, ghost: "true" } },
    el("div", { class: "lane-label" }, el("span", { class: "mid" }, gm.memberId),
      el("span", { class: "meta" }, tag(`epoch ${gm.memberEpoch}`, "", RULES.memberEpoch), tag(gm.memberState), tag("not running", "bad", RULES.orphan))),
    el("div", { class: "chips" }, chips));
}

export function renderBoard(container, snap, animate) {
  const before = new Map();
  for (const c of container.querySelectorAll(".chip[data-key]")) before.set(c.dataset.key, c.getBoundingClientRect());

  const group = snap.group;
  const gmembers = new Map((group ? group.members : []).map((m) => [m.memberId, m]));
  const racks = new Map();
  const counters = {};
  const shown = new Set();
  for (const p of snap.processes) {
    const rack = p.rackId || "";
    if (!racks.has(rack)) racks.set(rack, []);
    const down = p.state !== "running";
    const stateTag = {
      running: null,
      stopped: tag("STOPPED", "bad"),
      crashed: tag("CRASHED", "bad", "The process died without leaving; the coordinator finds out at the session timeout."),
      restarting: tag(`RESTARTING${p.restartAtMs != null ? ` at ${(p.restartAtMs / 1000).toFixed(1)} s` : ""}`, "bad"),
    }[p.state];
    const groupTopo = group && group.topology ? group.topologyEpoch : null;
    const head = el("div", { class: "process-head" },
      el("span", { class: "pid" }, p.processId),
      tag(`topology epoch ${p.topologyEpoch}`, groupTopo !== null && p.topologyEpoch < groupTopo && !down ? "stale" : "", RULES.memberTopologyEpoch),
      p.threads > 1 ? tag(`${p.threads} threads`) : null,
      p.instanceId ? tag(`instance ${p.instanceId}`) : null,
      ...(p.clientTags || []).map((kv) => tag(`${kv.key}=${kv.value}`, "", "client tag (rack-aware standby placement)")),
      stateTag);
    const lanes = [];
    for (const m of p.members) {
      shown.add(m.memberId);
      lanes.push(memberLane(p, m, gmembers.get(m.memberId), group, counters));
    }
    for (const gm of group ? group.members : []) {
      if (gm.processId === p.processId && !shown.has(gm.memberId)) {
        shown.add(gm.memberId);
        lanes.push(ghostLane(p.processId, gm));
      }
    }
    racks.get(rack).push(el("div", { class: `process${down ? " down" : ""}`, dataset: { process: p.processId, state: p.state } }, head, lanes));
  }
  const others = (group ? group.members : []).filter((gm) => !shown.has(gm.memberId));
  const blocks = [];
  const onlyNoRack = racks.size === 1 && racks.has("");
  for (const [rack, procs] of racks) {
    if (onlyNoRack) blocks.push(...procs);
    else blocks.push(el("div", { class: "rack", dataset: { rack } }, el("div", { class: "rack-name" }, rack ? `rack ${rack}` : "no rack"), el("div", { class: "procs" }, procs)));
  }
  if (others.length) {
    blocks.push(el("div", { class: "rack" }, el("div", { class: "rack-name" }, "members not run by the simulation (hand-made heartbeats)"),
      el("div", { class: "procs" }, el("div", { class: "process" }, others.map((gm) => ghostLane(gm.processId, gm))))));
  }
  if (blocks.length === 0) blocks.push(el("p", { class: "empty-board" }, "No process yet. Step forward, pick a preset, or add a process in Controls."));
  container.replaceChildren(...blocks);

  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  for (const c of container.querySelectorAll(".chip[data-key]")) {
    const key = c.dataset.key;
    const to = c.getBoundingClientRect();
    const from = before.get(key) || (animate ? lastRects.get(key) : null);
    if (animate && !reduce && from && (Math.abs(from.left - to.left) > 2 || Math.abs(from.top - to.top) > 2)) {
      const moved = !before.has(key) || Math.abs(from.top - to.top) > 20;
      c.animate([
        { transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)`, zIndex: 5 },
        { transform: "translate(0, 0)", zIndex: 5 },
      ], { duration: moved ? 700 : 300, easing: "cubic-bezier(.2,.7,.2,1)" });
      if (moved) c.classList.add("flash");
    }
    lastRects.set(key, to);
  }
}

export function renderEpochs(snap) {
  const g = snap.group;
  const set = (id, text, title) => {
    const e = document.getElementById(id);
    e.textContent = text;
    if (title !== undefined) e.title = title;
    return e;
  };
  document.getElementById("group-id").textContent = snap.groupId;
  const st = set("group-state", g ? g.groupState : "no group", g ? `${RULES.groupState}\nNow: ${GROUP_STATE_WORDS[g.groupState] || ""}` : "The group is created by the first member's join.");
  st.className = `state-badge state-${g ? g.groupState : "none"}`;
  set("group-epoch", g ? g.groupEpoch : "-");
  set("assignment-epoch", g ? g.assignmentEpoch : "-");
  set("group-topology-epoch", g && g.topology ? g.topologyEpoch : "-");
  set("assignor", snap.assignor);
  set("standbys", snap.numStandbyReplicas);
  set("group-explain", g ? GROUP_STATE_WORDS[g.groupState] || "" : "No group yet: the first member's join creates it and stores its topology.");

  const rows = (g ? g.members : []).map((m) => {
    const stale = g.topology && m.topologyEpoch !== g.topologyEpoch;
    return el("tr", { dataset: { member: m.memberId } },
      el("td", { class: "mid" }, m.memberId),
      el("td", { title: RULES.memberEpoch }, String(m.memberEpoch)),
      el("td", { title: `${RULES.memberState} ${MEMBER_STATE_WORDS[m.memberState] || ""}` }, m.memberState),
      el("td", { class: stale ? "stale-cell" : "", title: stale ? RULES.stale : RULES.memberTopologyEpoch }, stale ? `${m.topologyEpoch} (stale)` : String(m.topologyEpoch)));
  });
  document.getElementById("member-rows").replaceChildren(...rows);

  const seen = new Map();
  for (const p of snap.processes) {
    for (const m of p.members) {
      if (["Left", "Crashed", "Failed"].includes(m.state)) continue;
      for (const s of m.statuses || []) {
        const w = statusWords(s);
        const k = `${s.statusCode}:${w.detail}`;
        if (!seen.has(k)) seen.set(k, { ...w, code: s.statusCode, who: [] });
        seen.get(k).who.push(m.memberId);
      }
    }
  }
  const lines = [...seen.values()].map((s) =>
    el("div", { class: `status-line${s.code >= 1 && s.code <= 4 ? " blocking" : ""}`, title: `status ${s.code}: ${s.words}`, dataset: { status: s.name } },
      el("b", {}, s.name), ` ${s.words}`, s.detail ? ` (${s.detail})` : "", `; sent to ${s.who.join(", ")}`));
  document.getElementById("statuses").replaceChildren(...lines);
  document.getElementById("topics").replaceChildren(...snap.topics.map((t) => el("li", {}, `${t.name} (${t.numPartitions} partitions)`)));
}

function pad(rows) {
  const widths = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] || 0, String(c).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

function tasksCol(list) {
  const parts = (list || []).map((t) => `${t.subtopologyId}:[${t.partitions.join(",")}]`);
  return parts.length ? parts.join(";") : "-";
}

/** The group as `kafka-streams-groups.sh --describe --members --verbose` prints it. */
export function describeText(snap) {
  const g = snap.group;
  if (!g) return `Consumer group '${snap.groupId}' does not exist.`;
  const head = pad([
    ["GROUP", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "#MEMBERS"],
    [g.groupId, g.groupState, g.groupEpoch, g.assignmentEpoch, g.topology ? g.topologyEpoch : "-", g.members.length],
  ]);
  const rows = [["GROUP", "MEMBER", "PROCESS", "CLIENT-ID", "INSTANCE-ID", "MEMBER-EPOCH", "MEMBER-STATE", "TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "ACTIVE-TASKS", "STANDBY-TASKS", "WARMUP-TASKS", "TARGET-ACTIVE", "TARGET-STANDBY", "TARGET-WARMUP"]];
  for (const m of g.members) {
    rows.push([g.groupId, m.memberId, m.processId, m.clientId || "-", m.instanceId || "-", m.memberEpoch, m.memberState, g.assignmentEpoch, m.topologyEpoch,
      tasksCol(m.assignment.activeTasks), tasksCol(m.assignment.standbyTasks), tasksCol(m.assignment.warmupTasks),
      tasksCol(m.targetAssignment.activeTasks), tasksCol(m.targetAssignment.standbyTasks), tasksCol(m.targetAssignment.warmupTasks)]);
  }
  return `${head}\n\n${pad(rows)}`;
}

/** What kinds of marker a frame gets, compared with the frame before it. */
export function markersOf(frame, prev) {
  const kinds = new Set();
  for (const e of frame.events) {
    const req = e.request;
    const resp = e.response;
    if (e.kind === "heartbeat" && req && resp) {
      if (resp.errorCode !== 0) kinds.add("error");
      else if (req.memberEpoch === 0) kinds.add("join");
      else if (req.memberEpoch < 0) kinds.add("leave");
    }
    if (e.kind === "action" && e.action) {
      if (e.action.type === "crashProcess") kinds.add("crash");
      if (e.action.type === "stopProcess") kinds.add("leave");
    }
    if (e.kind === "sessionTimeout" || e.kind === "rebalanceTimeout") kinds.add("crash");
    if (e.kind === "actionFailed" || e.kind === "fatal") kinds.add("error");
  }
  const g = frame.snap.group;
  const pg = prev && prev.snap.group;
  if (g && (!pg || pg.groupEpoch !== g.groupEpoch)) kinds.add("epoch");
  if (g && g.topology && (!pg || !pg.topology || pg.topologyEpoch !== g.topologyEpoch)) kinds.add("topology");
  return kinds;
}

export function renderMarkers(container, frames) {
  const n = Math.max(1, frames.length - 1);
  const order = ["epoch", "join", "leave", "topology", "crash", "error"];
  const items = [];
  frames.forEach((f, i) => {
    if (!f.marks) return;
    order.forEach((k, row) => {
      if (f.marks.has(k)) items.push(el("i", { class: `m ${k}`, style: `left:${(i / n) * 100}%;top:${row * 4}px`, title: `step ${i}: ${k}` }));
    });
  });
  container.replaceChildren(...items);
}

export function renderEvents(list, frame, selectedSeq, onSelect) {
  const items = frame.events.map((e) => {
    const err = (e.response && e.response.errorCode !== 0) || e.kind === "actionFailed" || e.kind === "fatal";
    const who = e.memberId || e.processId || (e.kind === "action" ? "you / scenario" : "coordinator");
    return el("li", {
      class: `kind-${e.kind}${err ? " err" : ""}${e.seq === selectedSeq ? " selected" : ""}`,
      dataset: { seq: String(e.seq), kind: e.kind },
      tabindex: "0",
      title: e.request ? "Show the request and response in the Inspector" : "",
      onclick: () => onSelect(e),
      onkeydown: (ev) => { if (ev.key === "Enter") onSelect(e); },
    }, el("span", { class: "t" }, `${(e.atMs / 1000).toFixed(1)} s`), el("span", { class: "who" }, who), el("span", { class: "what" }, e.detail));
  });
  if (items.length === 0) items.push(el("li", { class: "kind-none" }, el("span", { class: "t" }, ""), el("span", {}, ""), el("span", { class: "what muted" }, "The start: nothing has happened yet. Step forward.")));
  list.replaceChildren(...items);
}
