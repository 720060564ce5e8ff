/**
 * The README's pictures: a finished `/implement` progress comment and a pull-request review, made
 * by crewbot's own renderers (src/report, src/review) from realistic input, drawn as GitHub draws
 * them and photographed in Chromium. `UPDATE_SCREENSHOTS=1` writes docs/images/*.png and the
 * bodies they show (progress-comment.md, review.json: the exact comment and review request crewbot
 * would post); without it the test checks those bodies are still what the renderers produce, so a
 * change to a renderer fails here until the pictures are taken again.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderProgress } from "../../src/report/render.js";
import { initialProgress } from "../../src/report/progress-state.js";
import { buildReview, type ReviewRequest } from "../../src/review/build-review.js";
import { lineText, parseDiff, type DiffFile } from "../../src/review/diff-lines.js";
import { withProofs } from "../../src/review/proofs.js";
import { selectFiles } from "../../src/review/select-files.js";
import { proofOutcome } from "../../src/tools/prove.js";
import type { Proof } from "../../src/tools/proof-session.js";
import type { Finding } from "../../src/review/types.js";
import { GITHUB_CSS, renderMarkdown } from "./github-markdown.js";
import { CHROMIUM, launchChromium } from "../helpers/chromium.js";

const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
const ROOT = path.resolve(import.meta.dirname, "../..");
const IMAGES = path.join(ROOT, "docs/images");
const EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
const RENEW = "the renderers changed what crewbot posts: take the pictures again with UPDATE_SCREENSHOTS=1 npx vitest run test/web/screenshots.test.ts";

const JOB = "job-20261201T101500-3f9a2c";
const REPO_URL = "https://github.com/acme/widgets";
const BRANCH = "crewbot/issue-42-add-a-verbose-flag";
const sha = (n: number) => createHash("sha1").update(`step ${n}`).digest("hex");

/** What an `/implement` on issue #42 shows when it ends: plan ticked step by step, each a commit, checks, links. */
export function progressComment(): string {
  const steps = [
    { n: 1, text: "Parse `--verbose` (and `-v`) in `src/cli/args.ts`, default off" },
    { n: 2, text: "Print each request's method, URL and status to stderr when verbose" },
    { n: 3, text: "Document the flag in `README.md` and test both modes" },
  ];
  return renderProgress({
    ...initialProgress(JOB, "implement"),
    terminal: { kind: "done" },
    elapsedMs: 252_000,
    usage: { input: 118_400, output: 9_850, cacheRead: 52_100, cacheWrite: 4_050 },
    costUsd: 0.4123,
    turn: 31,
    toolCalls: 57,
    plan: {
      goal: "A `--verbose` flag that prints every HTTP request the CLI makes, so a failing upload can be diagnosed without a debugger.",
      steps,
      done: [1, 2, 3],
      commits: Object.fromEntries(steps.map((s) => [s.n, { sha: sha(s.n), url: `${REPO_URL}/commit/${sha(s.n)}` }])),
    },
    commands: [
      { phase: "setup", command: "npm ci", ok: true, status: "exit code 0", tail: "added 214 packages in 6s", durationMs: 6_400 },
      {
        phase: "check",
        command: "npm test",
        ok: true,
        status: "exit code 0",
        tail: "✓ test/cli/args.test.ts (12 tests) 41ms\n✓ test/http/verbose.test.ts (4 tests) 18ms\n\nTest Files  9 passed (9)\n     Tests  87 passed (87)",
        durationMs: 9_100,
      },
    ],
    links: {
      pr: { number: 58, url: `${REPO_URL}/pull/58` },
      branch: { name: BRANCH, url: `${REPO_URL}/tree/${BRANCH}` },
      transcript: `https://crewbot.example.com/jobs/${JOB}`,
    },
  });
}

/** A pull request adding a retry helper with a real bug, as `git diff base...head` prints it. */
const DIFF = `diff --git a/package-lock.json b/package-lock.json
index 3b18e51..9c2f4d7 100644
--- a/package-lock.json
+++ b/package-lock.json
@@ -1,6 +1,6 @@
 {
   "name": "widgets",
-  "version": "1.4.0",
+  "version": "1.5.0",
   "lockfileVersion": 3,
   "requires": true,
   "packages": {
diff --git a/src/retry.ts b/src/retry.ts
new file mode 100644
index 0000000..e4a1b2c
--- /dev/null
+++ b/src/retry.ts
@@ -0,0 +1,18 @@
+import { setTimeout as sleep } from "node:timers/promises";
+
+export interface RetryOptions {
+  retries: number;
+  delayMs: number;
+}
+
+/** Calls \`fn\` until it resolves, at most \`retries\` more times, waiting longer each time. */
+export async function retry<T>(fn: () => Promise<T>, { retries, delayMs }: RetryOptions): Promise<T> {
+  for (let attempt = 0; ; attempt++) {
+    try {
+      return fn();
+    } catch (error) {
+      if (attempt >= retries) throw error;
+      await sleep(delayMs * 2 ** attempt);
+    }
+  }
+}
diff --git a/src/upload.ts b/src/upload.ts
index 51c0d2e..a7b93f1 100644
--- a/src/upload.ts
+++ b/src/upload.ts
@@ -1,6 +1,7 @@
 import type { Store } from "./store.js";
+import { retry } from "./retry.js";
 
 export async function upload(store: Store, file: Blob): Promise<string> {
-  const response = await store.put(file);
+  const response = await retry(() => store.put(file), { retries: 3, delayMs: 200 });
   return response.id;
 }
`;

const REPRODUCER = `import { expect, test } from "vitest";
import { retry } from "../src/retry.js";

test("a rejected attempt is tried again", async () => {
  let calls = 0;
  const value = await retry(async () => {
    if (++calls < 2) throw new Error("flaky");
    return "ok";
  }, { retries: 3, delayMs: 1 });
  expect(value).toBe("ok");
  expect(calls).toBe(2);
});
`;

/** The reviewer's submission (`submit_review` and one `prove`), through the review job's own steps. */
export function review(): { files: DiffFile[]; request: ReviewRequest } {
  const files = parseDiff(DIFF);
  const selection = selectFiles(files);
  const findings: Finding[] = [
    {
      path: "src/retry.ts",
      line: 12,
      severity: "critical",
      text: "`return fn()` hands back the attempt's promise without awaiting it, so its rejection never reaches the `catch`: the first failure of `store.put` ends the upload and nothing is retried.",
      suggestion: "      return await fn();",
    },
    {
      path: "src/retry.ts",
      line: 15,
      severity: "warning",
      text: "The wait has no upper bound: with `retries: 10` the last one is `200 * 2 ** 9` ms, almost two minutes. Cap it.",
      suggestion: "      await sleep(Math.min(delayMs * 2 ** attempt, 30_000));",
    },
    {
      path: "src/upload.ts",
      line: 5,
      severity: "suggestion",
      text: "`retries: 3` and `delayMs: 200` would read better as named constants beside `upload`, where the next person tuning them will look.",
    },
  ];
  const head = {
    exitCode: 1,
    tail: " FAIL  test/retry.repro.test.ts > a rejected attempt is tried again\nError: flaky\n ❯ test/retry.repro.test.ts:7:26\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)",
  };
  const proof: Proof = {
    finding: 0,
    command: "npx vitest run test/retry.repro.test.ts",
    files: [{ path: "test/retry.repro.test.ts", content: REPRODUCER }],
    behaviourChange: false,
    head,
    ...proofOutcome(false, head, undefined),
  };
  const proved = withProofs(findings, [proof]).findings;
  const parsed = {
    findings: proved,
    summary: "Adds `retry` with exponential backoff and sends uploads through it. As written a rejected upload is never retried (reproduced below), and the backoff has no cap.",
    notes: [],
  };
  const { request } = buildReview(parsed, files, selection, { proofsRan: true });
  return { files, request };
}

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><style>${GITHUB_CSS}</style></head><body><div id="shot">${body}</div></body></html>`;

const head = (who: string, what: string) => `<div class="comment-head"><span class="avatar"></span><b>${who}</b>${who === "crewbot" ? ' <span class="label">bot</span>' : ""} ${what}</div>`;

function progressPage(body: string): string {
  return page(
    `<div class="comment">${head("octocat", "commented 5 minutes ago")}<div class="markdown"><p><code>/implement</code></p><p>👀 1</p></div></div>` +
      `<div class="comment">${head("crewbot", "commented 5 minutes ago · edited")}<div class="markdown">${renderMarkdown(body)}</div></div>`,
  );
}

/** The last lines of the hunk a comment sits on, up to its line, as "Files changed" shows them above it. */
function hunkRows(file: DiffFile, line: number): string {
  const hunk = file.hunks.find((h) => h.lines.some((l) => l.newLine === line))!;
  const upTo = hunk.lines.findIndex((l) => l.newLine === line);
  return hunk.lines
    .slice(Math.max(0, upTo - 3), upTo + 1)
    .map((l) => `<div class="row ${l.kind === "add" ? "add" : l.kind === "del" ? "del" : "ctx"}"><span class="num">${l.newLine ?? ""}</span>${l.kind === "add" ? "+" : l.kind === "del" ? "-" : " "} ${l.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</div>`)
    .join("");
}

function reviewPage({ files, request }: ReturnType<typeof review>): string {
  const comments = request.comments.map((c) => {
    const file = files.find((f) => f.path === c.path)!;
    const original = [lineText(file, "RIGHT", c.line)!];
    return (
      `<div class="hunk"><div class="hunk-path">${c.path}</div>${hunkRows(file, c.line)}</div>` +
      `<div class="thread">${head("crewbot", "5 minutes ago")}<div class="markdown">${renderMarkdown(c.body, { suggestionOriginal: original })}</div></div>`
    );
  });
  return page(
    `<div class="review-event"><span class="avatar"></span><b>crewbot</b> <span class="label">bot</span> reviewed 5 minutes ago</div>` +
      `<div class="comment"><div class="markdown">${renderMarkdown(request.body)}</div></div>${comments.join("")}`,
  );
}

async function source(file: string, now: string): Promise<void> {
  const target = path.join(IMAGES, file);
  if (UPDATE) {
    await mkdir(IMAGES, { recursive: true });
    await writeFile(target, now);
    return;
  }
  const committed = existsSync(target) ? await readFile(target, "utf8") : undefined;
  expect(committed, `${path.relative(ROOT, target)}: ${RENEW}`).toBe(now);
}

describe("the README's pictures", () => {
  it("show the progress comment renderProgress writes today", async () => {
    await source("progress-comment.md", progressComment());
  });

  it("show the review buildReview makes today: a reproduced critical finding, suggestions, a lockfile left out", async () => {
    const { request } = review();
    expect(request.comments.map((c) => `${c.path}:${c.line}`)).toEqual(["src/retry.ts:12", "src/retry.ts:15", "src/upload.ts:5"]);
    expect(request.body).toContain("`package-lock.json` — lockfile");
    expect(request.comments[0]!.body).toContain("🔬 **Reproduced**");
    expect(request.comments[0]!.body).toContain("```suggestion");
    await source("review.json", `${JSON.stringify(request, null, 2)}\n`);
  });

  it("are the ones README.md shows", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    for (const png of ["progress-comment.png", "review.png"]) {
      expect(readme).toContain(`docs/images/${png}`);
      expect(existsSync(path.join(IMAGES, png)), `docs/images/${png} is missing: ${RENEW}`).toBe(true);
    }
  });

  it.runIf(UPDATE)("are taken in Chromium, drawn as GitHub draws them", async () => {
    for (const [need, what] of [[CHROMIUM, "chromium"], [EMOJI_FONT, "fonts-noto-color-emoji"]]) {
      if (!existsSync(need!)) throw new Error(`${need} is missing: apt-get install ${what}`);
    }
    const browser = await launchChromium({ width: 860, height: 900 });
    const { context } = browser;
    try {
      const tab = await context.newPage();
      for (const [png, html] of [["progress-comment.png", progressPage(progressComment())], ["review.png", reviewPage(review())]] as const) {
        await tab.setContent(html, { waitUntil: "load" });
        // Nothing the renderer left as markdown: no stray fences, emphasis or link syntax.
        const prose = (await tab.evaluate(`(() => { const shot = document.querySelector("#shot").cloneNode(true); for (const c of shot.querySelectorAll("code, pre, .hunk")) c.remove(); return shot.textContent; })()`)) as string;
        expect(prose).not.toMatch(/```|\*\*|\]\(|^#/m);
        await tab.locator("#shot").screenshot({ path: path.join(IMAGES, png) });
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});
