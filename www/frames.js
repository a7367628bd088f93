// The frames of a scenario, computed lazily and held in bounded memory. A frame is one
// moment of simulated time: its events and the snapshot after them. Every frame keeps
// only its time and its timeline markers; events and snapshots are kept for a window
// of recently shown frames, and copies of the simulation itself (checkpoints) every K
// frames. Showing a frame outside the window replays from the nearest checkpoint (the
// simulation is deterministic, so a replay gives the same frame).

/** Longest a single step may jump when nothing is due (ms). */
export const IDLE_STEP_MS = 5000;
/** Frames computed at most for one scenario (a guard against a runaway scenario). */
export const MAX_FRAMES = 5000;
/** What the cache of frames (events and snapshot) may hold, in bytes of snapshot JSON. */
const CACHE_BUDGET = 24e6;
/** What the checkpoints may hold, in bytes of wasm memory. */
const CHECKPOINT_BUDGET = 64e6;
/**
 * Above this many members a frame keeps the light snapshot (__view: no coordinator
 * snapshot, no state directories; a quarter of the bytes for a 1 000-member group)
 * and the invariant checker's coordinator snapshots are replayed when asked for.
 */
const LIGHT_MEMBERS = 64;

/** Rough sizes per member and per task (measured: a 1 000 x 10 000 snapshot is 1.6 MB of JSON, a copy of its simulation 3.4 MB). */
const SNAP_BYTES = { member: 1300, task: 50 };
const FORK_BYTES = { member: 3500, task: 0 };

export class Timeline {
  /** `scenario` as checkScenario returned it. */
  constructor(wasm, scenario) {
    this.wasm = wasm;
    this.end = Number(scenario.endMs || 0);
    this.frontier = wasm.Simulation.fromScenario(scenario);
    /** Per frame: { t, marks: Set of marker kinds, ge: group epoch, te: topology epoch }. */
    this.meta = [];
    /** Frame index -> { events, snap }, oldest use first. */
    this.cache = new Map();
    this.cacheMax = 256;
    /** Frame index -> a copy of the simulation right after that frame. */
    this.checkpoints = new Map();
    this.every = 16;
    this.checkpointMax = 48;
    /** A copy positioned after frame `cursor.i`, to replay forward from. */
    this.cursor = null;
    this.planned = scenarioSize(scenario);
    this.light = false;
    const snap = this.frontier.snapshot();
    this.sizeFrom(snap);
    this.checkpoints.set(0, this.frontier.__fork());
    this.meta.push({ t: this.frontier.now(), marks: new Set(), ge: -1, te: -1 });
    this.remember(0, { events: [], snap });
    this.ended = false;
  }

  get length() {
    return this.meta.length;
  }

  /** True once the frames reach the scenario's end (more may still be computed on demand). */
  get complete() {
    return this.ended || this.frontier.now() >= this.end;
  }

  /** Sizes the cache and the checkpoints from the group's size. */
  sizeFrom(snap) {
    // What runs now, or what the scenario will start if that is more.
    const members = Math.max(
      this.planned.members,
      snap.processes.reduce((n, p) => n + Math.max(p.threads || 1, p.members.length), 0),
    );
    const tasks = Math.max(
      this.planned.tasks,
      snap.topics.reduce((n, t) => n + t.numPartitions, 0),
    );
    this.size = { members, tasks };
    this.light = members > LIGHT_MEMBERS;
    const snapBytes = SNAP_BYTES.member * members + SNAP_BYTES.task * tasks + 2000;
    this.cacheMax = Math.max(6, Math.min(256, Math.floor(CACHE_BUDGET / snapBytes)));
    const forkBytes = FORK_BYTES.member * members + 50000;
    this.checkpointMax = Math.max(8, Math.min(48, Math.floor(CHECKPOINT_BUDGET / forkBytes)));
  }

  /** Runs `sim` to its next frame; null when nothing more is due after the end. */
  advance(sim) {
    let events = [];
    // Skip quiet stretches (e.g. waiting for a session timeout), 5 s at a time.
    for (let i = 0; i < 1000 && events.length === 0; i++) {
      const due = sim.nextDue();
      if (due === null || due === undefined) {
        if (sim.now() >= this.end) return null;
        events = sim.stepNext(Math.min(IDLE_STEP_MS, this.end - sim.now()));
      } else {
        events = sim.stepNext(IDLE_STEP_MS);
      }
    }
    return events;
  }

  /** Computes one more frame at the frontier; false when there is none. */
  extend() {
    if (this.ended || this.meta.length >= MAX_FRAMES) return false;
    const events = this.advance(this.frontier);
    if (events === null) {
      this.ended = true;
      return false;
    }
    const i = this.meta.length;
    const prev = this.meta[i - 1];
    const [ge, te] = this.frontier.__epochs();
    const m = { t: this.frontier.now(), ge, te, marks: markersOf(events, ge, te, prev) };
    this.meta.push(m);
    if (i === 1 || this.size.members === 0) {
      // The group's size is known once its processes started.
      this.sizeFrom(this.frontier.__view());
      this.remember(i, { events, snap: this.snap(this.frontier) });
    } else if (this.cache.size < this.cacheMax) {
      // While the window has room, keep what the start of a load will show.
      this.remember(i, { events, snap: this.snap(this.frontier) });
    }
    if (i % this.every === 0) this.checkpoint(i);
    return true;
  }

  checkpoint(i) {
    this.checkpoints.set(i, this.frontier.__fork());
    if (this.checkpoints.size <= this.checkpointMax) return;
    // Too many: keep every other one (bounded memory, replays at most twice as long).
    this.every *= 2;
    for (const [k, sim] of this.checkpoints) {
      if (k !== 0 && k % this.every !== 0) {
        sim.free();
        this.checkpoints.delete(k);
      }
    }
  }

  remember(i, data) {
    this.cache.delete(i);
    this.cache.set(i, data);
    while (this.cache.size > this.cacheMax) this.cache.delete(this.cache.keys().next().value);
  }

  /** Frame `i` (computed already): { i, t, events, snap, marks }. */
  frame(i) {
    let data = this.cache.get(i);
    if (data) {
      this.remember(i, data);
    } else {
      data = this.replay(i);
    }
    const m = this.meta[i];
    return { i, t: m.t, marks: m.marks, events: data.events, snap: data.snap };
  }

  /** The snapshot of frame `i` if it is at hand (no replay), else null. */
  cachedSnap(i) {
    const d = this.cache.get(i);
    return d ? d.snap : null;
  }

  /** Recomputes frame `i` from the nearest checkpoint (or the replay cursor). */
  replay(i) {
    let from = 0;
    for (const k of this.checkpoints.keys()) if (k < i && k > from) from = k;
    let sim;
    let j;
    if (this.cursor && this.cursor.i < i && this.cursor.i >= from) {
      sim = this.cursor.sim;
      j = this.cursor.i;
    } else {
      if (i === 0) {
        const s = this.checkpoints.get(0).__fork();
        const data = { events: [], snap: this.snap(s) };
        s.free();
        this.remember(0, data);
        return data;
      }
      if (this.cursor) this.cursor.sim.free();
      sim = this.checkpoints.get(from).__fork();
      j = from;
    }
    this.cursor = null;
    let data = null;
    while (j < i) {
      const events = this.advance(sim) || [];
      j++;
      // The frame before is drawn too (what moved in this step): keep it as well.
      if (j >= i - 1 && !this.cache.has(j)) this.remember(j, { events, snap: this.snap(sim) });
      if (j === i) data = this.cache.get(j) || { events, snap: this.snap(sim) };
    }
    this.cursor = { i, sim };
    return data;
  }

  /** What a frame keeps of `sim`: the whole snapshot, or the light one for a big group. */
  snap(sim) {
    return this.light ? sim.__view() : sim.snapshot();
  }

  /**
   * The coordinator's snapshots after frames i - 1 and i (null before frame 0), what
   * the invariant checker compares. A light timeline keeps none: they are replayed
   * from the nearest checkpoint (the page asks once stepping pauses).
   */
  coordinatorSnaps(i) {
    if (!this.light) {
      const cur = this.frame(i).snap.coordinator;
      return [i > 0 ? this.frame(i - 1).snap.coordinator : null, cur];
    }
    let from = 0;
    for (const k of this.checkpoints.keys()) if (k <= Math.max(0, i - 1) && k > from) from = k;
    const sim = this.checkpoints.get(from).__fork();
    let prev = null;
    for (let j = from; j < i; j++) {
      if (j === i - 1) prev = sim.snapshot().coordinator;
      this.advance(sim);
    }
    const cur = sim.snapshot().coordinator;
    sim.free();
    return [prev, cur];
  }

  free() {
    this.frontier.free();
    for (const sim of this.checkpoints.values()) sim.free();
    this.checkpoints.clear();
    if (this.cursor) this.cursor.sim.free();
    this.cursor = null;
    this.cache.clear();
  }
}

/** Members and tasks a scenario starts (threads of its processes, partitions of its topics). */
export function scenarioSize(s) {
  let members = 0;
  let tasks = 0;
  for (const t of s.topics || []) tasks += Number(t.numPartitions) || 0;
  for (const a of s.actions || []) {
    if (a.type === "addProcess") members += Number(a.threads) || 1;
    if (a.type === "createTopics") for (const t of a.topics || []) tasks += Number(t.numPartitions) || 0;
  }
  return { members, tasks };
}

/** What kinds of marker a frame gets: from its events and its group's epochs against the frame before. */
export function markersOf(events, ge, te, prev) {
  const kinds = new Set();
  for (const e of events) {
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
  if (ge >= 0 && (!prev || prev.ge !== ge)) kinds.add("epoch");
  if (te >= 0 && (!prev || prev.te !== te)) kinds.add("topology");
  return kinds;
}
