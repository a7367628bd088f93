// A broker dump as the playground's timeline (issue 15 item 3): the same interface as
// Timeline (frames.js), its frames the steps of a History (one per written batch, or
// per record). A frame's snapshot is the group drawn as simulated clients would hold
// it; its events are the step's records, which the inspector shows.

/** Record type numbers and their schema names (PROTOCOL.md §8.5). */
const RECORD_NAMES = {
  1: "OffsetCommit",
  17: "StreamsGroupMetadata",
  19: "StreamsGroupMemberMetadata",
  20: "StreamsGroupTargetAssignmentMetadata",
  21: "StreamsGroupTargetAssignmentMember",
  22: "StreamsGroupCurrentMemberAssignment",
  23: "StreamsGroupTopology",
};

/** A record in words, for the event list. */
export function recordText(r) {
  const name = RECORD_NAMES[r.recordType] || `type ${r.recordType}`;
  if (r.value === null) return `${name} tombstone`;
  const d = r.value.data;
  switch (r.recordType) {
    case 17:
      return `${name}: group epoch ${d.epoch}`;
    case 20:
      return `${name}: assignment epoch ${d.assignmentEpoch}`;
    case 22:
      return `${name}: epoch ${d.memberEpoch} (was ${d.previousMemberEpoch}), state ${d.state}`;
    case 23:
      return `${name}: topology epoch ${d.epoch}`;
    case 1:
      return `${name}: ${r.key.data.topic}-${r.key.data.partition} at ${d.offset}`;
    default:
      return name;
  }
}

export class DumpTimeline {
  /** `history`: a History; `groupId`: the group drawn. */
  constructor(wasm, history, groupId) {
    this.wasm = wasm;
    this.history = history;
    this.groupId = groupId;
    this.steps = history.steps();
    const first = this.steps.find((s) => s.timestampMs !== null);
    this.origin = first ? first.timestampMs : 0;
    // Frame 0 is before the first step; frame i + 1 is after step i.
    this.meta = [{ t: 0, marks: new Set(), ge: -1, te: -1 }];
    let prev = this.meta[0];
    for (const s of this.steps) {
      const g = s.groups.find((x) => x.groupId === groupId);
      const t = s.timestampMs === null ? this.meta.length * 1000 : s.timestampMs - this.origin;
      const marks = new Set();
      const ge = g ? g.groupEpoch : prev.ge;
      const te = g ? g.topologyEpoch : prev.te;
      if (g) {
        if (g.epochBump) marks.add("epoch");
        if (g.joined.length > 0) marks.add("join");
        if (g.left.length > 0) marks.add("leave");
        if (te >= 0 && te !== prev.te) marks.add("topology");
      }
      prev = { t, marks, ge, te };
      this.meta.push(prev);
    }
    this.cache = new Map();
    this.planned = { members: 0, tasks: 0 };
    this.light = false;
    this.complete = true;
  }

  get length() {
    return this.meta.length;
  }

  extend() {
    return false;
  }

  snapAt(i) {
    return this.history.boardSnapshot(i - 1, this.groupId);
  }

  frame(i) {
    let data = this.cache.get(i);
    if (!data) {
      const step = i > 0 ? this.steps[i - 1] : null;
      const t = this.meta[i].t;
      const events = step
        ? step.records.map((r, k) => ({
            seq: i * 100000 + k,
            atMs: t,
            kind: "record",
            memberId: r.key.data.memberId || "",
            detail: recordText(r),
            record: r,
          }))
        : [];
      data = { events, snap: this.snapAt(i) };
      this.cache.set(i, data);
      if (this.cache.size > 64) this.cache.delete(this.cache.keys().next().value);
    }
    const m = this.meta[i];
    return { i, t: m.t, marks: m.marks, events: data.events, snap: data.snap };
  }

  cachedSnap(i) {
    const d = this.cache.get(i);
    return d ? d.snap : null;
  }

  coordinatorSnaps(i) {
    return [i > 0 ? this.frame(i - 1).snap.coordinator : null, this.frame(i).snap.coordinator];
  }

  free() {
    this.history.free();
    this.cache.clear();
  }
}
