// The overview of a big group: one canvas, a row of cells per member, members grouped
// by rack and process, one cell per task the member runs (or is about to run). The
// role is a colour and a shape (active: full square, standby: lower half, warm-up:
// triangle), tasks that changed owner or role in this step are ringed, and a click (or
// the arrow keys and Enter) picks a member, whose process the lane view then shows.

const ROLES = [
  ["active", "activeTasks"],
  ["standby", "standbyTasks"],
  ["warmup", "warmupTasks"],
];
const DEAD = ["Left", "Crashed", "Failed"];

/** Cell sizes tried, largest first: the largest that fits the height wins. */
const SIZES = [12, 10, 8, 7, 6, 5, 4, 3, 2];
const RACK_HEAD = 15;
const LABEL_MIN_SIZE = 8;
const LABEL_W = 70;

/**
 * Tasks as numbers (a subtopology's index times 2^20 plus the partition) and a role as
 * 0, 1, 2 above them: a 1 000-member group has 20 000 of them per step, and strings
 * and their sets cost several times more.
 */
const subIndex = new Map();
function taskNums(list, out, role) {
  for (const t of list || []) {
    let s = subIndex.get(t.subtopologyId);
    if (s === undefined) {
      s = subIndex.size;
      subIndex.set(t.subtopologyId, s);
    }
    const base = (role * 4096 + s) * 1048576;
    for (const p of t.partitions) out.push(base + p);
  }
  return out;
}
const TASK = 4096 * 1048576;
const taskOf = (k) => k % TASK;

/** Per member id, the (role, task) numbers it owns (or, dead, still holds); plus every task. */
const ownedKeys = new WeakMap();

function owned(snap) {
  if (!ownedKeys.has(snap)) overviewModel(snap, null);
  return ownedKeys.get(snap);
}

/**
 * The group as rows: racks -> processes -> members -> cells. A cell is
 * { role, state } with state running | revoking | incoming | orphan, and moved
 * when its task changed owner or role since `prev`.
 */
export function overviewModel(snap, prev) {
  const gm = new Map((snap.group ? snap.group.members : []).map((m) => [m.memberId, m]));
  const before = prev ? owned(prev) : null;
  const now = new Map();
  const nowTasks = new Set();
  const racks = new Map();
  let maxCells = 1;
  let moved = 0;
  let members = 0;
  let tasks = 0;
  for (const p of snap.processes) {
    const rack = p.rackId || "";
    if (!racks.has(rack)) racks.set(rack, []);
    const proc = { processId: p.processId, state: p.state, members: [] };
    for (const m of p.members) {
      const g = gm.get(m.memberId);
      const dead = DEAD.includes(m.state);
      const stale = !dead && (m.statuses || []).some((s) => s.statusCode === 0);
      const cells = [];
      const row = {
        memberId: m.memberId,
        processId: p.processId,
        rack,
        dead,
        stale,
        cells,
        moved: 0,
        counts: { active: 0, standby: 0, warmup: 0 },
      };
      const mine = new Set();
      const had = before ? before.get(m.memberId) : null;
      const lists = dead ? (g ? g.assignment : null) : m;
      ROLES.forEach(([name, key], role) => {
        const revoking = !dead && m.revoking ? new Set(taskNums(m.revoking[key], [], role)) : null;
        for (const k of taskNums(lists ? lists[key] : [], [], role)) {
          mine.add(k);
          nowTasks.add(taskOf(k));
          const isMoved = before !== null && !(had && had.has(k)) && before.tasks.has(taskOf(k));
          if (isMoved) row.moved++;
          row.counts[name]++;
          cells.push({
            role: name,
            state: dead ? "orphan" : revoking && revoking.has(k) ? "revoking" : "running",
            moved: isMoved,
          });
        }
      });
      if (!dead && g) {
        ROLES.forEach(([name, key], role) => {
          const want = new Set(taskNums(g.targetAssignment[key], [], role));
          if (m.reconcilingTo) for (const k of taskNums(m.reconcilingTo[key], [], role)) want.add(k);
          for (const k of want) if (!mine.has(k)) cells.push({ role: name, state: "incoming", moved: false });
        });
      }
      now.set(m.memberId, mine);
      moved += row.moved;
      tasks += row.counts.active;
      members++;
      maxCells = Math.max(maxCells, cells.length);
      proc.members.push(row);
    }
    racks.get(rack).push(proc);
  }
  // Members the coordinator still has that no simulated thread runs (a static member
  // that left with -2, hand-made heartbeats): rows of their own, holding what they hold.
  const shown = new Set(now.keys());
  const procs = new Map([...racks.values()].flat().map((p) => [p.processId, p]));
  for (const g of snap.group ? snap.group.members : []) {
    if (shown.has(g.memberId)) continue;
    let proc = procs.get(g.processId);
    if (!proc) {
      proc = { processId: g.processId, state: "gone", members: [] };
      procs.set(g.processId, proc);
      if (!racks.has("")) racks.set("", []);
      racks.get("").push(proc);
    }
    const row = {
      memberId: g.memberId,
      processId: g.processId,
      rack: "",
      dead: true,
      stale: false,
      cells: [],
      moved: 0,
      counts: { active: 0, standby: 0, warmup: 0 },
    };
    const mine = new Set();
    ROLES.forEach(([name, key], role) => {
      for (const k of taskNums(g.assignment[key], [], role)) {
        mine.add(k);
        nowTasks.add(taskOf(k));
        row.counts[name]++;
        row.cells.push({ role: name, state: "orphan", moved: false });
      }
    });
    now.set(g.memberId, mine);
    members++;
    maxCells = Math.max(maxCells, row.cells.length);
    proc.members.push(row);
  }
  // What this snapshot owns is what the next step compares with.
  now.tasks = nowTasks;
  ownedKeys.set(snap, now);
  return { racks, maxCells, moved, members, tasks };
}

/** Places the rows in columns, with the largest cell size that fits `maxHeight`. */
export function layout(model, width, maxHeight) {
  const showRacks = model.racks.size > 1 || !model.racks.has("");
  // Cells per line: what nearly every member needs; the few with more (a member alone
  // with every task while the others join) wrap onto more lines.
  const counts = [];
  for (const procs of model.racks.values())
    for (const proc of procs) for (const r of proc.members) counts.push(r.cells.length);
  counts.sort((a, b) => a - b);
  const usual = Math.max(4, counts.length ? counts[Math.floor(0.95 * (counts.length - 1))] : 4);
  let best = null;
  for (const s of SIZES) {
    const pitch = s >= 4 ? s + 1 : s + 0.5;
    const rowH = s + 1;
    const label = s >= LABEL_MIN_SIZE ? LABEL_W : 0;
    const cap = Math.max(1, Math.min(usual, Math.floor((width - 16 - label) / pitch)));
    const colW = 6 + label + cap * pitch + 10;
    const cols = Math.max(1, Math.floor(width / colW));
    const gap = Math.max(2, Math.round(s / 2));
    const lines = (r) => Math.max(1, Math.ceil(r.cells.length / cap));
    // Blocks: a process (with its rack's head when it is the rack's first).
    const blocks = [];
    for (const [rack, procs] of model.racks) {
      procs.forEach((proc, k) => {
        const head = showRacks && k === 0 ? RACK_HEAD : 0;
        const rows = proc.members.reduce((n, r) => n + lines(r), 0);
        blocks.push({ rack, proc, head, h: head + rows * rowH + gap });
      });
    }
    const total = blocks.reduce((n, b) => n + b.h, 0);
    const tallest = blocks.reduce((n, b) => Math.max(n, b.h), 0);
    let colH = Math.max(tallest, Math.ceil(total / cols));
    let placed;
    for (;;) {
      placed = flow(blocks, colH, cols);
      if (placed) break;
      colH += Math.max(rowH, Math.ceil(tallest / 4));
    }
    const height = placed.height;
    best = { s, pitch, rowH, label, colW, cols, gap, cap, blocks: placed.at, height, showRacks };
    if (height <= maxHeight) break;
  }
  return best;
}

function flow(blocks, colH, cols) {
  const at = [];
  let col = 0;
  let y = 0;
  let height = 0;
  for (const b of blocks) {
    if (y > 0 && y + b.h > colH) {
      col++;
      y = 0;
      if (col >= cols) return null;
    }
    at.push({ ...b, col, y });
    y += b.h;
    height = Math.max(height, y);
  }
  return { at, height };
}

function cssColors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (name) => cs.getPropertyValue(name).trim();
  return {
    active: v("--active"),
    standby: v("--standby"),
    warmup: v("--warmup"),
    danger: v("--danger"),
    stale: v("--stale"),
    ink: v("--ink"),
    muted: v("--muted"),
    lane: v("--lane"),
    line: v("--line"),
    panel: v("--panel"),
    moved: v("--moved"),
    accent: v("--accent"),
  };
}

/**
 * Draws `model` into `canvas` (width from its parent, height from `maxHeight`).
 * Returns the hit areas: [{ x, y, w, h, row }].
 */
export function drawOverview(canvas, model, { maxHeight, selected }) {
  const width = Math.max(200, canvas.parentElement.clientWidth);
  const L = layout(model, width, maxHeight);
  const dpr = window.devicePixelRatio || 1;
  const height = Math.max(40, Math.ceil(L.height) + 2);
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const c = cssColors();
  const fill = { active: c.active, standby: c.standby, warmup: c.warmup };
  const hits = [];
  const { s, pitch, rowH, label, cap } = L;
  ctx.font = `${Math.min(11, s + 2)}px ui-monospace, Menlo, Consolas, monospace`;
  ctx.textBaseline = "middle";
  for (const b of L.blocks) {
    const x0 = b.col * L.colW;
    let y = b.y;
    if (b.head) {
      ctx.fillStyle = c.muted;
      ctx.font = "11px system-ui, sans-serif";
      ctx.fillText(b.rack ? `rack ${b.rack}` : "no rack", x0 + 2, y + RACK_HEAD / 2);
      ctx.font = `${Math.min(11, s + 2)}px ui-monospace, Menlo, Consolas, monospace`;
      y += RACK_HEAD;
    }
    const procH = b.proc.members.reduce((n, r) => n + Math.max(1, Math.ceil(r.cells.length / cap)), 0) * rowH;
    // The process: a band behind its members; the selected one outlined.
    ctx.fillStyle = c.lane;
    ctx.fillRect(x0, y, L.colW - 6, procH);
    if (b.proc.state !== "running") {
      ctx.fillStyle = c.danger;
      ctx.fillRect(x0, y, 2, procH);
    }
    if (selected && b.proc.members.some((r) => r.memberId === selected)) {
      ctx.strokeStyle = c.accent;
      ctx.lineWidth = 2;
      ctx.strokeRect(x0 + 1, y - 1, L.colW - 8, procH + 2);
    }
    for (const row of b.proc.members) {
      let x = x0 + 5;
      if (label) {
        ctx.fillStyle = row.dead ? c.danger : c.ink;
        ctx.fillText(
          row.memberId.length > 10 ? `${row.memberId.slice(0, 9)}\u2026` : row.memberId,
          x,
          y + s / 2,
          label - 4,
        );
        x += label;
      }
      const lines = Math.max(1, Math.ceil(row.cells.length / cap));
      // A mark at the row's start: stale (behind the topology epoch), or gained tasks.
      if (row.stale || row.moved) {
        ctx.fillStyle = row.moved ? c.moved : c.stale;
        ctx.fillRect(x0 + 2, y, 2, lines * rowH - 1);
      }
      row.cells.forEach((cell, k) => {
        drawCell(ctx, cell, x + (k % cap) * pitch, y + Math.floor(k / cap) * rowH, s, fill, c);
      });
      hits.push({ x: x0, y, w: L.colW - 6, h: lines * rowH, row });
      y += lines * rowH;
    }
  }
  return { hits, layout: L, width, height };
}

function drawCell(ctx, cell, x, y, s, fill, c) {
  if (cell.moved) {
    ctx.fillStyle = c.moved;
    ctx.fillRect(x - 1, y - 1, s + 2, s + 2);
  }
  const color = cell.state === "orphan" ? c.muted : fill[cell.role];
  if (cell.state === "incoming") {
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1);
    return;
  }
  ctx.fillStyle = color;
  if (cell.role === "active" || s < 4) {
    ctx.fillRect(x, y, s, s);
  } else if (cell.role === "standby") {
    ctx.fillRect(x, y + Math.floor(s / 2), s, Math.ceil(s / 2));
    ctx.fillRect(x, y, 1, s);
  } else {
    ctx.beginPath();
    ctx.moveTo(x, y + s);
    ctx.lineTo(x + s / 2, y);
    ctx.lineTo(x + s, y + s);
    ctx.closePath();
    ctx.fill();
  }
  if (cell.state === "revoking") {
    ctx.fillStyle = c.danger;
    ctx.fillRect(x + s / 2 - 1, y + s / 2 - 1, 2, 2);
  }
}

/** The hit area under a point (CSS px relative to the canvas). */
export function hitAt(hits, x, y) {
  for (const h of hits) if (x >= h.x && x < h.x + h.w && y >= h.y && y < h.y + h.h) return h;
  return null;
}

/** One line about a member row, for the info line and the tooltip. */
export function describeRow(row) {
  const parts = [`${row.counts.active} active`, `${row.counts.standby} standby`, `${row.counts.warmup} warm-up`];
  const incoming = row.cells.filter((c) => c.state === "incoming").length;
  if (incoming) parts.push(`${incoming} assigned, not yet running`);
  if (row.moved) parts.push(`${row.moved} moved here in this step`);
  const state = row.dead ? " (gone)" : row.stale ? " (STALE_TOPOLOGY)" : "";
  return `${row.memberId}${state}, process ${row.processId}${row.rack ? `, rack ${row.rack}` : ""}: ${parts.join(", ")}`;
}
