// Scale-out: k of N members own the previous assignment (made by `sticky` for the k),
// the other N - k join with nothing, as when a group grows from k to N instances at
// once (the playground's join storm is a chain of these). Not a case of Kafka's own
// benchmark (bench/INPUTS.md): S subtopologies `i` of P partitions (even i stateful),
// member i in process `p(i div K)` on rack `r((i div K) mod 3)` when K = 4.
//   scripts/build-wasm.sh && node bench/scale-out.mjs --against DIR
// checks that this build and DIR/pkg/node.cjs (a copy of pkg/ from before a change)
// assign alike on every case (sticky and highly_available, standby 0 to 2, K 1 and 4),
// then times sticky, K = 4, one standby, both builds called in turn (medians, ms).
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { timeBoth } from "./timing.mjs";

const require = createRequire(import.meta.url);
const NEW = require("../pkg/node.cjs");
const againstAt = process.argv.indexOf("--against");
if (againstAt < 0) {
  console.error("usage: node bench/scale-out.mjs --against DIR");
  process.exit(2);
}
const OLD = require(path.resolve(process.argv[againstAt + 1], "pkg/node.cjs"));

const subtopologies = (S, P) =>
  Array.from({ length: S }, (_, i) => ({ subtopologyId: `${i}`, numPartitions: P, stateful: i % 2 === 0 }));
const member = (i, K) => ({
  memberId: `p${String(Math.floor(i / K)).padStart(4, "0")}-${i % K}`,
  processId: `p${Math.floor(i / K)}`,
  ...(K === 4 ? { rackId: `r${Math.floor(i / K) % 3}` } : {}),
});

console.log(`node ${process.version}, ${new Date().toISOString()}, load average ${os.loadavg()[0].toFixed(2)}`);
console.log("| case (S x P, owners of members) | this median ms | other median ms | this / other |");
console.log("|---|---|---|---|");
let same = 0;
let different = 0;
for (const [S, P] of [
  [4, 2500],
  [100, 100],
  [10, 100],
]) {
  for (const [k, N] of [
    [1, 100],
    [10, 100],
    [100, 1000],
    [500, 1000],
    [1000, 1000],
    [999, 1000],
    [1000, 999],
  ]) {
    for (const standby of [0, 1, 2]) {
      for (const K of [1, 4]) {
        const subs = subtopologies(S, P);
        const config = { numStandbyReplicas: standby };
        const owners = Array.from({ length: k }, (_, i) => member(i, K));
        const first = OLD.assign("sticky", { subtopologies: subs, members: owners }, config);
        const members = Array.from({ length: N }, (_, i) => ({
          ...member(i, K),
          ...(first.members[member(i, K).memberId] ?? {}),
        }));
        const spec = { subtopologies: subs, members, groupTopologyEpoch: 0 };
        for (const name of ["sticky", "highly_available"]) {
          if (JSON.stringify(NEW.assign(name, spec, config)) === JSON.stringify(OLD.assign(name, spec, config))) {
            same++;
          } else {
            different++;
            console.log(
              `| ${name} ${S} x ${P}, ${k} of ${N}, sb${standby}, K=${K}: the builds assign differently | | | |`,
            );
          }
        }
        if (K === 4 && standby === 1) {
          const [ours, theirs] = timeBoth(
            () => NEW.assign("sticky", spec, config),
            () => OLD.assign("sticky", spec, config),
            2000,
          );
          console.log(
            `| ${S} x ${P}, ${k} of ${N} | ${ours.median.toFixed(2)} | ${theirs.median.toFixed(2)} | ${(ours.median / theirs.median).toFixed(2)} |`,
          );
        }
      }
    }
  }
}
console.log(`${same} assignments alike, ${different} different; load average at the end ${os.loadavg()[0].toFixed(2)}`);
