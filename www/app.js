// The playground: holds the scenario and the frames computed from it. A frame is one
// moment of simulated time (its events and the snapshot after them). Back, forward
// and scrubbing only pick another frame; every change to the scenario replays it from
// the start (the simulation is deterministic), so the past is never edited in place.

import { renderBoard, renderEpochs, renderEvents, renderMarkers, markersOf, describeText } from "./view.js";
import { encodeHash, decodeHash, markdownReport } from "./share.js";
import { RULES } from "./rules.js";
import { renderHealth } from "./health.js";
import { renderQuality } from "./quality.js";

const $ = (id) => document.getElementById(id);

/** Longest a single step may jump when nothing is due (ms). */
const IDLE_STEP_MS = 5000;
/** Frames computed at most for one scenario (a guard against a runaway scenario). */
const MAX_FRAMES = 5000;

const app = {
  wasm: null,
  presets: [],
  scenario: null,
  sim: null,
  frames: [],
  idx: 0,
  playing: null,
  selected: null,
};

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 2200);
}

function showLoadError(message) {
  const box = $("load-error");
  box.hidden = false;
  box.textContent = message;
  $("story-title").textContent = "The playground could not start";
}

// ---------------------------------------------------------------------------
// Frames

function frameOf(events) {
  return { t: app.sim.now(), events, snap: app.sim.snapshot() };
}

/** Computes one more frame; false when the scenario is over and nothing is due. */
function extend() {
  if (app.frames.length >= MAX_FRAMES) return false;
  const sim = app.sim;
  const end = app.scenario.endMs || 0;
  let events = [];
  // Skip quiet stretches (e.g. waiting for a session timeout), 5 s at a time.
  for (let i = 0; i < 1000 && events.length === 0; i++) {
    const due = sim.nextDue();
    if (due === null || due === undefined) {
      if (sim.now() >= end) return false;
      events = sim.stepNext(Math.min(IDLE_STEP_MS, end - sim.now()));
    } else {
      events = sim.stepNext(IDLE_STEP_MS);
    }
  }
  const f = frameOf(events);
  const prev = app.frames[app.frames.length - 1];
  f.marks = markersOf(f, prev);
  app.frames.push(f);
  return true;
}

/** Replays the scenario from the start, computing frames up to its end (and `atLeast`). */
function rebuild(atLeast = 0) {
  if (app.sim) app.sim.free();
  app.sim = app.wasm.Simulation.fromScenario(app.scenario);
  app.frames = [];
  const f = frameOf([]);
  f.marks = new Set();
  app.frames.push(f);
  const end = app.scenario.endMs || 0;
  while ((app.sim.now() < end || app.frames.length <= atLeast) && extend()) { /* compute */ }
}

function ensureFrame(i) {
  while (app.frames.length <= i && extend()) { /* compute */ }
  return Math.min(i, app.frames.length - 1);
}

// ---------------------------------------------------------------------------
// Drawing

function narrationAt(t) {
  let text = "";
  for (const n of app.scenario.narration || []) if (n.atMs <= t) text = n.text;
  return text;
}

function render(animate) {
  const f = app.frames[app.idx];
  renderBoard($("lanes"), f.snap, animate);
  renderEpochs(f.snap);
  const before = app.frames[app.idx - 1];
  renderHealth($("health"), app.wasm.checkInvariants, f.snap, before && before.snap);
  renderQuality($("quality"), app.wasm.assignmentQuality, f.snap, before && before.snap);
  $("clock").textContent = `t = ${(f.t / 1000).toFixed(1)} s`;
  $("step-label").textContent = `step ${app.idx} / ${app.frames.length - 1}`;
  const scrub = $("scrub");
  scrub.max = String(app.frames.length - 1);
  scrub.value = String(app.idx);
  $("narration").textContent = narrationAt(f.t);
  renderEvents($("events"), f, app.selected && app.selected.seq, selectEvent);
  $("describe").textContent = describeText(f.snap);
  const procs = f.snap.processes.map((p) => p.processId);
  const sel = $("proc-select");
  const keep = sel.value;
  sel.replaceChildren(...procs.map((id) => {
    const o = document.createElement("option");
    o.value = id;
    o.textContent = id;
    return o;
  }));
  if (procs.includes(keep)) sel.value = keep;
  $("assignor-select").value = f.snap.assignor;
  $("standby-count").value = String(f.snap.numStandbyReplicas);
  document.body.dataset.step = String(app.idx);
  document.body.dataset.steps = String(app.frames.length - 1);
}

function renderTimeline() {
  renderMarkers($("markers"), app.frames);
}

function go(i, animate = false) {
  const target = ensureFrame(Math.max(0, i));
  const changed = target !== app.idx;
  app.idx = target;
  if (changed || !animate) render(animate && changed);
  if (app.frames.length - 1 !== Number($("scrub").max) || changed) renderTimeline();
  queueHashUpdate();
}

// ---------------------------------------------------------------------------
// Scenario changes: record an action at the current step's time and replay.

function record(action) {
  const t = app.frames[app.idx].t;
  const s = structuredClone(app.scenario);
  s.actions = [...(s.actions || []), { atMs: t, ...action }];
  // Validate first: a bad action is an error on the page, the scenario stays as it was.
  try {
    app.wasm.Simulation.checkScenario(s);
  } catch (e) {
    controlError(e.message);
    return false;
  }
  const keepIdx = app.idx;
  app.scenario = s;
  s.endMs = Math.max(s.endMs || 0, t);
  rebuild(keepIdx);
  // The frame at time t now includes the action: show it.
  let i = app.frames.findIndex((f) => f.t >= t);
  if (i < 0) i = app.frames.length - 1;
  app.idx = Math.max(i, 0);
  const failed = app.frames[app.idx].events.find((e) => e.kind === "actionFailed" && e.atMs === t);
  controlError(failed ? failed.detail : "");
  render(true);
  renderTimeline();
  queueHashUpdate();
  $("scenario-json").value = JSON.stringify(app.scenario, null, 2);
  return true;
}

function controlError(text) {
  $("control-error").textContent = text;
}

function loadScenario(s, step = 0) {
  stop();
  try {
    app.scenario = app.wasm.Simulation.checkScenario(s);
  } catch (e) {
    toast(`Not a valid scenario: ${e.message}`);
    return false;
  }
  app.selected = null;
  $("story-title").textContent = app.scenario.title || "Custom scenario";
  $("story-description").textContent = app.scenario.description || "";
  $("scenario-json").value = JSON.stringify(app.scenario, null, 2);
  $("redeploy-topology").value = JSON.stringify(app.scenario.topology, null, 2);
  const preset = app.presets.find((p) => p.name === app.scenario.name);
  $("preset").value = preset ? preset.name : "";
  rebuild(step);
  app.idx = ensureFrame(step);
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
  const speed = Number($("speed").value) || 2;
  $("play").textContent = "\u23F8 Pause";
  $("play").setAttribute("aria-label", "Pause");
  app.playing = setInterval(() => {
    const before = app.idx;
    go(app.idx + 1, true);
    if (app.idx === before) stop();
  }, 1000 / speed);
}

// ---------------------------------------------------------------------------
// Inspector

function selectEvent(e) {
  app.selected = e;
  $("insp-title").textContent = `${e.memberId || e.processId || ""} at ${(e.atMs / 1000).toFixed(1)} s`;
  $("insp-request").value = e.request ? JSON.stringify(e.request, null, 2) : "";
  $("insp-response").textContent = e.response ? JSON.stringify(e.response, null, 2) : JSON.stringify(e.coordinator || e.action || { detail: e.detail }, null, 2);
  selectTab("inspector");
  render(false);
}

function sendRequest() {
  let request;
  try {
    request = JSON.parse($("insp-request").value);
  } catch (e) {
    $("insp-response").textContent = `Not JSON: ${e.message}`;
    return;
  }
  // record() decodes it first: a malformed request is an error here and changes nothing.
  if (!record({ type: "heartbeat", request })) {
    $("insp-response").textContent = $("control-error").textContent;
    return;
  }
  const f = app.frames[app.idx];
  const mine = [...f.events].reverse().find((e) => e.kind === "heartbeat" && e.request && !e.thread);
  if (mine) {
    app.selected = mine;
    $("insp-response").textContent = JSON.stringify(mine.response, null, 2);
  }
}

// ---------------------------------------------------------------------------
// Tabs, controls, keys

function selectTab(name) {
  for (const t of document.querySelectorAll("[role=tab]")) {
    const on = t.id === `tab-${name}`;
    t.setAttribute("aria-selected", String(on));
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
}

function parseTags(text) {
  const tags = {};
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const i = part.indexOf("=");
    if (i <= 0) throw new Error(`client tags: "${part}" is not key=value`);
    tags[part.slice(0, i)] = part.slice(i + 1);
  }
  return tags;
}

function nextProcessId() {
  const taken = new Set(app.frames[app.idx].snap.processes.map((p) => p.processId));
  for (const a of app.scenario.actions || []) if (a.type === "addProcess" && a.processId) taken.add(a.processId);
  for (let n = 0; ; n++) {
    const id = n < 26 ? String.fromCharCode(65 + n) : `P${n + 1}`;
    if (!taken.has(id)) return id;
  }
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
    if (Object.keys(tags).length) a.clientTags = tags;
    if ($("add-instance").value) a.instanceId = $("add-instance").value;
    if (record(a)) $("add-id").value = "";
  });
  const proc = () => $("proc-select").value;
  $("stop-process").addEventListener("click", () => proc() && record({ type: "stopProcess", processId: proc() }));
  $("crash-process").addEventListener("click", () => proc() && record({ type: "crashProcess", processId: proc() }));
  $("restart-process").addEventListener("click", () => proc() && record({ type: "restartProcess", processId: proc() }));
  $("redeploy-process").addEventListener("click", () => {
    const id = proc();
    if (!id) return;
    const p = app.frames[app.idx].snap.processes.find((x) => x.processId === id);
    let topology;
    try {
      topology = JSON.parse($("redeploy-topology").value || "null");
    } catch (e) {
      return controlError(`topology: not JSON: ${e.message}`);
    }
    const epoch = (p ? p.topologyEpoch : 0) + 1;
    const changes = { topologyEpoch: epoch };
    if (topology && JSON.stringify({ ...topology, epoch: 0 }) !== JSON.stringify({ ...app.scenario.topology, epoch: 0 })) {
      changes.topology = { ...topology, epoch };
    }
    record({ type: "restartProcess", processId: id, changes });
  });
  $("topic-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    record({ type: "createTopics", topics: [{ name: $("topic-name").value, numPartitions: Number($("topic-partitions").value) }] });
  });
  $("delete-topic").addEventListener("click", () => $("topic-name").value && record({ type: "deleteTopics", names: [$("topic-name").value] }));
  $("set-assignor").addEventListener("click", () => record({ type: "setAssignor", assignor: $("assignor-select").value }));
  $("set-standbys").addEventListener("click", () => record({ type: "setStandbyReplicas", numStandbyReplicas: Number($("standby-count").value) }));

  $("step-fwd").addEventListener("click", () => { stop(); go(app.idx + 1, true); });
  $("step-back").addEventListener("click", () => { stop(); go(app.idx - 1, true); });
  $("step-first").addEventListener("click", () => { stop(); go(0); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => { if (app.playing) { stop(); play(); } });
  $("scrub").addEventListener("input", () => { stop(); go(Number($("scrub").value)); });

  for (const t of document.querySelectorAll("[role=tab]")) t.addEventListener("click", () => selectTab(t.id.replace("tab-", "")));
  $("insp-send").addEventListener("click", sendRequest);
  $("scenario-apply").addEventListener("click", () => {
    try {
      loadScenario(JSON.parse($("scenario-json").value), 0);
    } catch (e) {
      toast(`Not JSON: ${e.message}`);
    }
  });

  $("preset").addEventListener("change", () => {
    const p = app.presets.find((x) => x.name === $("preset").value);
    if (p) loadScenario(p.scenario, 0);
  });
  $("share").addEventListener("click", async () => {
    await updateHash();
    copy(location.href, "Link copied: it reproduces this scenario at this step.");
  });
  $("copy-md").addEventListener("click", async () => {
    await updateHash();
    copy(markdownReport({ scenario: app.scenario, frame: app.frames[app.idx], step: app.idx, steps: app.frames.length - 1, link: location.href, describeText: describeText(app.frames[app.idx].snap) }), "Copied as Markdown.");
  });
  $("export").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(app.scenario, null, 2)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${app.scenario.name || "scenario"}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $("import").addEventListener("change", async () => {
    const file = $("import").files[0];
    if (!file) return;
    try {
      loadScenario(JSON.parse(await file.text()), 0);
    } catch (e) {
      toast(`Could not import: ${e.message}`);
    }
    $("import").value = "";
  });

  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const keys = {
      ArrowRight: () => { stop(); go(app.idx + 1, true); },
      j: () => { stop(); go(app.idx + 1, true); },
      ArrowLeft: () => { stop(); go(app.idx - 1, true); },
      k: () => { stop(); go(app.idx - 1, true); },
      " ": play,
      Home: () => { stop(); go(0); },
      End: () => { stop(); go(app.frames.length - 1); },
    };
    const f = keys[ev.key];
    if (f) {
      ev.preventDefault();
      f();
    }
  });
  window.addEventListener("hashchange", () => { if (location.hash !== app.lastHash) fromHash(); });
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
  hashTimer = setTimeout(updateHash, 250);
}

async function updateHash() {
  clearTimeout(hashTimer);
  const preset = app.presets.find((p) => p.name === app.scenario.name);
  const pristine = preset && JSON.stringify(app.wasm.Simulation.checkScenario(preset.scenario)) === JSON.stringify(app.scenario);
  const hash = pristine ? `#preset=${encodeURIComponent(preset.name)}&step=${app.idx}` : await encodeHash(app.scenario, app.idx);
  app.lastHash = hash;
  history.replaceState(null, "", hash);
}

async function fromHash() {
  let shared = null;
  try {
    shared = await decodeHash(location.hash);
  } catch (e) {
    toast(`The link's scenario could not be read: ${e.message}`);
  }
  if (shared && shared.preset) {
    const p = app.presets.find((x) => x.name === shared.preset);
    if (p) return loadScenario(p.scenario, shared.step);
  }
  if (shared && shared.scenario) {
    if (loadScenario(shared.scenario, shared.step)) return true;
  }
  return loadScenario(app.presets[0].scenario, 0);
}

async function main() {
  if (typeof WebAssembly !== "object") {
    showLoadError("This browser has no WebAssembly support, which the playground needs (any current Chrome, Firefox, Safari or Edge has it).");
    return;
  }
  try {
    const wasm = await import("./pkg/streams_rebalance.js");
    await wasm.default();
    app.wasm = wasm;
  } catch (e) {
    showLoadError(`The WebAssembly module failed to load (${e && e.message ? e.message : e}). Build it with \`make play\` (or scripts/build-wasm.sh) and open the page over http://, not from a file.`);
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
  // Hover: the rule of the protocol behind each term.
  for (const e of document.querySelectorAll("[data-rule]")) e.title = RULES[e.dataset.rule] || "";
  wireControls();
  await fromHash();
  document.body.dataset.ready = "true";
}

main();
