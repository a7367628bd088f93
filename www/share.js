// Sharing: the scenario and the step in the URL hash (deflate-raw + base64url), and
// a Markdown report for bug reports.

function toBase64Url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b + "=".repeat((4 - (b.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const s = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(s).arrayBuffer());
}

/** `s=<compressed scenario>&step=<n>` (plain `j=` JSON when CompressionStream is missing). */
export async function encodeHash(scenario, step) {
  const json = new TextEncoder().encode(JSON.stringify(scenario));
  if (typeof CompressionStream === "function") {
    const packed = await pipe(json, new CompressionStream("deflate-raw"));
    return `#s=${toBase64Url(packed)}&step=${step}`;
  }
  return `#j=${toBase64Url(json)}&step=${step}`;
}

/** `{ scenario, step }` from a hash, or null when it carries none; throws when corrupt. */
export async function decodeHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const step = Math.max(0, parseInt(params.get("step") || "0", 10) || 0);
  if (params.has("preset")) return { preset: params.get("preset"), step };
  let bytes;
  if (params.has("s")) {
    bytes = await pipe(fromBase64Url(params.get("s")), new DecompressionStream("deflate-raw"));
  } else if (params.has("j")) {
    bytes = fromBase64Url(params.get("j"));
  } else {
    return null;
  }
  return { scenario: JSON.parse(new TextDecoder().decode(bytes)), step };
}

function tasksText(list) {
  if (!list || list.length === 0) return "-";
  return list.map((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`).join(" ")).join(" ");
}

/** A Markdown report: where, what the group looks like, the last events, the scenario. */
export function markdownReport({ scenario, frame, step, steps, link, describeText }) {
  const g = frame.snap.group;
  const lines = [];
  lines.push(`### Streams rebalance playground: ${scenario.title || scenario.name || "custom scenario"}`);
  lines.push("");
  lines.push(`Step ${step} of ${steps}, t = ${(frame.snap.nowMs / 1000).toFixed(1)} s. [Open this state](${link})`);
  lines.push("");
  if (g) {
    lines.push(`Group \`${g.groupId}\`: **${g.groupState}**, group epoch ${g.groupEpoch}, assignment epoch ${g.assignmentEpoch}, topology epoch ${g.topologyEpoch}.`);
    lines.push("");
    lines.push("| member | process | epoch | state | topology epoch | active | standby | warm-up |");
    lines.push("|---|---|---|---|---|---|---|---|");
    for (const m of g.members) {
      const a = m.assignment;
      lines.push(`| ${m.memberId} | ${m.processId} | ${m.memberEpoch} | ${m.memberState} | ${m.topologyEpoch} | ${tasksText(a.activeTasks)} | ${tasksText(a.standbyTasks)} | ${tasksText(a.warmupTasks)} |`);
    }
  } else {
    lines.push("The group does not exist yet.");
  }
  lines.push("");
  if (frame.events.length) {
    lines.push("Events of this step:");
    lines.push("");
    for (const e of frame.events) lines.push(`- ${(e.atMs / 1000).toFixed(1)} s ${e.memberId || e.processId || ""} ${e.detail}`.replace(/\s+/g, " "));
    lines.push("");
  }
  if (describeText) {
    lines.push("<details><summary>describe</summary>", "", "```", describeText, "```", "", "</details>", "");
  }
  lines.push("<details><summary>scenario</summary>", "", "```json", JSON.stringify(scenario, null, 2), "```", "", "</details>");
  return lines.join("\n");
}
