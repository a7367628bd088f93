// Apache Kafka's StickyTaskAssignor, compiled from a Kafka source tree with the JDK
// alone (javac; no Gradle, no downloads), and run on the cases of bench/assignors.mjs
// (`--kafka DIR`), so that Kafka's times and ours come from one run on one machine.
//
// DIR is a Kafka checkout, or a git directory without a work tree (its HEAD is read
// with `git show`). Compiled: the assignor and the classes it uses (the streams
// assignor package, its public API package, four small classes of the clients module);
// slf4j is replaced by the silent logger in this folder. The harness (KafkaAssign.java)
// is ours: it builds the inputs exactly as bench/assignors.mjs does.
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Served } from "../alternate.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const KAFKA_FILES = [
  "clients/src/main/java/org/apache/kafka/common/KafkaException.java",
  "clients/src/main/java/org/apache/kafka/common/annotation/InterfaceAudience.java",
  "clients/src/main/java/org/apache/kafka/common/annotation/InterfaceStability.java",
  "clients/src/main/java/org/apache/kafka/common/errors/ApiException.java",
];
const KAFKA_DIRS = [
  "group-coordinator/group-coordinator-api/src/main/java/org/apache/kafka/coordinator/group/api/streams/assignor",
];
const ASSIGNOR_DIR = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/streams/assignor";
const ASSIGNOR_FILES = [
  "StickyTaskAssignor.java",
  "ProcessState.java",
  "TaskId.java",
  "GroupSpecImpl.java",
  "MemberMetadataAndStateImpl.java",
];
const OURS = ["KafkaAssign.java", "org/slf4j/Logger.java", "org/slf4j/LoggerFactory.java"];

/** The Kafka sources as [relative path, text], from a work tree or a git directory. */
function sources(dir) {
  const worktree = fs.existsSync(path.join(dir, ASSIGNOR_DIR));
  const git = (...a) =>
    execFileSync("git", ["--git-dir", dir, ...a], { encoding: "utf8", maxBuffer: 1 << 26, stdio: "pipe" });
  if (!worktree) {
    try {
      git("cat-file", "-e", `HEAD:${ASSIGNOR_DIR}/StickyTaskAssignor.java`);
    } catch {
      throw new Error(
        `--kafka ${dir}: not an Apache Kafka source tree (no ${ASSIGNOR_DIR}/StickyTaskAssignor.java in it, nor at HEAD of a git directory there)`,
      );
    }
  }
  const list = (d) =>
    worktree
      ? fs
          .readdirSync(path.join(dir, d))
          .filter((f) => f.endsWith(".java"))
          .map((f) => `${d}/${f}`)
      : git("ls-tree", "--name-only", `HEAD:${d}`)
          .split("\n")
          .filter((f) => f.endsWith(".java"))
          .map((f) => `${d}/${f}`);
  const read = (f) => (worktree ? fs.readFileSync(path.join(dir, f), "utf8") : git("show", `HEAD:${f}`));
  const files = [...KAFKA_FILES, ...KAFKA_DIRS.flatMap(list), ...ASSIGNOR_FILES.map((f) => `${ASSIGNOR_DIR}/${f}`)];
  const commit = worktree ? null : git("rev-parse", "HEAD").trim();
  return { files: files.map((f) => [f, read(f)]), commit };
}

/** Compiles once per source set (cached under the OS temp dir); the class path. */
export function buildKafka(dir) {
  const { files, commit } = sources(path.resolve(dir));
  const ours = OURS.map((f) => [`ours/${f}`, fs.readFileSync(path.join(HERE, f), "utf8")]);
  const hash = crypto.createHash("sha256");
  for (const [f, text] of [...files, ...ours]) hash.update(f).update("\0").update(text).update("\0");
  const out = path.join(os.tmpdir(), `streams-rebalance-kafka-${hash.digest("hex").slice(0, 16)}`);
  const classes = path.join(out, "classes");
  if (!fs.existsSync(path.join(classes, "KafkaAssign.class"))) {
    const src = path.join(out, "src");
    for (const [f, text] of [...files, ...ours]) {
      fs.mkdirSync(path.dirname(path.join(src, f)), { recursive: true });
      fs.writeFileSync(path.join(src, f), text);
    }
    const all = [...files, ...ours].map(([f]) => path.join(src, f));
    const javac = spawnSync("javac", ["-nowarn", "-d", classes, ...all], { stdio: ["ignore", "inherit", "inherit"] });
    if (javac.error || javac.status !== 0) {
      throw new Error(
        `--kafka: javac ${javac.error ? `did not run (${javac.error.message}); a JDK 17 or later is needed` : "failed"}`,
      );
    }
  }
  const java = spawnSync("java", ["-version"], { encoding: "utf8" }).stderr.split("\n")[0];
  return { classes, commit, java };
}

/** One case on Kafka's assignor: { medianMs, minMs, runs, gcMs (the collectors' time over the timed runs), first, result }. */
// The JVM runs with its default flags, as Kafka's own JMH benchmark (INPUTS.md) does:
// on this VM no heap or collector setting was faster on every case (tried: fixed 4-8 GB
// heaps, ParallelGC, a large young generation, pre-touched heap).
export function runKafka(build, c, warmupMs = 5000, measureMs = 5000) {
  const args = [c.members, c.subtopologies, c.partitions, c.standby, c.kind, warmupMs, measureMs].map(String);
  const text = execFileSync("java", ["-cp", build.classes, "KafkaAssign", ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(text);
}

/** The same case on Kafka's assignor in "serve" mode (bench/alternate.mjs): a process
 * that, after the warm-up, times calls when told; its `done()` gives runKafka's figures. */
export function serveKafka(build, c, warmupMs = 5000) {
  const args = [c.members, c.subtopologies, c.partitions, c.standby, c.kind, warmupMs, 0].map(String);
  return new Served("java", ["-cp", build.classes, "KafkaAssign", ...args, "serve"]);
}
