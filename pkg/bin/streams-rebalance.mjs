#!/usr/bin/env node
// The command-line tool of the package: plain Node, no dependency beyond the package
// itself. Exit codes: 0 done, 1 bad input (the message names the file, line and
// field), 2 usage.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const m = require("../node.cjs");

const USAGE = {
  main: `Usage: streams-rebalance <command> [options]

Commands:
  assign <spec.json>      run an assignor on a group spec
  simulate <scenario.json>  play a scenario against the simulated coordinator
  replay <dump>           step through a broker dump of a streams group
  help <command>          the options of a command

Options: --help (every command), --version`,
  assign: `Usage: streams-rebalance assign <spec.json> [--assignor sticky|highly_available] [--config <config.json>] [--quality]

Runs an assignor on a group spec ({ subtopologies, members }, as assign() takes it)
and prints the assignment as JSON; with --quality, { assignment, quality } with the
assignment's quality figures (assignmentQuality()).`,
  simulate: `Usage: streams-rebalance simulate <scenario.json> [--until-stable] [--describe] [--events] [--json]

Plays a scenario (Simulation.fromScenario) up to its endMs and prints a summary line.
  --until-stable  run on (up to 10 simulated minutes) until every group is Stable
  --events        print every event, one JSON object per line
  --describe      print the group as kafka-streams-groups.sh --describe --members --verbose does
  --json          the describe (or summary) as JSON`,
  replay: `Usage: streams-rebalance replay <dump> [--group ID] [--at STEP] [--describe] [--json]

Reads a broker dump of __consumer_offsets records (kafka-dump-log.sh --offsets-decoder
output, or the console consumer's JSON lines) and prints one line per step (a written
batch, or a record when batches are not visible): time, group epoch, target epoch,
members, members joined (+) and left (-), active tasks moved.
  --group ID    only the steps of this group (and describe only it)
  --at STEP     describe the group after this step (default: the last)
  --describe    print the describe at --at instead of the steps
  --json        steps or describe as JSON`,
};

class Usage extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}
class BadInput extends Error {}

const FLAGS = {
  assign: { "--assignor": "value", "--config": "value", "--quality": "flag" },
  simulate: { "--until-stable": "flag", "--describe": "flag", "--events": "flag", "--json": "flag" },
  replay: { "--group": "value", "--at": "value", "--describe": "flag", "--json": "flag" },
};

function parseArgs(command, args) {
  const spec = FLAGS[command];
  const options = {};
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") {
      options.help = true;
    } else if (a.startsWith("--")) {
      const [name, inline] = a.split(/=(.*)/s, 2);
      const kind = spec[name];
      if (!kind) throw new Usage(`unknown option ${name}`, command);
      if (kind === "flag") {
        options[name.slice(2)] = true;
      } else {
        const v = inline ?? args[++i];
        if (v === undefined) throw new Usage(`${name} needs a value`, command);
        options[name.slice(2)] = v;
      }
    } else {
      positional.push(a);
    }
  }
  return { options, positional };
}

function readText(file) {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new BadInput(`${file}: cannot read (${e.code ?? e.message})`);
  }
}

/** The 1-based line of the value at `path` (`members[2].memberId`) in JSON `text`. */
function lineOf(text, path) {
  const want = path.replace(/^\$?\.?/, "");
  let i = 0;
  let line = 1;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) {
      if (text[i] === "\n") line++;
      i++;
    }
  };
  const str = () => {
    let s = "";
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") {
        s += text[i + 1];
        i += 2;
      } else {
        s += text[i++];
      }
    }
    i++;
    return s;
  };
  // Walks the value at `at`, returning the line where `want` starts, or null.
  const walk = (at) => {
    ws();
    if (at === want) return line;
    const c = text[i];
    if (c === "{" || c === "[") {
      // An object's members and an array's elements are walked alike; only a
      // member's key (before its colon) names its path differently.
      const close = c === "{" ? "}" : "]";
      i++;
      for (let n = 0; ; n++) {
        ws();
        if (text[i] === close) {
          i++;
          return null;
        }
        let child = `${at}[${n}]`;
        if (c === "{") {
          const key = str();
          ws();
          i++; // colon
          child = at === "" ? key : `${at}.${key}`;
        }
        const found = walk(child);
        if (found !== null) return found;
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === close) {
          i++;
          return null;
        } else return null;
      }
    }
    if (c === '"') {
      str();
      return null;
    }
    while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    return null;
  };
  if (want === "") return 1;
  const found = walk("");
  if (found !== null) return found;
  // A missing field: the line of its parent object.
  const parent = want.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
  return parent !== want ? lineOf(text, parent) : null;
}

function readJson(file) {
  const text = readText(file);
  try {
    return { text, value: JSON.parse(text) };
  } catch (e) {
    const at = /position (\d+)/.exec(e.message);
    const line = at ? text.slice(0, Number(at[1])).split("\n").length : null;
    throw new BadInput(`${file}${line ? `:${line}` : ""}: not valid JSON (${e.message})`);
  }
}

/** Runs a library call on a file's content; an input error names the file and line. */
function withFile(file, text, call) {
  try {
    return call();
  } catch (e) {
    if (!(e instanceof Error) || e.kind === undefined) throw e;
    let where = file;
    const lineMatch = /^line (\d+)(: )?(.*)$/.exec(e.path ?? "");
    if (lineMatch) {
      where = `${file}:${lineMatch[1]}`;
    } else if (e.path && text !== null) {
      const line = lineOf(text, e.path);
      if (line) where = `${file}:${line}`;
    }
    throw new BadInput(`${where}: ${e.message}`);
  }
}

/** A progress bar on stderr, drawn only after a second and only on a terminal. */
function progress(label) {
  const start = Date.now();
  const tty = process.stderr.isTTY;
  let drawn = false;
  return {
    update(fraction) {
      if (!tty || Date.now() - start < 1000) return;
      const width = 30;
      const full = Math.round(Math.min(1, Math.max(0, fraction)) * width);
      process.stderr.write(
        `\r${label} [${"#".repeat(full)}${" ".repeat(width - full)}] ${Math.round(fraction * 100)}%`,
      );
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write("\r\x1b[K");
    },
  };
}

function tasksText(list, kind) {
  if (!list || list.length === 0) return "";
  return `${kind}: ${list.map((t) => `${t.subtopologyId}:[${t.partitions.join(",")}]; `).join("")}`;
}

const pad = (s, n) => String(s).padEnd(n);

/** A described group as kafka-streams-groups.sh --describe --members --verbose prints it. */
function membersVerbose(g) {
  if (g.errorCode !== 0 && g.groupState === "Dead") {
    return { out: "", err: `\nError: Streams group '${g.groupId}' does not exist.\n` };
  }
  let err = "";
  if (g.groupState === "Empty") err = `\nError: Streams group '${g.groupId}' has no active members.\n`;
  if (g.members.length === 0) return { out: "", err };
  const groupLen = Math.max(15, g.groupId.length);
  const memberLen = Math.max(15, ...g.members.map((x) => x.memberId.length));
  const processLen = Math.max(15, ...g.members.map((x) => x.processId.length));
  const clientLen = Math.max(15, ...g.members.map((x) => x.clientId.length));
  const row = (c) =>
    `${pad(c[0], groupLen)} ${pad(c[1], 25)} ${pad(c[2], 15)}${pad(c[3], memberLen)} ${pad(c[4], 15)} ${pad(c[5], 15)} ${pad(c[6], processLen)} ${pad(c[7], clientLen)} ${c[8]}\n`;
  let out = row([
    "GROUP",
    "TARGET-ASSIGNMENT-EPOCH",
    "TOPOLOGY-EPOCH",
    "MEMBER",
    "MEMBER-PROTOCOL",
    "MEMBER-EPOCH",
    "PROCESS",
    "CLIENT-ID",
    "ASSIGNMENTS",
  ]);
  for (const x of g.members) {
    const a = x.assignment;
    const t = x.targetAssignment;
    const tasks =
      tasksText(a.activeTasks, "ACTIVE") +
      tasksText(a.standbyTasks, "STANDBY") +
      tasksText(a.warmupTasks, "WARMUP") +
      tasksText(t.activeTasks, "TARGET-ACTIVE") +
      tasksText(t.standbyTasks, "TARGET-STANDBY") +
      tasksText(t.warmupTasks, "TARGET-WARMUP");
    out += row([
      g.groupId,
      g.assignmentEpoch,
      g.topologyEpoch,
      x.memberId,
      x.isClassic ? "classic" : "streams",
      x.memberEpoch,
      x.processId,
      x.clientId,
      tasks,
    ]);
  }
  return { out, err };
}

function printDescribe(described, json) {
  if (json) {
    process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
    return;
  }
  for (const g of described.groups) {
    const { out, err } = membersVerbose(g);
    process.stdout.write(out);
    if (err) process.stderr.write(err);
  }
}

function one(positional, command) {
  if (positional.length !== 1) throw new Usage(`${command} takes one file, found ${positional.length}`, command);
  return positional[0];
}

function assign({ options, positional }) {
  const file = one(positional, "assign");
  const { text, value } = readJson(file);
  const assignor = options.assignor ?? "sticky";
  if (!["sticky", "highly_available"].includes(assignor)) {
    throw new Usage(`--assignor: expected sticky or highly_available, found ${assignor}`, "assign");
  }
  let config;
  let configText = null;
  if (options.config) ({ text: configText, value: config } = readJson(options.config));
  let result;
  try {
    result = m.assign(assignor, text, configText ?? undefined);
  } catch (e) {
    // The error names its input: the config's errors start "invalid config".
    const [f, t] = /^invalid config/.test(e?.message) ? [options.config, configText] : [file, text];
    withFile(f, t, () => {
      throw e;
    });
  }
  const out = options.quality ? { assignment: result, quality: m.assignmentQuality(value, result, config) } : result;
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

function simulate({ options, positional }) {
  const file = one(positional, "simulate");
  const { text, value } = readJson(file);
  const sim = withFile(file, text, () => m.Simulation.fromScenario(text));
  const end = Number(value.endMs ?? 0);
  const bar = progress("simulating");
  const events = [];
  const slice = Math.max(1000, Math.ceil(end / 100));
  while (sim.now() < end) {
    events.push(...sim.step(Math.min(slice, end - sim.now())));
    bar.update(sim.now() / end);
  }
  if (options["until-stable"]) events.push(...sim.runUntilStable(600000));
  bar.done();
  if (options.events) {
    for (const e of events) process.stdout.write(`${JSON.stringify(e)}\n`);
  }
  const group = value.groupId ?? "app";
  const described = sim.coordinator.describe([group]);
  if (options.describe) {
    printDescribe(described, options.json);
  } else if (!options.events) {
    const g = described.groups[0];
    const summary = {
      now: sim.now(),
      stable: sim.isStable(),
      events: events.length,
      group,
      groupState: g.groupState,
      groupEpoch: g.groupEpoch,
      members: g.members.length,
    };
    process.stdout.write(
      options.json
        ? `${JSON.stringify(summary)}\n`
        : `${summary.now} ms: group ${group} ${g.groupState} at epoch ${g.groupEpoch}, ${g.members.length} members, ${events.length} events${summary.stable ? "" : " (not stable)"}\n`,
    );
  }
}

function stepLine(s, g) {
  const time = s.timestampMs === null ? "-" : new Date(s.timestampMs).toISOString();
  const marks = [...g.joined.map((id) => `+${id}`), ...g.left.map((id) => `-${id}`)];
  if (g.epochBump) marks.unshift("epoch bump");
  return `#${s.index} ${time} ${g.groupId} ${g.groupState} epoch ${g.groupEpoch} target ${g.assignmentEpoch} members ${g.members} moved ${g.tasksMoved}${marks.length ? ` [${marks.join(" ")}]` : ""}\n`;
}

function replay({ options, positional }) {
  const file = one(positional, "replay");
  const text = readText(file);
  const bar = progress("reading");
  bar.update(0);
  const history = withFile(file, null, () => m.History.fromKafkaRecords(text));
  bar.done();
  const steps = history.steps();
  const group = options.group;
  const groups = group ? [group] : history.report().groups;
  if (group && !history.report().groups.includes(group)) {
    throw new BadInput(
      `${file}: no streams group ${group} in the dump (found: ${history.report().groups.join(", ") || "none"})`,
    );
  }
  if (options.describe || options.at !== undefined) {
    let at = steps.length - 1;
    if (options.at !== undefined) {
      at = Number(options.at);
      if (!Number.isInteger(at) || at < -1 || at >= steps.length) {
        throw new Usage(`--at: expected a step from -1 to ${steps.length - 1}, found ${options.at}`, "replay");
      }
    }
    printDescribe(history.describe(at, groups), options.json);
    return;
  }
  const mine = steps.filter((s) => s.groups.some((g) => groups.includes(g.groupId)));
  if (options.json) {
    for (const s of mine) process.stdout.write(`${JSON.stringify(s)}\n`);
    return;
  }
  for (const s of mine) {
    for (const g of s.groups.filter((g) => groups.includes(g.groupId))) process.stdout.write(stepLine(s, g));
  }
}

const COMMANDS = { assign, simulate, replay };

function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE.main}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version") {
    process.stdout.write(`${m.version().package}\n`);
    return 0;
  }
  if (command === "help") {
    const topic = rest[0] ?? "main";
    if (!USAGE[topic]) throw new Usage(`unknown command ${topic}`);
    process.stdout.write(`${USAGE[topic]}\n`);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) throw new Usage(`unknown command ${command}`);
  const args = parseArgs(command, rest);
  if (args.options.help) {
    process.stdout.write(`${USAGE[command]}\n`);
    return 0;
  }
  run(args);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  if (e instanceof Usage) {
    process.stderr.write(`streams-rebalance: ${e.message}\n\n${USAGE[e.command ?? "main"]}\n`);
    process.exitCode = 2;
  } else if (e instanceof BadInput) {
    process.stderr.write(`streams-rebalance: ${e.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`streams-rebalance: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  }
}
