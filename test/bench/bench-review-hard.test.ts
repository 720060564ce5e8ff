/**
 * bench:review's hard set: pull requests on tidemark, the application written for the bench. Its
 * cases check out (`--check`: each reproducer fails on the head and passes on the base, through the
 * real `prove` in the sandbox), the scripted players prove the scorer on them (oracle 100 %, null
 * 0 %), and the application's own tests pass on the base and on every clean case's head.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { caseSource, HARD_APP_DIR, loadCases, materialiseCase } from "../../bench/review/case-set.js";
import { runReviewSuite } from "../../bench/review/run-suite.js";
import { score } from "../../bench/review/score.js";
import { detectSandbox } from "../../src/tools/sandbox.js";

const run = promisify(execFile);
const sandbox = await detectSandbox();
const skipNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;
const cases = await loadCases(undefined, "hard");
const bugs = cases.filter((c) => c.kind === "bug");
const cleans = cases.filter((c) => c.kind === "clean");
const work = await mkdtemp(path.join(os.tmpdir(), "crewbot-hard-set-"));
afterAll(() => rm(work, { recursive: true, force: true }));

/** `node --test` in a folder: the application's own tests (no dependencies to install), or only those of `folders`. */
const nodeTest = (dir: string, folders: string[] = []) => run(process.execPath, ["--test", ...folders], { cwd: dir, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 });

/** A change's tests: the core's and those of each module its patch touches (`src/<module>/…`, `test/<module>/…`). */
const testsOf = (patch: string) => ["test/core/", ...new Set([...patch.matchAll(/^\+\+\+ b\/(?:src|test)\/([^/]+)\//gm)].map((m) => `test/${m[1]}/`))];

describe("bench:review's hard set", () => {
  it("has at least 20 bug cases and 10 clean ones, each naming the files outside its diff that show it", async () => {
    expect(bugs.length).toBeGreaterThanOrEqual(20);
    expect(cleans.length).toBeGreaterThanOrEqual(10);
    const appFiles = await readdir(HARD_APP_DIR, { recursive: true });
    expect(appFiles.filter((f) => f.endsWith(".js")).length).toBeGreaterThanOrEqual(300);
    for (const c of cases) {
      expect(c.set, c.id).toBe("hard");
      expect(c.evidence?.length, c.id).toBeGreaterThan(0);
      const changed = new Set([...c.patch.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]));
      // The evidence lies outside the diff: that is what makes the case hard.
      for (const file of c.evidence!) {
        expect(changed.has(file), `${c.id}: ${file} is in its own diff`).toBe(false);
        expect(appFiles, `${c.id}: ${file}`).toContain(file);
      }
      if (c.kind === "bug") {
        expect(c.bugLines.length, c.id).toBeGreaterThan(0);
        expect(c.repro.length, c.id).toBeGreaterThan(0);
      }
    }
  });

  // Every test on the base; on a clean head the tests of the modules it changes (the whole suite
  // twelve times over is minutes on two cores, and a change reaches no other module's code).
  it("the application's own tests pass on the base and on every clean case's head", async () => {
    await nodeTest(HARD_APP_DIR);
    for (const c of cleans) {
      const m = await materialiseCase(c, path.join(work, "clean", c.id, "repo"), caseSource(c, ""));
      await nodeTest(m.repo, testsOf(c.patch)).catch((error: Error & { stdout?: string }) => {
        throw new Error(`${c.id}: the application's tests fail on its head\n${(error.stdout ?? "").split("\n").filter((l) => l.startsWith("not ok")).join("\n")}`);
      });
    }
  }, 900_000);

  it.skipIf(!sandbox.available)(`every case checks out and the scripted players score as they must: oracle 100 % with every bug reproduced, null 0 %${skipNote}`, async () => {
    const results = await runReviewSuite({
      cases,
      runs: 1,
      players: ["oracle", "null"],
      sandbox,
      from: (c) => caseSource(c, ""),
      proofBudget: { max: 5, seconds: 60 },
      concurrency: 2,
      timeoutMs: 120_000,
    });
    const broken = bugs.filter((c) => !results.find((r) => r.case === c.id && r.player === "oracle")?.findings.every((f) => f.reproduced));
    expect(broken.map((c) => c.id)).toEqual([]);
    expect(score("oracle", results, cases)).toMatchObject({ recall: 1, precision: 1, reproducedShare: 1, falseBlocks: { critical: 0, reproduced: 0 }, unfinished: 0 });
    expect(score("null", results, cases)).toMatchObject({ recall: 0, findings: 0, unfinished: 0 });
  }, 600_000);
});

// The hard set's application is copied into each case's repository whole: keep it free of anything but its sources.
it("the application folder holds no node_modules or git metadata", async () => {
  const top = await readdir(HARD_APP_DIR);
  expect(top).not.toContain("node_modules");
  expect(top).not.toContain(".git");
});
