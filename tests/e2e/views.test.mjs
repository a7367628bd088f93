// The playground's other views: hover rules, describe, fenced members, animated moves,
// Markdown for bug reports, export and import, editing the scenario.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { board, epochs, open, screenshot, usePage } from "./harness.mjs";

const env = usePage();

test("hovering a term gives the rule behind it, and describe prints the group", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=rolling-bounce&step=24`);
  assert.match(
    await page.getAttribute("dt[data-rule=groupEpoch]", "title"),
    /group epoch goes up by one whenever membership/,
  );
  assert.match(
    await page.getAttribute("dt[data-rule=assignmentEpoch]", "title"),
    /group epoch the target assignment was computed for/,
  );
  assert.match(await page.getAttribute("#group-state", "title"), /PROTOCOL\.md §4\.3/);
  // Each term links to its section of docs/PROTOCOL.md in the repository.
  assert.equal(
    await page.getAttribute("dt[data-rule=groupState] a.rule-link", "href"),
    "https://github.com/streams-rebalance/streams-rebalance/blob/main/docs/PROTOCOL.md#43-group-states",
  );
  assert.equal(await page.getAttribute("th[data-rule=memberState] a.rule-link", "target"), "_blank");
  assert.equal(await page.textContent("dt[data-rule=groupEpoch]"), "group epoch");
  assert.match(await page.getAttribute(".lane[data-member='A-1'] .tag.stale", "title"), /STALE_TOPOLOGY \(status 0\)/);
  assert.match(
    await page.getAttribute(".lane[data-member='A-1'] .chip.revoking", "title"),
    /never given to a new owner/,
  );
  assert.match(await page.textContent("#statuses"), /STALE_TOPOLOGY.*sent to A-1, B-1/);
  await page.click("#tab-describe");
  const text = await page.textContent("#describe");
  const e = await epochs(page);
  assert.match(text, /^GROUP\s+STATE\s+GROUP-EPOCH\s+TARGET-ASSIGNMENT-EPOCH\s+TOPOLOGY-EPOCH\s+#MEMBERS/);
  assert.match(text, new RegExp(`word-count\\s+${e.state}\\s+${e.groupEpoch}\\s+${e.assignmentEpoch}\\s+1\\s+3`));
  assert.match(text, /word-count\s+A-1\s+A\s+.*\s+4\s+UnrevokedTasks\s+5\s+0\s+0:\[0,1,2\]/);
  assert.match(text, /word-count\s+C-1\.2\s+C\s+.*UnreleasedTasks\s+5\s+1\s+-\s+-\s+-\s+0:\[4,7,8\]/);
  await context.close();
});

test("a fenced member is marked and rejoins", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=crash&step=8`);
  await page.click("#tab-inspector");
  // Fence A-1 by hand: a heartbeat with an epoch the coordinator does not expect.
  await page.fill(
    "#insp-request",
    JSON.stringify({
      groupId: "clicks-app",
      memberId: "A-1",
      memberEpoch: 99,
      activeTasks: [],
      standbyTasks: [],
      warmupTasks: [],
    }),
  );
  await page.click("#insp-send");
  assert.equal(JSON.parse(await page.textContent("#insp-response")).errorCode, 110, "FENCED_MEMBER_EPOCH");
  let fenced = false;
  for (let i = 0; i < 20 && !fenced; i++) {
    await page.keyboard.press("ArrowRight");
    fenced = (await page.locator(".lane[data-member='A-1'] .tag.bad", { hasText: "FENCED" }).count()) > 0;
  }
  assert.ok(fenced, "A-1's lane says FENCED after its next heartbeat");
  assert.ok((await page.locator(".lane.fenced[data-member='A-1']").count()) === 1);
  assert.ok((await page.locator("#markers .m.error").count()) > 0, "an error marker");
  await screenshot(page, "fenced");
  // It rejoins with epoch 0 and gets tasks again.
  let back = false;
  for (let i = 0; i < 20 && !back; i++) {
    await page.keyboard.press("ArrowRight");
    const b = await board(page);
    back = b["A-1"].active.length > 0 && (await epochs(page)).state === "Stable";
  }
  assert.ok(back, "A-1 rejoined and runs tasks");
  await context.close();
});

test("a task that changes owner slides over", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${env.server.url}#preset=scale-out&step=0`);
  await page.waitForSelector("body[data-ready=true]");
  let animated = 0;
  for (let i = 0; i < 25 && animated === 0; i++) {
    await page.keyboard.press("ArrowRight");
    animated = await page.evaluate(
      () =>
        [...document.querySelectorAll(".chip")].filter((c) =>
          c.getAnimations().some((a) => a.effect && a.effect.getKeyframes()[0].transform !== "translate(0px, 0px)"),
        ).length,
    );
  }
  assert.ok(animated > 0, "a chip is animated from its previous place");
  await context.close();
});

test("copy as Markdown, export, import and edit a scenario", async () => {
  const { page, context } = await open(env.browser, `${env.server.url}#preset=static-restart&step=10`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  await page.click("#copy-md");
  await page.waitForSelector("#toast:not([hidden])");
  const md = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(md, /^### Streams rebalance playground: A static member restarts and keeps its tasks/);
  assert.match(md, /\| member \| process \| epoch \| state \| topology epoch \| active \| standby \| warm-up \|/);
  assert.match(md, /\[Open this state\]\(http:\/\/127\.0\.0\.1:\d+\/#preset=static-restart&step=10\)/);
  assert.match(md, /"name": "static-restart"/);

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  const file = path.join(os.tmpdir(), `scenario-${process.pid}.json`);
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(exported.name, "static-restart");
  assert.equal(exported.actions.length, 4);

  // Import an edited copy: a fourth process.
  exported.name = "";
  exported.title = "Four static members";
  exported.actions.push({ atMs: 0, type: "addProcess", processId: "D", instanceId: "payments-d" });
  fs.writeFileSync(file, JSON.stringify(exported));
  await page.setInputFiles("#import", file);
  await page.waitForFunction(() => document.getElementById("story-title").textContent === "Four static members");
  await page.keyboard.press("End");
  const b = await board(page);
  assert.ok(b["D-1"], "the imported scenario runs D");
  assert.equal(await page.inputValue("#preset"), "", "a custom scenario");

  // Edit the scenario's JSON in place.
  await page.click("#tab-scenario");
  const s = JSON.parse(await page.inputValue("#scenario-json"));
  s.title = "Edited";
  s.config.heartbeatIntervalMs = 2000;
  await page.fill("#scenario-json", JSON.stringify(s));
  await page.click("#scenario-apply");
  assert.equal(await page.textContent("#story-title"), "Edited");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.click("#tab-inspector");
  const hb = page.locator("#events li[data-kind=heartbeat]").first();
  await hb.click();
  assert.equal(JSON.parse(await page.textContent("#insp-response")).heartbeatIntervalMs, 2000);
  // A broken scenario is refused with the field named, and the page keeps the old one.
  await page.click("#tab-scenario");
  await page.fill("#scenario-json", JSON.stringify({ ...s, endMs: -1 }));
  await page.click("#scenario-apply");
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /endMs: -1 is out of range/);
  assert.equal(await page.textContent("#story-title"), "Edited");
  fs.rmSync(file, { force: true });
  await context.close();
});

test("redeploy with an edited topology: only the redeployed member runs the new subtopology", async () => {
  const { page, context, errors } = await open(env.browser, `${env.server.url}#preset=scale-out&step=0`);
  await page.keyboard.press("End");
  await page.fill("#topic-name", "audit");
  await page.fill("#topic-partitions", "2");
  await page.click("#create-topic");
  await page.click("summary");
  const topo = JSON.parse(await page.inputValue("#redeploy-topology"));
  topo.subtopologies.push({ subtopologyId: "1", sourceTopics: ["audit"] });
  await page.fill("#redeploy-topology", JSON.stringify(topo));
  await page.selectOption("#proc-select", "B");
  await page.click("#redeploy-process");
  const scenario = JSON.parse(await page.inputValue("#scenario-json"));
  const redeploy = scenario.actions.find((a) => a.type === "restartProcess");
  assert.equal(redeploy.changes.topologyEpoch, 1);
  assert.equal(redeploy.changes.topology.subtopologies.length, 2);
  let b;
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("ArrowRight");
    b = await board(page);
    const e = await epochs(page);
    if (
      e.state === "Stable" &&
      e.topologyEpoch === "1" &&
      b["B-1.2"] &&
      b["B-1.2"].active.some((t) => t.startsWith("1_"))
    )
      break;
  }
  const newTasks = Object.entries(b).flatMap(([id, l]) =>
    l.active.filter((t) => t.startsWith("1_")).map((t) => [id, t]),
  );
  assert.deepEqual(
    newTasks.map(([id]) => id),
    ["B-1.2", "B-1.2"],
    "stale members never gain the new subtopology's tasks",
  );
  for (const id of ["A-1", "C-1", "D-1"]) assert.ok(b[id].staleTag, `${id} is stale`);
  assert.deepEqual(errors, []);
  await screenshot(page, "redeploy-new-subtopology");
  await context.close();
});
