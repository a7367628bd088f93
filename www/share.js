// Sharing: the scenario and the step in the URL hash (deflate-raw + base64url), and
// a Markdown report for bug reports.

function toBase64Url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Longest link read (characters after #): Chrome's own limit on a URL. */
export const MAX_LINK_CHARS = 2 * 1024 * 1024;
/** Largest scenario a link may inflate to: the module's input limit (32 MiB). */
export const MAX_SCENARIO_BYTES = 32 * 1024 * 1024;
/** Bytes of a compressed link handed to the inflater at a time (see inflateCapped). */
const INFLATE_SLICE = 1024;

/** A link that cannot be read; its message is for the person who opened it. */
export class LinkError extends Error {}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) {
    throw new LinkError(
      "This link is damaged: its scenario has characters a link never carries (was it cut or edited by hand?).",
    );
  }
  const b = text.replace(/-/g, "+").replace(/_/g, "/");
  let bin;
  try {
    bin = atob(b + "=".repeat((4 - (b.length % 4)) % 4));
  } catch {
    throw new LinkError(
      "This link is damaged: its scenario is cut short (the text ends in the middle of a character).",
    );
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const s = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(s).arrayBuffer());
}

/**
 * Inflates `bytes` as a stream and stops as soon as the output passes `limit` bytes:
 * a small link that inflates to gigabytes costs no more than reading `limit` bytes.
 */
export async function inflateCapped(bytes, limit = MAX_SCENARIO_BYTES) {
  const ds = new DecompressionStream("deflate-raw");
  const writer = ds.writable.getWriter();
  // The input goes in small slices, each only when the stream asks for more: a stream
  // given the whole input at once inflates all of it into its queue, whatever is read.
  // A slice inflates to at most about a thousand times its size (deflate's ratio).
  let stopped = false;
  (async () => {
    for (let at = 0; at < bytes.length && !stopped; at += INFLATE_SLICE) {
      await writer.ready;
      if (stopped) return;
      writer.write(bytes.subarray(at, at + INFLATE_SLICE)).catch(() => {});
    }
    if (!stopped) writer.close().catch(() => {});
  })().catch(() => {});
  const reader = ds.readable.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    let r;
    try {
      r = await reader.read();
    } catch {
      stopped = true;
      throw new LinkError("This link is damaged: its compressed scenario is corrupt or cut short.");
    }
    if (r.done) break;
    total += r.value.length;
    if (total > limit) {
      stopped = true;
      reader.cancel().catch(() => {});
      throw new LinkError(
        `This link is refused: its scenario inflates to more than ${limit / 1024 / 1024} MiB, the most the playground reads.`,
      );
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
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

/**
 * `{ scenario, step }` or `{ preset, step }` from a hash, or null when it carries
 * neither; throws a LinkError, worded for the page, when the link cannot be read.
 */
export async function decodeHash(hash) {
  if (hash.length > MAX_LINK_CHARS) {
    throw new LinkError(
      `This link is refused: it is ${(hash.length / 1024 / 1024).toFixed(1)} MB long, and the playground reads links up to ${MAX_LINK_CHARS / 1024 / 1024} MB.`,
    );
  }
  let params;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ""));
  } catch {
    throw new LinkError("This link is damaged: its part after # cannot be read.");
  }
  const stepText = params.get("step");
  let step = 0;
  if (stepText !== null) {
    if (!/^\d{1,9}$/.test(stepText))
      throw new LinkError(`This link is damaged: its step "${stepText.slice(0, 20)}" is not a whole number.`);
    step = Number(stepText);
  }
  if (params.has("preset")) return { preset: params.get("preset"), step };
  let bytes;
  if (params.has("s")) {
    if (typeof DecompressionStream !== "function")
      throw new LinkError("This browser cannot read compressed links (it has no DecompressionStream).");
    bytes = await inflateCapped(fromBase64Url(params.get("s")));
  } else if (params.has("j")) {
    bytes = fromBase64Url(params.get("j"));
    if (bytes.length > MAX_SCENARIO_BYTES)
      throw new LinkError("This link is refused: its scenario is larger than 32 MiB.");
  } else {
    return null;
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError("This link is damaged: its scenario is not text (not UTF-8).");
  }
  try {
    return { scenario: JSON.parse(text), step };
  } catch {
    throw new LinkError("This link is damaged: its scenario is not valid JSON (it may have been cut short).");
  }
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
    lines.push(
      `Group \`${g.groupId}\`: **${g.groupState}**, group epoch ${g.groupEpoch}, assignment epoch ${g.assignmentEpoch}, topology epoch ${g.topologyEpoch}.`,
    );
    lines.push("");
    lines.push("| member | process | epoch | state | topology epoch | active | standby | warm-up |");
    lines.push("|---|---|---|---|---|---|---|---|");
    for (const m of g.members) {
      const a = m.assignment;
      lines.push(
        `| ${m.memberId} | ${m.processId} | ${m.memberEpoch} | ${m.memberState} | ${m.topologyEpoch} | ${tasksText(a.activeTasks)} | ${tasksText(a.standbyTasks)} | ${tasksText(a.warmupTasks)} |`,
      );
    }
  } else {
    lines.push("The group does not exist yet.");
  }
  lines.push("");
  if (frame.events.length) {
    lines.push("Events of this step:");
    lines.push("");
    for (const e of frame.events)
      lines.push(
        `- ${(e.atMs / 1000).toFixed(1)} s ${e.memberId || e.processId || ""} ${e.detail}`.replace(/\s+/g, " "),
      );
    lines.push("");
  }
  if (describeText) {
    lines.push("<details><summary>describe</summary>", "", "```", describeText, "```", "", "</details>", "");
  }
  lines.push(
    "<details><summary>scenario</summary>",
    "",
    "```json",
    JSON.stringify(scenario, null, 2),
    "```",
    "",
    "</details>",
  );
  return lines.join("\n");
}
