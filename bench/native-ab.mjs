// Two builds of the native assignor benchmark (benches/assignors.rs) taking turns on the
// host, case by case: the A/B behind the native figures of a change (BENCHMARKS.md,
// sessions 25 and 26). Keep a copy of the benchmark's binary before the change, build
// it again after, and give both:
//   cp target/release/deps/assignors-HASH /tmp/before   # before the change
//   cargo bench --bench assignors --no-run               # after it
//   node bench/native-ab.mjs /tmp/before target/release/deps/assignors-HASH CASE...
// CASE: a label of the full grid, as `node bench/assignors.mjs` prints them (e.g.
// sticky/M1000/T10000/sb1/K1/join). Each build serves the case (`--serve`, warmed up
// for 1 s), then each times calls for 100 ms in turn, fifty times (bench/alternate.mjs),
// so that both medians cover the same stretches of the host's time. Run it twice with
// the builds swapped: the one that goes first in a round is not always the same, but
// the other order checks that the difference is the builds'. Prints both medians and
// minimums (ms), B's over A's, and whether the two results are the same.
import { alternate, Served } from "./alternate.mjs";

const [a, b, ...labels] = process.argv.slice(2);
if (!a || !b || labels.length === 0) {
  console.error("usage: node bench/native-ab.mjs BENCH_A BENCH_B CASE...");
  process.exit(2);
}

for (const label of labels) {
  const sides = [new Served(a, ["--serve", label]), new Served(b, ["--serve", label])];
  for (const side of sides) await side.next();
  await alternate(sides[0], sides[1]);
  const [ra, rb] = [await sides[0].done(), await sides[1].done()];
  const same = JSON.stringify(ra.result) === JSON.stringify(rb.result);
  const ms = (r) => `${r.median.toFixed(3)} / ${r.min.toFixed(3)}`;
  console.log(
    `${label}: A ${ms(ra)}  B ${ms(rb)}  B/A ${(rb.median / ra.median).toFixed(3)} (median), ` +
      `${(rb.min / ra.min).toFixed(3)} (min)  ${same ? "same result" : "RESULTS DIFFER"}`,
  );
}
