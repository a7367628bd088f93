// A production-sized scenario for the playground's tests and its benchmark
// (bench/page.mjs): `processes` x `threads` members on `racks` racks, `tasks` tasks in
// four subtopologies (two stateful, with one standby each), and a rebalance story: all
// join, one process crashes, four are bounced in turn, two more join.

export function bigScenario({ processes, threads = 4, tasks, racks = 3, standbys = 1, endMs = 150000 }) {
  const per = Math.floor(tasks / 4);
  const id = (p) => `p${String(p).padStart(3, "0")}`;
  const topics = [];
  const subtopologies = [];
  for (let s = 0; s < 4; s++) {
    topics.push({ name: `in-${s}`, numPartitions: s === 3 ? tasks - 3 * per : per });
    const sub = { subtopologyId: String(s), sourceTopics: [`in-${s}`] };
    if (s >= 2) sub.stateChangelogTopics = [{ name: `big-store-${s}-changelog` }];
    subtopologies.push(sub);
  }
  const actions = [];
  for (let p = 0; p < processes; p++) {
    const a = { atMs: 0, type: "addProcess", processId: id(p), threads, rackId: `r${p % racks}` };
    actions.push(a);
  }
  actions.push({ atMs: 30000, type: "crashProcess", processId: id(0) });
  for (let k = 1; k <= 4 && k < processes; k++)
    actions.push({ atMs: 40000 + k * 12000, type: "restartProcess", processId: id(k) });
  for (let p = processes; p < processes + 2; p++)
    actions.push({ atMs: 100000, type: "addProcess", processId: id(p), threads, rackId: `r${p % racks}` });
  return {
    name: `big-${processes}x${threads}x${tasks}`,
    title: `${processes} processes x ${threads} threads, ${tasks} tasks`,
    description:
      "All join; p000 crashes at 30 s (its tasks move at the session timeout); p001 to p004 are bounced in turn; two more processes join at 100 s.",
    groupId: "big-app",
    config: { assignor: "sticky", numStandbyReplicas: standbys },
    client: { restoreRecordsPerSec: 1000000 },
    topics,
    topology: { epoch: 0, subtopologies },
    actions,
    endMs,
  };
}
