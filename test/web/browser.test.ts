/**
 * The transcript pages in a real browser: Debian's Chromium, headless, driven by playwright-core.
 * Sign in through the stand-in OAuth endpoint, open a finished job, expand a tool output and follow
 * it to the full artifact, watch a running job update live, be refused a job of a repository the
 * user cannot read. Saves a screenshot of the job page to test-results/job-page.png.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_SECRET, startWebFixture, type WebFixture } from "./fixture.js";
import { CHROMIUM, haveChromium, launchChromium, type Chromium } from "../helpers/chromium.js";

const SCREENSHOT = path.resolve("test-results/job-page.png");
if (!haveChromium) console.warn(`browser test skipped: ${CHROMIUM} is missing (.ci/run installs it with apt-get)`);

describe.skipIf(!haveChromium)("transcript pages in Chromium", () => {
  let fx: WebFixture;
  let context: BrowserContext;
  let browser: Chromium | undefined;

  beforeAll(async () => {
    fx = await startWebFixture({ readable: ["acme/open"] });
    browser = await launchChromium();
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("signs in through GitHub's web flow and shows a finished job, its tool output one click away", async () => {
    fx.jobs.add("job-done", "acme/open", "succeeded", { trigger: { sender: "octocat", request: "Plan a <login> page" } });
    const artifacts = path.join(fx.dataDir, "jobs", "job-done", "artifacts");
    await mkdir(artifacts, { recursive: true });
    await writeFile(path.join(artifacts, "bash-1.log"), `npm test\n${"ok 1 - passes\n".repeat(50)}secret: ${OPERATOR_SECRET}\nall 50 passed\n`);
    const r = fx.recorder;
    r.begin(fx.jobs.jobs.get("job-done")!, []);
    r.append("job-done", { type: "chain_start", chain: "plan", steps: ["scout", "planner"] });
    r.append("job-done", { type: "step_start", index: 0, agent: "scout" });
    r.append("job-done", { type: "run_start", agent: "scout", model: "claude-sonnet-4-5", tools: ["read", "bash"] });
    r.append("job-done", { type: "turn_start", agent: "scout", turn: 1 });
    r.append("job-done", { type: "text", agent: "scout", text: "Let me run the tests first." });
    r.append("job-done", { type: "tool_start", agent: "scout", id: "t1", name: "bash", args: "npm test" });
    r.append("job-done", {
      type: "tool_end", agent: "scout", id: "t1", name: "bash", ok: true, ms: 2345,
      output: `…all 50 passed\n[Full output saved to ${artifacts}/bash-1.log; read it with the read tool]`,
    });
    r.append("job-done", { type: "usage", agent: "scout", usage: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.0081, estimate: false });
    r.append("job-done", { type: "step_end", index: 0, agent: "scout", stopReason: "done", output: "Scout report: tests pass." });
    r.append("job-done", { type: "step_start", index: 1, agent: "planner" });
    r.append("job-done", { type: "tool_start", agent: "planner", id: "t2", name: "read", args: "src/missing.ts" });
    r.append("job-done", { type: "tool_end", agent: "planner", id: "t2", name: "read", ok: false, ms: 3, output: "no such file: src/missing.ts" });
    r.append("job-done", { type: "step_end", index: 1, agent: "planner", stopReason: "done", output: "## Plan\n1. Add the page\n2. Test it" });
    await r.end("job-done", { kind: "done" }, "✅ Done · 40s · 1.5k tokens · $0.0081");

    const page = await context.newPage();
    await page.goto(`${fx.url}/jobs/job-done`);
    // Through /auth/login, the stand-in's authorize page and /auth/callback, back to the job.
    await page.waitForURL(`${fx.url}/jobs/job-done`);
    expect(fx.github.requests).toContain("GET /login/oauth/authorize");
    await expect.poll(() => page.textContent("#job-head")).toContain("acme/open#7");
    const head = (await page.textContent("#job-head"))!;
    expect(head).toContain("Plan a <login> page");
    expect(head).toContain("@octocat");
    expect(head).toContain("scout → planner");
    expect(await page.getAttribute("#job-head .state", "data-state")).toBe("succeeded");
    expect(await page.locator(".step").count()).toBe(2);
    expect(await page.textContent(".step >> nth=0")).toContain("claude-sonnet-4-5");
    // The chain counts steps from 0; the page from 1.
    expect(await page.locator(".step h2").allTextContents()).toEqual([expect.stringMatching(/^Step 1 · scout/), expect.stringMatching(/^Step 2 · planner/)]);
    expect(await page.textContent(".tool-err")).toContain("error");

    const output = page.locator('[data-tool="bash"] details.output');
    expect(await output.locator("pre").isVisible()).toBe(false);
    await output.locator("summary").click();
    expect(await output.locator("pre").isVisible()).toBe(true);
    expect(await output.locator("pre").textContent()).toContain("all 50 passed");
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await output.locator("a.artifact").click();
    await page.waitForURL(`${fx.url}/jobs/job-done/artifacts/bash-1.log`);
    const full = (await page.textContent("body"))!;
    expect(full).toContain("ok 1 - passes");
    expect(full).toContain("secret: [redacted]");
    expect(full).not.toContain(OPERATOR_SECRET);

    // Readable on a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${fx.url}/jobs/job-done`);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")).toBe(true);
    await page.close();
  });

  it("follows a running job live until it ends", async () => {
    const job = fx.jobs.add("job-live", "acme/open", "running");
    fx.recorder.begin(job, []);
    fx.recorder.append("job-live", { type: "step_start", index: 0, agent: "worker" });
    await fx.recorder.flush("job-live");

    const page = await context.newPage();
    await page.goto(`${fx.url}/jobs/job-live`);
    expect(await page.getAttribute("#job-head .state", "data-state")).toBe("running");
    expect(await page.locator(".tool").count()).toBe(0);

    fx.recorder.append("job-live", { type: "turn_start", agent: "worker", turn: 1 });
    fx.recorder.append("job-live", { type: "tool_start", agent: "worker", id: "t1", name: "grep", args: "TODO src/" });
    await page.locator('[data-tool="grep"]').waitFor();
    expect(await page.textContent('[data-tool="grep"]')).toContain("running…");

    fx.recorder.append("job-live", { type: "tool_end", agent: "worker", id: "t1", name: "grep", ok: true, ms: 42, output: "src/a.ts:1: TODO" });
    await page.locator('[data-tool="grep"].tool-ok').waitFor();
    // Text arrives as deltas; the page shows them as one paragraph.
    fx.recorder.append("job-live", { type: "text", agent: "worker", text: "Found one " });
    fx.recorder.append("job-live", { type: "text", agent: "worker", text: "TODO." });
    fx.recorder.append("job-live", { type: "turn_end", agent: "worker", turn: 1, stopReason: "end_turn" });
    await page.getByText("Found one TODO.").waitFor();

    fx.recorder.append("job-live", { type: "step_end", index: 0, agent: "worker", stopReason: "done" });
    await fx.recorder.end("job-live", { kind: "done" }, "✅ Done · 5s · 0 tokens · $0.0000");
    fx.jobs.jobs.set("job-live", { ...job, state: "succeeded", finishedAt: Date.now(), outcome: "✅ Done · 5s" });
    await page.locator('body[data-ended="true"]').waitFor();
    expect(await page.getAttribute("#job-head .state", "data-state")).toBe("succeeded");
    expect(await page.textContent("#job-head")).toContain("✅ Done");
    await page.close();
  });

  it("refuses a job of a repository the user cannot read", async () => {
    fx.jobs.add("job-secret", "acme/secret", "succeeded");
    const page = await context.newPage();
    const res = await page.goto(`${fx.url}/jobs/job-secret`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent("body")).toContain("Not found");
    expect(await page.textContent("body")).not.toContain("acme/secret");
    // The list does not show it either.
    await page.goto(`${fx.url}/jobs`);
    expect(await page.locator('[data-job="job-secret"]').count()).toBe(0);
    expect(await page.locator('[data-job="job-done"]').count()).toBe(1);
    await page.close();
  });

  it("opens a scratch file from the transcript as plain text: its HTML shows as text and never runs", async () => {
    fx.jobs.add("job-notes", "acme/open", "succeeded");
    const local = path.join(fx.dataDir, "jobs", "job-notes", "artifacts", "local");
    await mkdir(local, { recursive: true });
    await writeFile(path.join(local, "<img src=x onerror=document.title=1>.md"), `<script>document.title="ran"</script><h1 id="x">notes</h1>`);
    fx.recorder.append("job-notes", { type: "step_start", index: 0, agent: "scout" });
    fx.recorder.append("job-notes", { type: "tool_start", agent: "scout", id: "t1", name: "scratch_write", args: "scratch_write local://<img src=x onerror=document.title=1>.md" });
    fx.recorder.append("job-notes", { type: "tool_end", agent: "scout", id: "t1", name: "scratch_write", ok: true, ms: 1, output: "Created" });
    await fx.recorder.end("job-notes", { kind: "done" }, "✅ Done");
    const page = await context.newPage();
    await page.goto(`${fx.url}/jobs/job-notes`);
    expect(await page.textContent("#scratch")).toContain("local://<img src=x onerror=document.title=1>.md");
    expect(await page.locator("img").count()).toBe(0);
    await page.locator('[data-tool="scratch_write"] a.scratch').click();
    await page.waitForURL(/\/jobs\/job-notes\/artifacts\/local\//);
    expect(await page.textContent("body")).toContain(`<script>document.title="ran"</script><h1 id="x">notes</h1>`);
    expect(await page.locator("h1#x").count()).toBe(0);
    expect(await page.title()).not.toMatch(/^(ran|1)$/);
    await page.close();
  });

  it("shows a parallel step's agents each under its own heading, their entries not interleaved", async () => {
    fx.jobs.add("job-wide", "acme/open", "succeeded");
    const r = fx.recorder;
    r.append("job-wide", { type: "step_start", index: 0, agent: "scout + scout", items: [{ agent: "scout", task: "Look at the code." }, { agent: "scout", task: "Look at the tests." }] });
    for (const round of [1, 2]) {
      for (const item of [1, 2]) {
        r.append("job-wide", { type: "tool_start", agent: "scout", item, id: `t${item}${round}`, name: "grep", args: `grep lane${item}-${round}` });
        r.append("job-wide", { type: "tool_end", agent: "scout", item, id: `t${item}${round}`, name: "grep", ok: true, ms: 1, output: "hit" });
      }
    }
    r.append("job-wide", { type: "step_end", index: 0, agent: "scout + scout", stopReason: "done", output: "joined" });
    await r.end("job-wide", { kind: "done" }, "✅ Done");
    const page = await context.newPage();
    await page.goto(`${fx.url}/jobs/job-wide`);
    const lanes = page.locator(".step .lane");
    expect(await lanes.count()).toBe(2);
    expect(await lanes.nth(0).locator("h3").textContent()).toContain("Look at the code.");
    expect(await lanes.nth(0).locator("[data-tool=grep] code").allTextContents()).toEqual(["grep lane1-1", "grep lane1-2"]);
    expect(await lanes.nth(1).locator("[data-tool=grep] code").allTextContents()).toEqual(["grep lane2-1", "grep lane2-2"]);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")).toBe(true);
    await page.close();
  });
});
