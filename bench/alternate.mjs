// Ours and Kafka's assignor taking turns on the host (`node bench/assignors.mjs --kafka
// DIR --alternate`): each side a process that, warmed up, times calls only when told
// (the "serve" protocol of bench/kafka/KafkaAssign.java, benches/assignors.rs and
// bench/timing.mjs), told in turn for a short window each, so that both sides' medians
// are taken over the same stretches of the host's time. Timed one after the other (as
// `--kafka` does), each side's median is that of whatever mix of the host's two speeds
// its own seconds caught (BENCHMARKS.md, session 23).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A process of the serve protocol: one JSON line answers each command. */
export class Served {
  constructor(command, args) {
    this.name = `${command} ${args.join(" ")}`;
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.lines = createInterface({ input: this.child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[
      Symbol.asyncIterator
    ]();
  }

  /** The next answer (the first: {"ready":true}, after its warm-up). */
  async next() {
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`${this.name}: ended without an answer`);
    return JSON.parse(value);
  }

  async send(line) {
    this.child.stdin.write(`${line}\n`);
    return this.next();
  }

  /** Its figures over every call it timed; it exits. */
  async done() {
    const last = await this.send("done");
    this.child.stdin.end();
    return last;
  }
}

/** `rounds` rounds of a window of `windowMs` each, the two sides in turn (which goes
 * first alternates from round to round); both must be ready. The host holds one speed
 * for a tenth of a second to a second (BENCHMARKS.md, session 23): windows of 500 ms
 * often fell within one stretch, so that ten of them gave the two sides different
 * shares of each speed; fifty of 100 ms mix them finer. A call longer than the window
 * still runs whole (at least one per window). */
export async function alternate(a, b, rounds = 50, windowMs = 100) {
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? [a, b] : [b, a]) await side.send(`run ${windowMs}`);
  }
}
