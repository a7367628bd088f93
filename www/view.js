// Drawing one frame: the members x tasks board (with animated moves), the epochs
// panel, the describe text, the timeline's markers and events. Every string that
// came from input is set with textContent, never parsed as HTML.

import { errorName, errorWords, GROUP_STATE_WORDS, MEMBER_STATE_WORDS, RULES, statusWords } from "./rules.js";

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

/** Sets an element's text only when it differs (an unchanged page is not laid out again). */
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

/** Replaces a list's children unless the new ones say exactly the same (text and titles). */
function replaceIfChanged(parent, nodes) {
  const sig = nodes.map((n) => `${n.textContent}\u0001${n.title || ""}\u0001${n.className}`).join("\u0000");
  if (parent._sig === sig) return;
  parent._sig = sig;
  parent.replaceChildren(...nodes);
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

/** More chips than this moving at once are not animated (the step shows at once). */
export const MAX_ANIMATED = 300;

function chip(key, task, role, extra, title) {
  return el(
    "span",
    {
      class: `chip ${role} ${extra || ""}`.trim(),
      title,
      dataset: { key, task, role, state: extra || "running" },
    },
    task,
  );
}

function tag(text, cls, title) {
  return el("span", { class: `tag ${cls || ""}`.trim(), title }, text);
}

/** The lane of one member: its label and its task chips. */
function memberLane(p, m, gm) {
  const alive = !["Left", "Crashed", "Failed"].includes(m.state);
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
  if (gm)
    meta.push(
      tag(
        gm.memberState,
        gm.memberState === "Stable" ? "good" : "",
        `The coordinator's view. ${RULES.memberState} Now: ${MEMBER_STATE_WORDS[gm.memberState] || gm.memberState}.`,
      ),
    );
  if (!alive) meta.push(tag(m.state.toUpperCase(), "bad", m.state === "Crashed" ? RULES.orphan : undefined));
  else if (m.state === "Joining")
    meta.push(tag("joining", "", "The client sends epoch 0 with its topology and empty task lists."));
  else if (m.state === "Reconciling") {
    const closing = m.revoking
      ? taskIds(m.revoking.activeTasks).length +
        taskIds(m.revoking.standbyTasks).length +
        taskIds(m.revoking.warmupTasks).length
      : 0;
    meta.push(
      tag(
        closing ? `closing ${closing} task${closing > 1 ? "s" : ""}` : "starting tasks",
        "",
        "The client is applying its new assignment; when done it heartbeats at once, listing the tasks it owns (which confirms revocations).",
      ),
    );
  }
  if (stale) meta.push(tag("STALE_TOPOLOGY", "stale", RULES.stale));
  if (fenced) meta.push(tag("FENCED", "bad", `${errorName(err.code)}: ${err.message}. ${RULES.fenced}`));
  else if (err) meta.push(tag(errorName(err.code), "bad", `${err.message} (${errorWords(err.code)})`));
  if (m.instanceId)
    meta.push(
      tag(
        `static: ${m.instanceId}`,
        "",
        "group.instance.id: a static member keeps its assignment for a session timeout when it leaves with epoch -2.",
      ),
    );

  const chips = [];
  const owned = roleSets(m);
  const revoking = roleSets(m.revoking);
  const target = roleSets(gm ? gm.targetAssignment : null);
  const pendingTarget = roleSets(m.reconcilingTo);
  for (const [role] of ROLES) {
    for (const t of [...owned[role]].sort(taskSort)) {
      const isRevoking = revoking[role].has(t);
      chips.push(
        chip(
          `${role}:${t}@${m.memberId}`,
          t,
          role,
          isRevoking ? "revoking" : "",
          isRevoking
            ? `${t} (${role}) is being revoked. ${RULES.revoking}`
            : `${t}: ${role} task running on ${m.memberId}`,
        ),
      );
    }
  }
  if (alive) {
    for (const [role] of ROLES) {
      const want = new Set([...target[role], ...pendingTarget[role]]);
      for (const t of [...want].sort(taskSort)) {
        if (owned[role].has(t)) continue;
        chips.push(chip(`in:${role}:${t}@${m.memberId}`, t, role, "incoming", `${t} (${role}): ${RULES.incoming}`));
      }
    }
  } else if (gm) {
    const held = roleSets(gm.assignment);
    for (const [role] of ROLES) {
      for (const t of [...held[role]].sort(taskSort)) {
        chips.push(chip(`${role}:${t}@${m.memberId}`, t, role, "orphan", `${t}: ${RULES.orphan}`));
      }
    }
  }
  if (chips.length === 0) chips.push(el("span", { class: "none" }, alive ? "no tasks" : "gone"));

  return el(
    "div",
    { class: cls.join(" "), dataset: { member: m.memberId, process: p.processId, thread: String(m.thread) } },
    el("div", { class: "lane-label" }, el("span", { class: "mid" }, m.memberId), el("span", { class: "meta" }, meta)),
    el("div", { class: "chips" }, chips),
  );
}

/** A lane for a member the coordinator still has but no simulated thread runs now. */
function ghostLane(pid, gm) {
  const chips = [];
  const held = roleSets(gm.assignment);
  for (const [role] of ROLES) {
    for (const t of [...held[role]].sort(taskSort))
      chips.push(chip(`${role}:${t}@${gm.memberId}`, t, role, "orphan", `${t}: ${RULES.orphan}`));
  }
  if (chips.length === 0) chips.push(el("span", { class: "none" }, "no tasks"));
  return el(
    "div",
    { class: "lane dead", dataset: { member: gm.memberId, process: pid, ghost: "true" } },
    el(
      "div",
      { class: "lane-label" },
      el("span", { class: "mid" }, gm.memberId),
      el(
        "span",
        { class: "meta" },
        tag(`epoch ${gm.memberEpoch}`, "", RULES.memberEpoch),
        tag(gm.memberState),
        tag("not running", "bad", RULES.orphan),
      ),
    ),
    el("div", { class: "chips" }, chips),
  );
}

/** The block of one process: its head and a lane per member (ghosts included). */
function processBlock(p, group, gmembers, shown) {
  const down = p.state !== "running";
  const stateTag = {
    running: null,
    stopped: tag("STOPPED", "bad"),
    crashed: tag(
      "CRASHED",
      "bad",
      "The process died without leaving; the coordinator finds out at the session timeout.",
    ),
    restarting: tag(`RESTARTING${p.restartAtMs != null ? ` at ${(p.restartAtMs / 1000).toFixed(1)} s` : ""}`, "bad"),
  }[p.state];
  const groupTopo = group && group.topology ? group.topologyEpoch : null;
  const head = el(
    "div",
    { class: "process-head" },
    el("span", { class: "pid" }, p.processId),
    tag(
      `topology epoch ${p.topologyEpoch}`,
      groupTopo !== null && p.topologyEpoch < groupTopo && !down ? "stale" : "",
      RULES.memberTopologyEpoch,
    ),
    p.threads > 1 ? tag(`${p.threads} threads`) : null,
    p.instanceId ? tag(`instance ${p.instanceId}`) : null,
    ...(p.clientTags || []).map((kv) => tag(`${kv.key}=${kv.value}`, "", "client tag (rack-aware standby placement)")),
    stateTag,
  );
  const lanes = [];
  for (const m of p.members) {
    shown.add(m.memberId);
    lanes.push(memberLane(p, m, gmembers.get(m.memberId)));
  }
  for (const gm of group ? group.members : []) {
    if (gm.processId === p.processId && !shown.has(gm.memberId)) {
      shown.add(gm.memberId);
      lanes.push(ghostLane(p.processId, gm));
    }
  }
  return el(
    "div",
    { class: `process${down ? " down" : ""}`, dataset: { process: p.processId, state: p.state } },
    head,
    lanes,
  );
}

/** What a process block shows, as text: equal text, same block (it is kept, not rebuilt). */
function processSignature(p, group, _gmembers) {
  const gms = group ? group.members.filter((gm) => gm.processId === p.processId) : [];
  return JSON.stringify([p, gms, group && group.topology ? group.topologyEpoch : null]);
}

/** Text, titles and classes of an element's subtree: equal means drawn the same. */
function looks(e) {
  let sig = `${e.className}\u0001${e.title || ""}\u0001`;
  for (const c of e.childNodes) sig += c.nodeType === 1 ? `<${looks(c)}>` : c.textContent;
  return sig;
}

/** Makes `old` (in the page) look like `now` (detached), keeping what did not change. */
function morphBlock(old, now) {
  if (old.className !== now.className) old.className = now.className;
  old.dataset.state = now.dataset.state;
  const [oldHead, ...oldLanes] = old.children;
  const [newHead, ...newLanes] = now.children;
  if (looks(oldHead) !== looks(newHead)) old.replaceChild(newHead, oldHead);
  const byMember = new Map(oldLanes.map((l) => [l.dataset.member, l]));
  const lanes = newLanes.map((l) => {
    const o = byMember.get(l.dataset.member);
    if (!o || o.dataset.ghost !== l.dataset.ghost) return l;
    morphLane(o, l);
    return o;
  });
  syncChildren(old, [old.firstElementChild, ...lanes]);
  old._chips = undefined;
}

function morphLane(old, now) {
  if (old.className !== now.className) old.className = now.className;
  const [oldLabel, oldChips] = old.children;
  const [newLabel, newChips] = now.children;
  if (looks(oldLabel) !== looks(newLabel)) old.replaceChild(newLabel, oldLabel);
  const byKey = new Map();
  for (const c of oldChips.children) if (c.dataset.key) byKey.set(c.dataset.key, c);
  const chips = [...newChips.children].map((c) => {
    const o = c.dataset.key ? byKey.get(c.dataset.key) : null;
    if (!o) return c;
    const ring = o.classList.contains("flash");
    const cls = ring ? `${c.className} flash` : c.className;
    if (o.className !== cls) o.className = cls;
    if (o.title !== c.title) o.title = c.title;
    if (o.dataset.state !== c.dataset.state) o.dataset.state = c.dataset.state;
    return o;
  });
  syncChildren(oldChips, chips);
}

/** Makes `parent`'s children exactly `nodes`, moving only what is out of place. */
function syncChildren(parent, nodes) {
  let cur = parent.firstChild;
  for (const n of nodes) {
    if (cur === n) {
      cur = cur.nextSibling;
    } else {
      parent.insertBefore(n, cur);
    }
  }
  while (cur) {
    const next = cur.nextSibling;
    parent.removeChild(cur);
    cur = next;
  }
}

/**
 * Keeps `block._visible` up to date (near the screen or not): chips of blocks far off
 * screen are never measured (measuring them would lay out what the browser skips).
 */
function watch(container, block) {
  if (typeof IntersectionObserver !== "function") return;
  if (!container._io) {
    container._io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) e.target._visible = e.isIntersecting;
      },
      { rootMargin: "300px 0px" },
    );
  }
  container._io.observe(block);
}

/** The owned (or orphaned) chips of a block: "role:task@member" -> chip. */
function chipIndex(block) {
  if (!block._chips) {
    block._chips = new Map();
    for (const c of block.querySelectorAll(".chip[data-key]"))
      if (!c.classList.contains("incoming")) block._chips.set(c.dataset.key, c);
  }
  return block._chips;
}

/**
 * The chips whose owner or role changed between two indexes: [new chip, chip it came from].
 * A chip that stayed with its member never moves, however its lane shifted on the page.
 */
function movedChips(before, after) {
  const gone = new Map();
  for (const key of before.keys()) {
    if (after.has(key)) continue;
    const task = key.slice(key.indexOf(":") + 1, key.lastIndexOf("@"));
    if (!gone.has(task)) gone.set(task, []);
    gone.get(task).push(key);
  }
  const moved = [];
  for (const [key, c] of after) {
    if (before.has(key)) continue;
    const role = key.slice(0, key.indexOf(":"));
    const task = key.slice(role.length + 1, key.lastIndexOf("@"));
    const from = gone.get(task);
    if (!from || from.length === 0) continue;
    // Prefer the same role on another member (a move), then another role (a promotion).
    let k = from.findIndex((x) => x.startsWith(`${role}:`));
    if (k < 0) k = 0;
    moved.push([c, before.get(from[k])]);
    from.splice(k, 1);
  }
  return moved;
}

/**
 * Draws the members x tasks board into `container`. Blocks of processes whose content
 * did not change are kept as they are. With `animate`, chips that changed owner or role
 * slide from where they were (FLIP: every old position read in one pass before the
 * change, every new one in one pass after it, then the transforms written), unless more
 * than MAX_ANIMATED move at once. `only`: draw that process alone.
 */
export function renderBoard(container, snap, { animate = false, only = null } = {}) {
  const group = snap.group;
  const gmembers = new Map((group ? group.members : []).map((m) => [m.memberId, m]));
  const oldBlocks = container._blocks || new Map();
  const blocks = new Map();
  const racks = new Map();
  const shown = new Set();
  for (const p of snap.processes) {
    if (only !== null && p.processId !== only) continue;
    const sig = processSignature(p, group, gmembers);
    let block = oldBlocks.get(p.processId);
    if (!block) {
      block = processBlock(p, group, gmembers, shown);
      block._sig = sig;
      block._visible = true;
      watch(container, block);
    } else if (block._sig !== sig) {
      // Changed: the block is patched to what a new one would be, so that only what
      // changed (an epoch, a tag, a few chips) is laid out and painted again.
      morphBlock(block, processBlock(p, group, gmembers, shown));
      block._sig = sig;
    } else {
      for (const m of p.members) shown.add(m.memberId);
      for (const gm of group ? group.members : []) if (gm.processId === p.processId) shown.add(gm.memberId);
    }
    blocks.set(p.processId, block);
    const rack = p.rackId || "";
    if (!racks.has(rack)) racks.set(rack, []);
    racks.get(rack).push(block);
  }
  const others = only === null ? (group ? group.members : []).filter((gm) => !shown.has(gm.memberId)) : [];
  const top = [];
  const onlyNoRack = only !== null || (racks.size === 1 && racks.has(""));
  const oldRacks = container._racks || new Map();
  const rackEls = new Map();
  for (const [rack, procs] of racks) {
    if (onlyNoRack) {
      top.push(...procs);
      continue;
    }
    let r = oldRacks.get(rack);
    if (!r)
      r = el(
        "div",
        { class: "rack", dataset: { rack } },
        el("div", { class: "rack-name" }, rack ? `rack ${rack}` : "no rack"),
        el("div", { class: "procs" }),
      );
    syncChildren(r.lastChild, procs);
    rackEls.set(rack, r);
    top.push(r);
  }
  if (others.length) {
    const b = el(
      "div",
      { class: "rack" },
      el("div", { class: "rack-name" }, "members not run by the simulation (hand-made heartbeats)"),
      el(
        "div",
        { class: "procs" },
        el(
          "div",
          { class: "process" },
          others.map((gm) => ghostLane(gm.processId, gm)),
        ),
      ),
    );
    blocks.set("\u0000others", b);
    top.push(b);
  }
  if (top.length === 0)
    top.push(
      el("p", { class: "empty-board" }, "No process yet. Step forward, pick a preset, or add a process in Controls."),
    );

  const before = container._index || new Map();
  const after = new Map();
  for (const b of blocks.values()) for (const [k, c] of chipIndex(b)) after.set(k, c);
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const { moved, first } = firstPositions(container, before, after, animate && !reduce);

  syncChildren(container, top);
  for (const [id, b] of oldBlocks) if (blocks.get(id) !== b && container._io) container._io.unobserve(b);
  container._blocks = blocks;
  container._racks = rackEls;
  container._index = after;

  return slide(moved, first);
}

/**
 * FLIP's first half, before the page changes: the chips that will slide (their owner
 * or role changed, on screen, at most MAX_ANIMATED) and where they start, all read in
 * one pass. A task often leaves its old owner a step or two before its new owner runs
 * it (the revocation, then the assignment): where it was last seen is kept for a few
 * steps, so it slides from there.
 */
function firstPositions(container, before, after, motion) {
  const seen = container._seen || new Map();
  container._seen = seen;
  for (const [k, v] of seen) if (--v.ttl <= 0) seen.delete(k);
  container.dataset.moving = "0";
  if (!motion) return { moved: [], first: [] };
  const onScreen = (c) => {
    const b = c.closest(".process");
    return !b || b._visible !== false;
  };
  // How many move decides (the same whatever is on screen); only those on screen are measured.
  const moved = movedChips(before, after);
  const from = new Set(moved.map(([c]) => c));
  const arriving = [];
  for (const [k, c] of after) {
    if (before.has(k) || from.has(c)) continue;
    const at = k.lastIndexOf("@");
    const was = seen.get(k.slice(0, at));
    if (was && was.member !== k.slice(at + 1)) arriving.push([c, k.slice(0, at), was]);
  }
  // Every chip that leaves is remembered (with its place when on screen and not one of
  // hundreds: only those are measured), so that its task's arrival counts as a move.
  const leaving = [...before].filter(([k]) => !after.has(k));
  const measure = leaving.length <= MAX_ANIMATED;
  const sx = window.scrollX;
  const sy = window.scrollY;
  for (const [k, c] of leaving) {
    const r = measure && onScreen(c) ? c.getBoundingClientRect() : null;
    seen.set(k.slice(0, k.lastIndexOf("@")), {
      member: k.slice(k.lastIndexOf("@") + 1),
      left: r ? r.left + sx : null,
      top: r ? r.top + sy : 0,
      ttl: 4,
    });
  }
  for (const [, task] of arriving) seen.delete(task);
  // How many changed owner or role in this render (the page's own count, for tests too).
  container.dataset.moving = String(moved.length + arriving.length);
  if (moved.length + arriving.length > MAX_ANIMATED) return { moved: [], first: [] };
  const shown = moved.filter(([c, f]) => onScreen(c) || onScreen(f));
  const first = shown.map(([, f]) => f.getBoundingClientRect());
  for (const [c, , was] of arriving) {
    if (!onScreen(c) || was.left === null) continue;
    shown.push([c, null]);
    first.push({ left: was.left - sx, top: was.top - sy });
  }
  return { moved: shown, first };
}

/** FLIP's second half, after the page changed: where they are now (one read pass), then the slides (writes only). */
function slide(moved, first) {
  if (moved.length === 0) return 0;
  const last = moved.map(([c]) => c.getBoundingClientRect());
  // Transform only (the compositor runs it); the ring is a class, removed when done.
  const ringed = [];
  moved.forEach(([c], k) => {
    const dx = first[k].left - last[k].left;
    const dy = first[k].top - last[k].top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
    c.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], {
      duration: 700,
      easing: "cubic-bezier(.2,.7,.2,1)",
    });
    c.classList.add("flash");
    ringed.push(c);
  });
  if (ringed.length)
    setTimeout(() => {
      for (const c of ringed) c.classList.remove("flash");
    }, 1200);
  return moved.length;
}

/** Rows of the members table at most (the whole group is in Describe). */
const MAX_MEMBER_ROWS = 60;

/** The epochs panel; `focus`: a process whose members the table lists first. */
export function renderEpochs(snap, focus = null) {
  const g = snap.group;
  const set = (id, text, title) => {
    const e = document.getElementById(id);
    setText(e, String(text));
    if (title !== undefined && e.title !== title) e.title = title;
    return e;
  };
  set("group-id", snap.groupId);
  const st = set(
    "group-state",
    g ? g.groupState : "no group",
    g
      ? `${RULES.groupState}\nNow: ${GROUP_STATE_WORDS[g.groupState] || ""}`
      : "The group is created by the first member's join.",
  );
  const cls = `state-badge state-${g ? g.groupState : "none"}`;
  if (st.className !== cls) st.className = cls;
  set("group-epoch", g ? g.groupEpoch : "-");
  set("assignment-epoch", g ? g.assignmentEpoch : "-");
  set("group-topology-epoch", g && g.topology ? g.topologyEpoch : "-");
  set("assignor", snap.assignor);
  set("standbys", snap.numStandbyReplicas);
  set(
    "group-explain",
    g
      ? GROUP_STATE_WORDS[g.groupState] || ""
      : "No group yet: the first member's join creates it and stores its topology.",
  );

  let members = g ? g.members : [];
  const total = members.length;
  if (total > MAX_MEMBER_ROWS) {
    const mine = members.filter((m) => m.processId === focus);
    members = [
      ...mine,
      ...members.filter((m) => m.processId !== focus).slice(0, Math.max(0, MAX_MEMBER_ROWS - mine.length)),
    ];
  }
  // Rows whose text did not change are kept (a step changes a few members, not all).
  const body = document.getElementById("member-rows");
  const old = new Map([...body.children].map((r) => [r._sig, r]));
  const rows = members.map((m) => {
    const stale = g.topology && m.topologyEpoch !== g.topologyEpoch;
    const sig = `${m.memberId}\u0000${m.memberEpoch}\u0000${m.memberState}\u0000${m.topologyEpoch}\u0000${stale}`;
    const kept = old.get(sig);
    if (kept) return kept;
    const row = el(
      "tr",
      { dataset: { member: m.memberId } },
      el("td", { class: "mid" }, m.memberId),
      el("td", { title: RULES.memberEpoch }, String(m.memberEpoch)),
      el("td", { title: `${RULES.memberState} ${MEMBER_STATE_WORDS[m.memberState] || ""}` }, m.memberState),
      el(
        "td",
        { class: stale ? "stale-cell" : "", title: stale ? RULES.stale : RULES.memberTopologyEpoch },
        stale ? `${m.topologyEpoch} (stale)` : String(m.topologyEpoch),
      ),
    );
    row._sig = sig;
    return row;
  });
  if (total > members.length) {
    rows.push(
      el(
        "tr",
        { class: "more" },
        el(
          "td",
          { colspan: "4", class: "muted" },
          `${members.length} of ${total} members${focus ? ` (process ${focus} first)` : ""}; the Describe tab lists them all.`,
        ),
      ),
    );
  }
  syncChildren(body, rows);

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
    el(
      "div",
      {
        class: `status-line${s.code >= 1 && s.code <= 4 ? " blocking" : ""}`,
        title: `status ${s.code}: ${s.words}`,
        dataset: { status: s.name },
      },
      el("b", {}, s.name),
      ` ${s.words}`,
      s.detail ? ` (${s.detail})` : "",
      `; sent to ${s.who.length > 12 ? `${s.who.slice(0, 12).join(", ")} and ${s.who.length - 12} more` : s.who.join(", ")}`,
    ),
  );
  replaceIfChanged(document.getElementById("statuses"), lines);
  replaceIfChanged(
    document.getElementById("topics"),
    snap.topics.map((t) => el("li", {}, `${t.name} (${t.numPartitions} partitions)`)),
  );
}

function pad(rows) {
  const widths = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] || 0, String(c).length);
    });
  }
  return rows
    .map((r) =>
      r
        .map((c, i) => String(c).padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
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
  const rows = [
    [
      "GROUP",
      "MEMBER",
      "PROCESS",
      "CLIENT-ID",
      "INSTANCE-ID",
      "MEMBER-EPOCH",
      "MEMBER-STATE",
      "TARGET-ASSIGNMENT-EPOCH",
      "TOPOLOGY-EPOCH",
      "ACTIVE-TASKS",
      "STANDBY-TASKS",
      "WARMUP-TASKS",
      "TARGET-ACTIVE",
      "TARGET-STANDBY",
      "TARGET-WARMUP",
    ],
  ];
  for (const m of g.members) {
    rows.push([
      g.groupId,
      m.memberId,
      m.processId,
      m.clientId || "-",
      m.instanceId || "-",
      m.memberEpoch,
      m.memberState,
      g.assignmentEpoch,
      m.topologyEpoch,
      tasksCol(m.assignment.activeTasks),
      tasksCol(m.assignment.standbyTasks),
      tasksCol(m.assignment.warmupTasks),
      tasksCol(m.targetAssignment.activeTasks),
      tasksCol(m.targetAssignment.standbyTasks),
      tasksCol(m.targetAssignment.warmupTasks),
    ]);
  }
  return `${head}\n\n${pad(rows)}`;
}

/** Marker kinds, one row each; each has its own shape too (readable without colour). */
export const MARKER_KINDS = ["epoch", "join", "leave", "topology", "crash", "error"];

/** The timeline's markers; at most one per kind per 1/600 of the timeline's width. */
export function renderMarkers(container, frames) {
  const n = Math.max(1, frames.length - 1);
  const items = [];
  const taken = new Set();
  frames.forEach((f, i) => {
    if (!f.marks || f.marks.size === 0) return;
    const bucket = Math.round((i / n) * 600);
    MARKER_KINDS.forEach((k, row) => {
      if (!f.marks.has(k) || taken.has(`${k}${bucket}`)) return;
      taken.add(`${k}${bucket}`);
      items.push(
        el("i", { class: `m ${k}`, style: `left:${(i / n) * 100}%;top:${row * 6}px`, title: `step ${i}: ${k}` }),
      );
    });
  });
  container.replaceChildren(...items);
}

/** Events listed at most per step (a big group's step can have thousands). */
const MAX_EVENTS_SHOWN = 400;

export function renderEvents(list, frame, selectedSeq, onSelect) {
  const items = frame.events.slice(0, MAX_EVENTS_SHOWN).map((e) => {
    const err = (e.response && e.response.errorCode !== 0) || e.kind === "actionFailed" || e.kind === "fatal";
    const who = e.memberId || e.processId || (e.kind === "action" ? "you / scenario" : "coordinator");
    return el(
      "li",
      {
        class: `kind-${e.kind}${err ? " err" : ""}${e.seq === selectedSeq ? " selected" : ""}`,
        dataset: { seq: String(e.seq), kind: e.kind },
        tabindex: "0",
        title: e.request ? "Show the request and response in the Inspector" : "",
        onclick: () => onSelect(e),
        onkeydown: (ev) => {
          if (ev.key === "Enter") onSelect(e);
        },
      },
      el("span", { class: "t" }, `${(e.atMs / 1000).toFixed(1)} s`),
      el("span", { class: "who" }, who),
      el("span", { class: "what" }, e.detail),
    );
  });
  // A row that is no event: no time, no member, a muted sentence.
  const note = (kind, text) =>
    el(
      "li",
      { class: `kind-${kind}` },
      el("span", { class: "t" }, ""),
      el("span", {}, ""),
      el("span", { class: "what muted" }, text),
    );
  if (items.length === 0) items.push(note("none", "The start: nothing has happened yet. Step forward."));
  if (frame.events.length > MAX_EVENTS_SHOWN) {
    items.push(
      note(
        "more",
        `and ${frame.events.length - MAX_EVENTS_SHOWN} more events in this step (Copy as Markdown lists them all)`,
      ),
    );
  }
  list.replaceChildren(...items);
}
