// The playground: holds the scenario and its timeline of frames (www/frames.js). A
// frame is one moment of simulated time (its events and the snapshot after them).
// Back, forward and scrubbing only pick another frame; every change to the scenario
// replays it from the start (the simulation is deterministic), so the past is never
// edited in place. Long timelines are computed in slices, between which the page
// stays responsive, with a progress line.

import { DumpTimeline } from "./dump.js";
import { MAX_FRAMES, scenarioSize, Timeline } from "./frames.js";
import { healthRules, renderHealth } from "./health.js";
import { describeRow, drawOverview, hitAt, overviewModel } from "./overview.js";
import { renderQuality } from "./quality.js";
import { RULES, ruleUrl, useModule } from "./rules.js";
import { decodeHash, encodeHash, LinkError, markdownReport } from "./share.js";
import { describeText, renderBoard, renderEpochs, renderEvents, renderMarkers, setText } from "./view.js";

const $ = (id) => document.getElementById(id);

/** Above these sizes the board starts as the overview (one canvas) instead of lanes. */
const OVERVIEW_MEMBERS = 128;
const OVERVIEW_CHIPS = 2400;
/** Above this many members there are no lanes for the whole group (only for a picked process). */
const MAX_LANES_MEMBERS = 600;
/** A big group's health check (its timeline is light: frames.js) waits until stepping paused this long (ms): for 1 000 members it takes ~100 ms. */
const HEALTH_PAUSE_MS = 300;
/** Scenarios larger than this are refused (members from threads, tasks from partitions). */
const MAX_MEMBERS = 4096;
const MAX_TASKS = 100000;
/** Computing slices: the first one (before anything yields) and the later ones, ms. */
const FIRST_SLICE_MS = 120;
const SLICE_MS = 30;
/** After an action, the timeline runs on at least this long (plus the session timeout). */
const TAIL_AFTER_ACTION_MS = 15000;
/** The simulation's clock ends after a year. */
const MAX_TIME_MS = 365 * 24 * 3600 * 1000;

const app = {
  wasm: null,
  presets: [],
  scenario: null,
  tl: null,
  idx: 0,
  playing: null,
  selected: null,
  healthRules: [],
  /** "auto", "lanes" or "overview". */
  view: "auto",
  mode: "lanes",
  /** The member picked in the overview (its process is drawn as lanes). */
  focus: null,
  hits: [],
  job: null,
  /** Set while a link that could not be read stays in the address bar. */
  keepUrl: false,
  /** The hash the page last wrote to the address bar or read from it. */
  lastHash: "",
  procIds: "",
  /** While a broker dump is open: { name, groupId, report } (its timeline is read-only). */
  dump: null,
};

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 4000);
}

function showLoadError(message) {
  const box = $("load-error");
  box.hidden = false;
  box.textContent = message;
  $("story-title").textContent = "The playground could not start";
}

/** A lasting notice about the link the page was opened with (it stays in the address bar). */
function linkNotice(text) {
  $("link-error-text").textContent = text;
  $("link-error").hidden = !text;
}

/** The module's error message without its "invalid scenario: " prefix (the page says what it was). */
function words(e) {
  const m = e && e.message ? e.message : String(e);
  return m.replace(/^invalid scenario: /, "");
}

// ---------------------------------------------------------------------------
// Frames

function ensureFrame(i) {
  const tl = app.tl;
  while (tl.length <= i && tl.extend()) {
    /* compute */
  }
  return Math.min(i, tl.length - 1);
}

const yieldToPage = () =>
  new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });

/**
 * Computes the timeline to the scenario's end (and to `target`) in slices; between
 * slices the page handles input. `onReach(i)` runs once frame `target` exists (or the
 * last one, when the scenario has fewer).
 */
async function compute(target, onReach) {
  const tl = app.tl;
  if (app.job) app.job.cancelled = true;
  const job = { cancelled: false, target, onReach };
  app.job = job;
  const started = performance.now();
  let sliceMs = FIRST_SLICE_MS;
  let drawn = 0;
  for (;;) {
    const until = performance.now() + sliceMs;
    let more = true;
    while (performance.now() < until) {
      const need = !tl.complete || (job.target !== null && tl.length <= job.target);
      if (!need || !tl.extend()) {
        more = false;
        break;
      }
    }
    if (job.cancelled || app.tl !== tl) return;
    if (job.target !== null && (tl.length > job.target || !more)) {
      const reach = job.onReach;
      const want = job.target;
      job.target = null;
      job.onReach = null;
      if (reach) reach(Math.min(want, tl.length - 1));
      // The callback may have replaced the timeline (an action that failed).
      if (job.cancelled || app.tl !== tl) return;
    }
    if (!more) break;
    progress(tl, job, started);
    if (performance.now() - drawn > 500) {
      renderTimeline();
      updateStepLabel();
      drawn = performance.now();
    }
    sliceMs = SLICE_MS;
    await yieldToPage();
    if (job.cancelled || app.tl !== tl) return;
  }
  app.job = null;
  progress(null);
  renderTimeline();
  updateStepLabel();
}

function progress(tl, job, started) {
  const box = $("progress");
  if (!tl) {
    box.hidden = true;
    delete document.body.dataset.busy;
    return;
  }
  document.body.dataset.busy = "true";
  if (performance.now() - started < 150 && box.hidden) return;
  box.hidden = false;
  const bar = $("progress-bar");
  if (job.target !== null) {
    bar.max = job.target;
    bar.value = tl.length - 1;
    $("progress-text").textContent = `Computing step ${tl.length - 1} of ${job.target}\u2026`;
  } else {
    const end = Math.max(1, tl.end);
    const now = tl.meta[tl.length - 1].t;
    bar.max = end;
    bar.value = Math.min(end, now);
    $("progress-text").textContent =
      `Computing the timeline: ${(now / 1000).toFixed(0)} s of ${(end / 1000).toFixed(0)} s (step ${tl.length - 1})\u2026`;
  }
}

function stopComputing() {
  if (!app.job) return;
  app.job.cancelled = true;
  app.job = null;
  progress(null);
  renderTimeline();
  updateStepLabel();
}

// ---------------------------------------------------------------------------
// Drawing

function narrationAt(t) {
  let text = "";
  for (const n of app.scenario.narration || []) if (n.atMs <= t) text = n.text;
  const edit = app.editedAt;
  if (edit !== null && t >= edit && text)
    return `(Edited at ${(edit / 1000).toFixed(1)} s: this is the preset's own narration, which your changes may have made wrong.) ${text}`;
  return text;
}

function membersOf(snap) {
  let n = 0;
  for (const p of snap.processes) n += p.members.length;
  return Math.max(n, snap.group ? snap.group.members.length : 0);
}

function chipsOf(snap) {
  let n = 0;
  for (const m of snap.group ? snap.group.members : []) {
    for (const k of ["activeTasks", "standbyTasks", "warmupTasks"])
      for (const t of m.assignment[k]) n += t.partitions.length;
  }
  return n;
}

/** The group's size: what the scenario starts, or what the step shows if that is more. */
function sizeOf(snap) {
  const planned = app.tl.planned;
  return { members: Math.max(planned.members, membersOf(snap)), chips: Math.max(planned.tasks, chipsOf(snap)) };
}

function modeFor(snap) {
  const size = sizeOf(snap);
  const lanesOk = size.members <= MAX_LANES_MEMBERS;
  const toggle = $("view-toggle");
  toggle.disabled = !lanesOk;
  toggle.title = lanesOk
    ? "The overview draws the whole group on one screen; the lanes show every detail"
    : `Lanes for ${size.members} members would take a long time to draw: pick a member in the overview to see its process as lanes.`;
  if (!lanesOk) return "overview";
  if (app.view !== "auto") return app.view;
  return size.members > OVERVIEW_MEMBERS || size.chips > OVERVIEW_CHIPS ? "overview" : "lanes";
}

function setMode(mode) {
  if (app.mode === mode) return;
  app.mode = mode;
  $("lanes").hidden = mode !== "lanes";
  $("overview").hidden = mode !== "overview";
  $("board").dataset.mode = mode;
  const t = $("view-toggle");
  t.textContent = mode === "overview" ? "Show lanes" : "Show overview";
  t.setAttribute("aria-pressed", String(mode === "overview"));
  // The lanes drawn before are stale now: draw afresh next time.
  for (const c of [$("lanes"), $("focus-lanes")]) {
    c.replaceChildren();
    c._blocks = c._racks = c._index = undefined;
  }
}

function focusProcess(snap) {
  if (!app.focus) return null;
  for (const p of snap.processes) if (p.members.some((m) => m.memberId === app.focus)) return p.processId;
  const gm = snap.group && snap.group.members.find((m) => m.memberId === app.focus);
  return gm ? gm.processId : null;
}

function renderOverview(snap, animate) {
  const i = app.idx;
  const prev = i > 0 ? app.tl.cachedSnap(i - 1) || app.tl.frame(i - 1).snap : null;
  const model = overviewModel(snap, prev);
  const pid = focusProcess(snap);
  // The lanes' column is there only once a member is picked (the canvas takes the width).
  $("overview").dataset.picked = String(pid !== null);
  const canvas = $("overview-canvas");
  const maxHeight = Math.max(320, window.innerHeight - 230);
  const drawn = drawOverview(canvas, model, { maxHeight, selected: app.focus });
  app.hits = drawn.hits;
  canvas.setAttribute(
    "aria-label",
    `Overview of ${model.members} members in ${[...model.racks.values()].reduce((n, r) => n + r.length, 0)} processes${model.racks.size > 1 ? ` on ${model.racks.size} racks` : ""}; ${model.moved} task${model.moved === 1 ? "" : "s"} moved in this step. Use the up and down arrows to pick a member.`,
  );
  setText(
    $("overview-summary"),
    `${model.members} members, ${model.tasks} active tasks; ${model.moved} moved in this step (ringed).`,
  );
  const row = app.focus ? drawn.hits.find((h) => h.row.memberId === app.focus) : null;
  setText(
    $("overview-info"),
    row
      ? describeRow(row.row)
      : "Click a member (or focus the overview and use the arrow keys) to see its process as lanes.",
  );
  if (pid !== null) {
    renderBoard($("focus-lanes"), snap, { animate, only: pid });
  } else {
    const fl = $("focus-lanes");
    fl.replaceChildren();
    fl._blocks = fl._racks = fl._index = undefined;
  }
}

/** Runs `fn` when the page is idle (after the frame is painted). */
function afterPaint(fn) {
  if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 1000 });
  else requestAnimationFrame(() => setTimeout(fn, 0));
}

function renderHealthNow(i, tl = app.tl) {
  if (i !== app.idx || tl !== app.tl) return;
  if (tl.light) {
    const [before, now] = tl.coordinatorSnaps(i);
    renderHealth(
      $("health"),
      app.wasm.checkInvariants,
      { coordinator: now },
      before && { coordinator: before },
      app.healthRules,
    );
    renderQualityNow(i, tl);
    return;
  }
  const f = tl.frame(i);
  const before = i > 0 ? tl.cachedSnap(i - 1) : null;
  renderHealth($("health"), app.wasm.checkInvariants, f.snap, before, app.healthRules);
  renderQualityNow(i, tl);
}

/** The quality panel rates frame i's target against what was owned at frame i - 1. */
function renderQualityNow(i, tl) {
  const f = tl.frame(i);
  const before = i > 0 ? tl.cachedSnap(i - 1) || tl.frame(i - 1).snap : null;
  renderQuality($("quality"), app.wasm.assignmentQuality, f.snap, before);
}

function render(animate) {
  const f = app.tl.frame(app.idx);
  const snap = f.snap;
  setMode(modeFor(snap));
  if (app.mode === "lanes") renderBoard($("lanes"), snap, { animate });
  else renderOverview(snap, animate);
  renderEpochs(snap, focusProcess(snap));
  const i = app.idx;
  const tl = app.tl;
  if (tl.light) {
    // Big groups: the next step is computed while the page is idle (so that stepping
    // on only draws), and the invariants are checked once stepping pauses.
    afterPaint(() => {
      if (tl === app.tl && i === app.idx && i + 1 < tl.length) tl.frame(i + 1);
    });
    clearTimeout(render.health);
    render.health = setTimeout(() => afterPaint(() => renderHealthNow(i, tl)), HEALTH_PAUSE_MS);
  } else {
    renderHealthNow(i);
  }
  setText($("clock"), `t = ${(f.t / 1000).toFixed(1)} s`);
  updateStepLabel();
  setText($("narration"), narrationAt(f.t));
  renderEvents($("events"), f, app.selected && app.selected.seq, selectEvent);
  if (!$("panel-describe").hidden) $("describe").textContent = describeText(snap);
  const procs = snap.processes.map((p) => p.processId);
  if (procs.join("\u0000") !== app.procIds) {
    app.procIds = procs.join("\u0000");
    const sel = $("proc-select");
    const keep = sel.value;
    sel.replaceChildren(
      ...procs.map((id) => {
        const o = document.createElement("option");
        o.value = id;
        o.textContent = id;
        return o;
      }),
    );
    if (procs.includes(keep)) sel.value = keep;
  }
  if ($("assignor-select").value !== snap.assignor) $("assignor-select").value = snap.assignor;
  if ($("standby-count").value !== String(snap.numStandbyReplicas))
    $("standby-count").value = String(snap.numStandbyReplicas);
  document.body.dataset.step = String(app.idx);
}

function updateStepLabel() {
  const last = app.tl.length - 1;
  setText($("step-label"), `step ${app.idx} / ${last}${app.job ? "+" : ""}`);
  const scrub = $("scrub");
  scrub.max = String(last);
  scrub.value = String(app.idx);
  scrub.setAttribute("aria-valuetext", `step ${app.idx} of ${last}`);
  document.body.dataset.steps = String(last);
}

function renderTimeline() {
  renderMarkers($("markers"), app.tl.meta);
}

/** Shows frame `i`. `user`: the person asked (a pending jump from a link is dropped). */
function go(i, animate = false, user = true) {
  if (user) {
    app.keepUrl = false;
    if (app.job) app.job.target = null;
  }
  const before = app.tl.length;
  const target = ensureFrame(Math.max(0, i));
  const changed = target !== app.idx;
  app.idx = target;
  if (changed || !animate) render(animate && changed);
  if (app.tl.length !== before) renderTimeline();
  queueHashUpdate();
}

// ---------------------------------------------------------------------------
// Scenario changes: record an action at the current step's time and replay.

/** The preset a scenario was made from, when it is one or an edit of one. */
function presetOf(s) {
  const name = (s.name || "").replace(/-edited$/, "");
  return app.presets.find((p) => p.name === name) || null;
}

/** When an edited preset first departs from the preset (its first action the preset lacks), or null. */
function editedAt(s) {
  const p = presetOf(s);
  if (!p || s.name === p.name) return null;
  const base = app.wasm.Simulation.checkScenario(p.scenario);
  const left = new Map();
  for (const a of base.actions || []) left.set(JSON.stringify(a), (left.get(JSON.stringify(a)) || 0) + 1);
  let at = null;
  for (const a of s.actions || []) {
    const k = JSON.stringify(a);
    if (left.get(k)) left.set(k, left.get(k) - 1);
    else at = at === null ? Number(a.atMs || 0) : Math.min(at, Number(a.atMs || 0));
  }
  return at === null ? 0 : at;
}

/** A preset with changes becomes a custom scenario: its name and title say so. */
function markEdited(s) {
  const p = presetOf(s);
  if (!p || s.name !== p.name) return s;
  return { ...s, name: `${p.name}-edited`, title: `${p.title || p.name} (edited)` };
}

function failuresAt(tl, t) {
  let n = 0;
  let last = null;
  for (let i = 1; i < tl.length; i++) {
    if (tl.meta[i].t < t) continue;
    if (tl.meta[i].t > t) break;
    for (const e of tl.frame(i).events) {
      if (e.kind === "actionFailed" && Number(e.atMs) === t) {
        n++;
        last = e;
      }
    }
  }
  return { n, last };
}

/** The first frame that shows what happened at time `t` (frame 0 is before anything). */
function frameAt(tl, t) {
  for (let i = 1; i < tl.length; i++) if (tl.meta[i].t >= t) return i;
  return tl.length - 1;
}

/**
 * Records `action` at the current step's time and replays. An action that is malformed,
 * or that fails when it runs (e.g. adding a process whose id is taken), is not
 * recorded: the scenario stays as it was and the error is shown. `then(ok)` runs once
 * the outcome is known (at once, unless the group is big enough to compute in slices).
 */
function record(action, then = () => {}) {
  app.keepUrl = false;
  stop();
  if (app.dump) {
    controlError(
      "A broker dump is a recorded history and cannot be changed: load a preset or a scenario to experiment.",
    );
    then(false);
    return;
  }
  const t = app.tl.frame(app.idx).t;
  let s = structuredClone(app.scenario);
  s.actions = [...(s.actions || []), { atMs: t, ...action }];
  // Validate first: a bad action is an error on the page, the scenario stays as it was.
  try {
    s = app.wasm.Simulation.checkScenario(markEdited(s));
  } catch (e) {
    if (e && e.kind === "trapped") throw e; // recover() takes it from here
    controlError(words(e));
    then(false);
    return;
  }
  // Run on past the action long enough to see what it causes (a crash: the session timeout).
  const tail = Number((s.config && s.config.sessionTimeoutMs) || 45000) + TAIL_AFTER_ACTION_MS;
  s.endMs = Math.min(MAX_TIME_MS, Math.max(Number(s.endMs || 0), t + tail));
  const old = { tl: app.tl, scenario: app.scenario, idx: app.idx, editedAt: app.editedAt };
  const failedBefore = failuresAt(old.tl, t).n;
  if (app.job) app.job.cancelled = true;
  app.job = null;
  app.scenario = s;
  app.tl = new Timeline(app.wasm, s);
  app.editedAt = editedAt(s);
  // Enough frames to see the action's own frame (frame 0 is before anything ran).
  compute(Math.max(app.idx, 1) + 1, () => {
    const after = failuresAt(app.tl, t);
    if (after.n > failedBefore) {
      stopComputing();
      app.tl.free();
      Object.assign(app, old);
      controlError(after.last.detail);
      render(false);
      renderTimeline();
      if (!app.tl.complete) compute(null);
      then(false);
      return;
    }
    old.tl.free();
    controlError("");
    app.idx = frameAt(app.tl, t);
    showScenario();
    render(true);
    renderTimeline();
    queueHashUpdate();
    then(true);
  });
}

function controlError(text) {
  $("control-error").textContent = text;
}

function showScenario() {
  const s = app.scenario;
  $("story-title").textContent = s.title || "Custom scenario";
  $("story-description").textContent = s.description || "";
  $("scenario-json").value = JSON.stringify(s, null, 2);
  const preset = app.presets.find((p) => p.name === s.name);
  $("preset").value = preset ? preset.name : "";
  $("edited-note").hidden = app.editedAt === null;
}

/**
 * Loads a scenario (checked first: a bad one changes nothing) and shows `step` once it
 * is computed. `from`: "link" when it came from the address bar (errors say so).
 * Resolves to true when the scenario was taken.
 */
function loadScenario(input, step = 0, from = "page") {
  stop();
  let s;
  try {
    s = app.wasm.Simulation.checkScenario(input);
  } catch (e) {
    if (e && e.kind === "trapped") throw e; // recover() takes it from here
    if (from === "link")
      linkNotice(
        `This link's scenario is not valid: ${words(e)}. Showing the first preset instead; the link is kept in the address bar.`,
      );
    else toast(`Not a valid scenario: ${words(e)}`);
    return false;
  }
  const size = scenarioSize(s);
  if (size.members > MAX_MEMBERS || size.tasks > MAX_TASKS) {
    const text = `This scenario is larger than the playground runs: ${size.members} members and ${size.tasks} tasks (at most ${MAX_MEMBERS} and ${MAX_TASKS}).`;
    if (from === "link") linkNotice(`${text} Showing the first preset instead; the link is kept in the address bar.`);
    else toast(text);
    return false;
  }
  const p = app.presets.find((x) => x.name === s.name);
  if (p && JSON.stringify(app.wasm.Simulation.checkScenario(p.scenario)) !== JSON.stringify(s)) s = markEdited(s);
  if (app.tl) app.tl.free();
  if (app.job) app.job.cancelled = true;
  app.job = null;
  app.dump = null;
  delete document.body.dataset.dump;
  app.scenario = s;
  app.tl = new Timeline(app.wasm, s);
  app.editedAt = editedAt(s);
  app.selected = null;
  app.focus = null;
  app.view = "auto";
  app.idx = 0;
  showScenario();
  $("redeploy-topology").value = JSON.stringify(s.topology, null, 2);
  render(false);
  renderTimeline();
  const want = Math.min(step, MAX_FRAMES - 1);
  compute(want, (i) => {
    if (i < step)
      toast(
        `The link asks for step ${step}; this scenario has ${i} steps${step >= MAX_FRAMES ? ` (the playground computes at most ${MAX_FRAMES})` : ""}. Showing the last one.`,
      );
    app.idx = i;
    render(false);
    renderTimeline();
  });
  queueHashUpdate();
  return true;
}

/** The words of the story line for an open dump. */
function dumpStory(report, steps) {
  const others =
    report.groups.length > 1
      ? ` (the first of ${report.groups.length} streams groups: ${report.groups.join(", ")})`
      : "";
  const per = report.format === "dump-log" ? "one per written batch" : "one per record: JSON lines show no batches";
  const topics = report.inferred.map((t) => `${t.topic} ${t.numPartitions} (${t.from})`).join(", ");
  const skipped = report.skipped.otherGroups + report.skipped.unknownTypes + report.skipped.undecodable;
  return `${report.records} records of streams group ${app.dump.groupId}${others} in ${steps} steps, ${per}. Partition counts: ${topics || "none"}.${skipped ? ` Skipped ${skipped} records of other groups or unknown types.` : ""} A recorded history: step through it; it cannot be changed.`;
}

/**
 * Opens a broker dump (kafka-dump-log --offsets-decoder output or JSON lines) as the
 * timeline: one frame per step. A dump that cannot be read changes nothing.
 */
function loadDump(text, name) {
  stop();
  let history;
  try {
    history = app.wasm.History.fromKafkaRecords(text);
  } catch (e) {
    toast(
      `Could not open ${name}: ${(e && e.message ? e.message : String(e)).replace(/^invalid Kafka records: /, "")}`,
    );
    return false;
  }
  const report = history.report();
  if (report.groups.length === 0) {
    history.free();
    toast(`${name} holds no streams group records.`);
    return false;
  }
  if (app.tl) app.tl.free();
  if (app.job) app.job.cancelled = true;
  app.job = null;
  app.dump = { name, groupId: report.groups[0], report };
  app.tl = new DumpTimeline(app.wasm, history, app.dump.groupId);
  app.scenario = {
    name: "",
    title: `Broker dump: ${name}`,
    description: "",
    groupId: app.dump.groupId,
    actions: [],
    topics: [],
    endMs: 0,
  };
  app.editedAt = null;
  app.selected = null;
  app.focus = null;
  app.view = "auto";
  app.idx = 0;
  $("story-title").textContent = `Broker dump: ${name}`;
  $("story-description").textContent = dumpStory(report, app.tl.length - 1);
  $("preset").value = "";
  $("edited-note").hidden = true;
  $("scenario-json").value = JSON.stringify(report, null, 2);
  document.body.dataset.dump = name;
  render(false);
  renderTimeline();
  queueHashUpdate();
  return true;
}

// ---------------------------------------------------------------------------
// Playing

function stop() {
  if (app.playing) clearInterval(app.playing);
  app.playing = null;
  $("play").textContent = "\u25B6 Play";
  $("play").setAttribute("aria-label", "Play");
}

function play() {
  if (app.playing) return stop();
  // Play stops at the last computed step; from there it starts again at the start.
  if (app.idx >= app.tl.length - 1) go(0);
  const speed = Number($("speed").value) || 2;
  $("play").textContent = "\u23F8 Pause";
  $("play").setAttribute("aria-label", "Pause");
  app.playing = setInterval(() => {
    if (app.idx >= app.tl.length - 1) return stop();
    go(app.idx + 1, true);
  }, 1000 / speed);
}

// ---------------------------------------------------------------------------
// Inspector

function selectEvent(e) {
  app.selected = e;
  $("insp-title").textContent = `${e.memberId || e.processId || ""} at ${(e.atMs / 1000).toFixed(1)} s`;
  $("insp-request").value = e.request ? JSON.stringify(e.request, null, 2) : "";
  $("insp-response").textContent = e.response
    ? JSON.stringify(e.response, null, 2)
    : JSON.stringify(e.record || e.coordinator || e.action || { detail: e.detail }, null, 2);
  selectTab("inspector");
  render(false);
}

function sendRequest() {
  let request;
  try {
    request = JSON.parse($("insp-request").value);
  } catch {
    $("insp-response").textContent = "This request is not valid JSON.";
    return;
  }
  // record() decodes it first: a malformed request is an error here and changes nothing.
  record({ type: "heartbeat", request }, (ok) => {
    if (!ok) {
      $("insp-response").textContent = $("control-error").textContent;
      return;
    }
    const f = app.tl.frame(app.idx);
    const mine = [...f.events].reverse().find((e) => e.kind === "heartbeat" && e.request && !e.thread);
    if (mine) {
      app.selected = mine;
      $("insp-response").textContent = JSON.stringify(mine.response, null, 2);
    }
  });
}

// ---------------------------------------------------------------------------
// Tabs, controls, keys

function selectTab(name, focus = false) {
  for (const t of document.querySelectorAll("[role=tab]")) {
    const on = t.id === `tab-${name}`;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
    if (on && focus) t.focus();
  }
  if (name === "describe" && app.tl) $("describe").textContent = describeText(app.tl.frame(app.idx).snap);
}

/** `zone=a rack=r1` as the protocol's list of `{ key, value }` (a key given twice: the last). */
function parseTags(text) {
  const tags = new Map();
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const i = part.indexOf("=");
    if (i <= 0) throw new Error(`client tags: "${part}" is not key=value`);
    tags.set(part.slice(0, i), part.slice(i + 1));
  }
  return [...tags].map(([key, value]) => ({ key, value }));
}

function nextProcessId() {
  const taken = new Set(app.tl.frame(app.idx).snap.processes.map((p) => p.processId));
  for (const a of app.scenario.actions || []) if (a.type === "addProcess" && a.processId) taken.add(a.processId);
  return app.wasm.nextProcessId([...taken]);
}

/** Picks a member in the overview (its process is then drawn as lanes beside it). */
function pickMember(memberId) {
  app.focus = memberId;
  render(false);
}

function wireOverview() {
  const canvas = $("overview-canvas");
  const at = (ev) => {
    const r = canvas.getBoundingClientRect();
    return hitAt(app.hits, ev.clientX - r.left, ev.clientY - r.top);
  };
  canvas.addEventListener("click", (ev) => {
    const h = at(ev);
    if (h) pickMember(h.row.memberId);
  });
  canvas.addEventListener("mousemove", (ev) => {
    const h = at(ev);
    canvas.title = h ? describeRow(h.row) : "";
  });
  canvas.addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    ev.stopPropagation();
    const rows = app.hits.map((h) => h.row.memberId);
    if (rows.length === 0) return;
    const k = rows.indexOf(app.focus);
    const next = k < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, k + (ev.key === "ArrowDown" ? 1 : -1)));
    pickMember(rows[next]);
  });
  $("view-toggle").addEventListener("click", () => {
    app.view = app.mode === "overview" ? "lanes" : "overview";
    render(false);
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (app.tl && app.mode === "overview") render(false);
    }, 150);
  });
}

function wireControls() {
  $("add-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    let tags;
    try {
      tags = parseTags($("add-tags").value);
    } catch (e) {
      return controlError(e.message);
    }
    const a = { type: "addProcess", processId: $("add-id").value || nextProcessId() };
    const threads = Number($("add-threads").value);
    if (threads && threads !== 1) a.threads = threads;
    if ($("add-rack").value) a.rackId = $("add-rack").value;
    if (tags.length) a.clientTags = tags;
    if ($("add-instance").value) a.instanceId = $("add-instance").value;
    record(a, (ok) => {
      if (!ok) return;
      // An id and an instance id are one process's own: the next Add needs new ones.
      $("add-id").value = "";
      $("add-instance").value = "";
    });
  });
  const proc = () => $("proc-select").value;
  $("stop-process").addEventListener("click", () => proc() && record({ type: "stopProcess", processId: proc() }));
  $("crash-process").addEventListener("click", () => proc() && record({ type: "crashProcess", processId: proc() }));
  $("restart-process").addEventListener("click", () => proc() && record({ type: "restartProcess", processId: proc() }));
  $("redeploy-process").addEventListener("click", () => {
    const id = proc();
    if (!id) return;
    const p = app.tl.frame(app.idx).snap.processes.find((x) => x.processId === id);
    let topology;
    try {
      topology = JSON.parse($("redeploy-topology").value || "null");
    } catch {
      return controlError("The topology for the redeploy is not valid JSON.");
    }
    const epoch = (p ? p.topologyEpoch : 0) + 1;
    const changes = { topologyEpoch: epoch };
    if (
      topology &&
      JSON.stringify({ ...topology, epoch: 0 }) !== JSON.stringify({ ...app.scenario.topology, epoch: 0 })
    ) {
      changes.topology = { ...topology, epoch };
    }
    record({ type: "restartProcess", processId: id, changes });
  });
  $("topic-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    record({
      type: "createTopics",
      topics: [{ name: $("topic-name").value, numPartitions: Number($("topic-partitions").value) }],
    });
  });
  $("delete-topic").addEventListener(
    "click",
    () => $("topic-name").value && record({ type: "deleteTopics", names: [$("topic-name").value] }),
  );
  $("set-assignor").addEventListener("click", () =>
    record({ type: "setAssignor", assignor: $("assignor-select").value }),
  );
  $("set-standbys").addEventListener("click", () =>
    record({ type: "setStandbyReplicas", numStandbyReplicas: Number($("standby-count").value) }),
  );
}

/** The transport, the tabs, the scenario's own buttons (share, export, import). */
function wireTimeline() {
  $("step-fwd").addEventListener("click", () => {
    stop();
    go(app.idx + 1, true);
  });
  $("step-back").addEventListener("click", () => {
    stop();
    go(app.idx - 1, true);
  });
  $("step-first").addEventListener("click", () => {
    stop();
    go(0);
  });
  $("step-last").addEventListener("click", () => {
    stop();
    go(app.tl.length - 1);
  });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => {
    if (app.playing) {
      stop();
      play();
    }
  });
  $("scrub").addEventListener("input", () => {
    stop();
    go(Number($("scrub").value));
  });
  $("progress-stop").addEventListener("click", stopComputing);
  $("link-error-close").addEventListener("click", () => linkNotice(""));

  const tabs = [...document.querySelectorAll("[role=tab]")];
  for (const t of tabs) {
    t.addEventListener("click", () => selectTab(t.id.replace("tab-", "")));
    // Arrow keys move between tabs (the tab list's own keys, not the timeline's).
    t.addEventListener("keydown", (ev) => {
      const k = tabs.indexOf(t);
      const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: tabs.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      ev.stopPropagation();
      selectTab(tabs[(to + tabs.length) % tabs.length].id.replace("tab-", ""), true);
    });
  }
  $("insp-send").addEventListener("click", sendRequest);
  $("scenario-apply").addEventListener("click", () => {
    let s;
    try {
      s = JSON.parse($("scenario-json").value);
    } catch {
      toast("The scenario is not valid JSON.");
      return;
    }
    app.keepUrl = false;
    loadScenario(s, 0);
  });
}

function wireScenario() {
  $("preset").addEventListener("change", () => {
    const p = app.presets.find((x) => x.name === $("preset").value);
    app.keepUrl = false;
    linkNotice("");
    if (p) loadScenario(p.scenario, 0);
  });
  $("share").addEventListener("click", async () => {
    app.keepUrl = false;
    await updateHash();
    if (app.dump) {
      copy(
        location.href,
        "Link copied. Links do not carry a broker dump (it can be large): send the dump with it, and open it with Open a broker dump.",
      );
      return;
    }
    copy(location.href, "Link copied: it reproduces this scenario at this step.");
  });
  $("copy-md").addEventListener("click", async () => {
    app.keepUrl = false;
    await updateHash();
    const f = app.tl.frame(app.idx);
    copy(
      markdownReport({
        scenario: app.scenario,
        frame: f,
        step: app.idx,
        steps: app.tl.length - 1,
        link: location.href,
        describeText: describeText(f.snap),
      }),
      "Copied as Markdown.",
    );
  });
  $("export").addEventListener("click", () => {
    if (app.dump) {
      toast("A broker dump is not a scenario: there is nothing to export (the dump file itself is the record).");
      return;
    }
    const blob = new Blob([JSON.stringify(app.scenario, null, 2)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${app.scenario.name || "scenario"}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $("dump-button").addEventListener("click", () => $("dump-file").click());
  $("dump-file").addEventListener("change", async () => {
    const file = $("dump-file").files[0];
    if (!file) return;
    $("dump-file").value = "";
    app.keepUrl = false;
    linkNotice("");
    loadDump(await file.text(), file.name);
  });
  $("dump-open").addEventListener("click", () => {
    const text = $("dump-text").value;
    if (!text.trim()) {
      toast("Paste a broker dump first: kafka-dump-log.sh --offsets-decoder output or JSON lines.");
      return;
    }
    app.keepUrl = false;
    linkNotice("");
    loadDump(text, "pasted dump");
  });
  $("import-button").addEventListener("click", () => $("import").click());
  $("import").addEventListener("change", async () => {
    const file = $("import").files[0];
    if (!file) return;
    $("import").value = "";
    if (file.size > 32 * 1024 * 1024) {
      toast(`Could not import ${file.name}: it is larger than 32 MiB.`);
      return;
    }
    let s;
    try {
      s = JSON.parse(await file.text());
    } catch {
      toast(`Could not import ${file.name}: it is not valid JSON.`);
      return;
    }
    app.keepUrl = false;
    loadScenario(s, 0);
  });
}

function wireKeys() {
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable))
      return;
    // A focused button, link, tab or summary takes Space and Enter itself (it is
    // pressed), and a tab its arrows too: only elsewhere do keys drive the timeline.
    const control = t && t.closest && t.closest("button, a[href], summary, [role=tab], [role=button], canvas");
    if (control && (ev.key === " " || ev.key === "Enter")) return;
    if (control && control.getAttribute("role") === "tab") return;
    const keys = {
      ArrowRight: () => {
        stop();
        go(app.idx + 1, true);
      },
      j: () => {
        stop();
        go(app.idx + 1, true);
      },
      ArrowLeft: () => {
        stop();
        go(app.idx - 1, true);
      },
      k: () => {
        stop();
        go(app.idx - 1, true);
      },
      " ": play,
      Home: () => {
        stop();
        go(0);
      },
      End: () => {
        stop();
        go(app.tl.length - 1);
      },
    };
    const f = keys[ev.key];
    if (f && app.tl) {
      ev.preventDefault();
      f();
    }
  });
  window.addEventListener("hashchange", () => {
    if (location.hash !== app.lastHash) fromHash();
  });
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    toast(done);
  } catch {
    window.prompt("Copy this:", text);
  }
}

let hashTimer = null;
function queueHashUpdate() {
  clearTimeout(hashTimer);
  if (app.keepUrl) return;
  hashTimer = setTimeout(updateHash, 250);
}

/**
 * Whether the page may write the address bar: only while it still shows what the page
 * last wrote or read. Otherwise a link was just followed and its hashchange is still on
 * its way; writing now would put the old step over the link, and the handler would
 * then take the page's own hash for the link and ignore it.
 */
const mayWriteHash = () => !app.keepUrl && location.hash === app.lastHash;

function writeHash(hash) {
  history.replaceState(null, "", hash);
  // As the address bar holds it (the URL parser may escape what it was given).
  app.lastHash = location.hash;
}

async function updateHash() {
  clearTimeout(hashTimer);
  if (!mayWriteHash()) return;
  if (app.dump) {
    // Dumps stay out of links: a link names the dump and the step only.
    writeHash(`#dump=${encodeURIComponent(app.dump.name)}&step=${app.idx}`);
    return;
  }
  const preset = app.presets.find((p) => p.name === app.scenario.name);
  const pristine =
    preset && JSON.stringify(app.wasm.Simulation.checkScenario(preset.scenario)) === JSON.stringify(app.scenario);
  const hash = pristine
    ? `#preset=${encodeURIComponent(preset.name)}&step=${app.idx}`
    : await encodeHash(app.scenario, app.idx);
  if (mayWriteHash()) writeHash(hash);
}

/** Loads what the address bar's hash says; a link that cannot be read says why and stays there. */
async function fromHash() {
  app.lastHash = location.hash;
  const fallback = (text) => {
    linkNotice(`${text} Showing the first preset instead; the link is kept in the address bar.`);
    app.keepUrl = true;
    loadScenario(app.presets[0].scenario, 0);
    app.keepUrl = true;
    clearTimeout(hashTimer);
  };
  const dump = /^#dump=([^&]*)(?:&step=(\d+))?$/.exec(location.hash);
  if (dump) {
    let name = dump[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      /* shown as written */
    }
    linkNotice(
      `This link was made with the broker dump ${name.slice(0, 80)} open (step ${dump[2] || 0}). Links do not carry dumps: open it again with Open a broker dump. Showing the first preset meanwhile.`,
    );
    app.keepUrl = true;
    loadScenario(app.presets[0].scenario, 0);
    app.keepUrl = true;
    clearTimeout(hashTimer);
    return false;
  }
  let shared = null;
  try {
    shared = await decodeHash(location.hash);
  } catch (e) {
    return fallback(e instanceof LinkError ? e.message : "This link is damaged: it could not be read.");
  }
  if (shared && shared.preset !== undefined) {
    const p = app.presets.find((x) => x.name === shared.preset);
    if (!p) return fallback(`This link names a preset the playground does not have: "${shared.preset.slice(0, 80)}".`);
    linkNotice("");
    return loadScenario(p.scenario, shared.step, "link");
  }
  if (shared && shared.scenario) {
    linkNotice("");
    if (loadScenario(shared.scenario, shared.step, "link")) return true;
    app.keepUrl = true;
    loadScenario(app.presets[0].scenario, 0);
    app.keepUrl = true;
    clearTimeout(hashTimer);
    return false;
  }
  return loadScenario(app.presets[0].scenario, 0);
}

/** Uses a (fresh) instance of the module from now on. */
function adopt(wasm) {
  app.wasm = wasm;
  useModule(wasm);
  app.healthRules = healthRules(wasm);
}

/**
 * The module trapped (out of memory, or a bug): every object of that instance is dead
 * (each call throws an Error of kind "trapped"). Loads a fresh instance and replays
 * the scenario to the step shown, once per trap.
 */
async function recover() {
  if (app.recovering) return;
  app.recovering = true;
  stop();
  if (app.job) app.job.cancelled = true;
  app.job = null;
  // Its objects belong to the dead instance: dropped, not freed.
  app.tl = null;
  try {
    adopt(await app.reset());
    app.recoveries = (app.recoveries || 0) + 1;
    toast(
      "The WebAssembly module stopped (it ran out of memory or hit a bug); it was reloaded and the scenario replayed.",
    );
    loadScenario(app.scenario, app.idx);
  } catch (e) {
    showLoadError(
      `The WebAssembly module stopped and could not be reloaded (${e && e.message ? e.message : e}). Reload the page.`,
    );
  } finally {
    app.recovering = false;
  }
}

/** Any error of kind "trapped", thrown in a handler or a promise, starts `recover()`. */
function wireRecovery() {
  const trapped = (e) => e && e.kind === "trapped";
  window.addEventListener("error", (ev) => {
    if (trapped(ev.error)) {
      ev.preventDefault();
      recover();
    }
  });
  window.addEventListener("unhandledrejection", (ev) => {
    if (trapped(ev.reason)) {
      ev.preventDefault();
      recover();
    }
  });
}

async function main() {
  if (typeof WebAssembly !== "object") {
    showLoadError(
      "This browser has no WebAssembly support, which the playground needs (any current Chrome, Firefox, Safari or Edge has it).",
    );
    return;
  }
  try {
    const wasm = await import("./pkg/index.js");
    await wasm.default();
    app.reset = wasm.reset;
    adopt(wasm);
    wireRecovery();
  } catch (e) {
    showLoadError(
      `The WebAssembly module failed to load (${e && e.message ? e.message : e}). Build it with \`make play\` (or scripts/build-wasm.sh), which also serves the page over http://.`,
    );
    return;
  }
  const v = app.wasm.version();
  $("version").textContent = `streams-rebalance ${v.package}, ${v.protocol}`;
  app.presets = app.wasm.Simulation.presets();
  const sel = $("preset");
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(custom scenario)";
  sel.append(custom);
  for (const p of app.presets) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.title;
    sel.append(o);
  }
  // Hover: the rule of the protocol behind each term; the term links to its section.
  for (const e of document.querySelectorAll("[data-rule]")) {
    e.title = RULES[e.dataset.rule] || "";
    const url = ruleUrl(e.dataset.rule);
    if (url && !e.querySelector("a")) {
      const a = document.createElement("a");
      a.href = url;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.className = "rule-link";
      a.append(...e.childNodes);
      e.append(a);
    }
  }
  wireControls();
  wireTimeline();
  wireScenario();
  wireKeys();
  wireOverview();
  await fromHash();
  document.body.dataset.ready = "true";
}

main();
