import { lstat, mkdir, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolsFor } from "../../src/tools/index.js";
import { toolSpec } from "../../src/tools/schema.js";
import { COPY_LIMITS, proofOutcome, proveTool } from "../../src/tools/prove.js";
import type { ProofSession } from "../../src/tools/proof-session.js";
import { roleTools } from "../../src/agent/roles.js";
import { detectSandbox } from "../../src/tools/sandbox.js";
import type { SandboxInfo, ToolContext } from "../../src/tools/types.js";
import { makeWorkspace, treeHash, type Workspace } from "./fixture.js";

const sandbox = await detectSandbox();
const skipNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;

// The PR's code: `add` is broken on the head (a - b); the base tree has it right.
const HEAD_LIB = "export const add = (a, b) => a - b;\n";
const BASE_LIB = "export const add = (a, b) => a + b;\n";
const REPRO = {
  path: "test/repro.test.mjs",
  content: "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../lib.mjs';\ntest('adds', () => assert.strictEqual(add(2, 2), 4));\n",
};

describe.skipIf(!sandbox.available)(`prove${skipNote}`, () => {
  let ws: Workspace;
  let session: ProofSession;
  let ctx: ToolContext;
  const run = (input: Record<string, unknown>, c: ToolContext = ctx) => proveTool.run(proveTool.schema.parse({ severity: "critical", ...input }), c);

  beforeEach(async () => {
    ws = await makeWorkspace(sandbox);
    await writeFile(path.join(ws.root, "lib.mjs"), HEAD_LIB);
    const base = path.join(ws.base, "base");
    await mkdir(base);
    await writeFile(path.join(base, "lib.mjs"), BASE_LIB);
    await writeFile(path.join(base, "README.md"), "# Fixture\n");
    session = { budget: { max: 5, seconds: 30 }, base: { sha: "b".repeat(40), tree: await realpath(base) }, workDir: path.join(ws.base, "work"), proofs: [] };
    ctx = ws.ctx("read-only", { proof: session });
  });
  afterEach(async () => ws.cleanup());

  it("reproduced: the command fails on the head and passes on the base; outputs kept as artifacts; the checkout untouched", async () => {
    const before = await treeHash(ws.root);
    const res = await run({ finding: 0, files: [REPRO], command: "node --test test/repro.test.mjs", behaviourChange: true });
    expect(res.isError).toBe(false);
    expect(res.output).toMatch(/^Finding 0: REPRODUCED — the command failed on the head \(exit code 1\) and passed on the base\./);
    expect(session.proofs).toHaveLength(1);
    const proof = session.proofs[0]!;
    expect(proof).toMatchObject({ finding: 0, outcome: "reproduced", behaviourChange: true, head: { exitCode: 1 }, base: { exitCode: 0 } });
    expect(proof.head.tail).toMatch(/AssertionError|Expected values to be strictly equal/);
    // The model reads exit codes and the first failure; the record keeps the tail as it ran.
    expect(res.output).toMatch(/^## head: exit code 1\n(not ok|✖)/m);
    expect(res.output).toMatch(/^## base: exit code 0$/m);
    expect(res.output).not.toMatch(/proof-1\/(head|base)|node:internal/);
    expect(await treeHash(ws.root)).toBe(before);
    expect(await readdir(path.join(ws.root, "test")).catch(() => "absent")).toBe("absent");
    // The copies are gone; the record of the proof stays with the job's artifacts.
    expect(await readdir(session.workDir)).toEqual([]);
    expect(JSON.parse(await readFile(path.join(ws.artifacts, "proof-1.json"), "utf8"))).toMatchObject({ outcome: "reproduced", head: { exitCode: 1 } });
  }, 60_000);

  it("reproduced without behaviourChange says whether the base fails too", async () => {
    const res = await run({ finding: 2, files: [{ path: "check.sh", content: "grep -q 'a + b' lib.mjs\n" }], command: "bash check.sh" });
    expect(res.output).toMatch(/^Finding 2: REPRODUCED — the command failed on the head \(exit code 1\); it passes on the base\./);
  }, 60_000);

  it("not reproduced: the command passes on the head", async () => {
    const res = await run({ finding: 1, command: "node -e 'process.exit(0)'" });
    expect(res.output).toMatch(/^Finding 1: NOT REPRODUCED — the command passed on the head\./);
    expect(session.proofs[0]).toMatchObject({ outcome: "not reproduced", head: { exitCode: 0 } });
    expect(session.proofs[0]!.base).toBeUndefined();
  }, 60_000);

  it("not reproduced: a change of behaviour that fails on the base too", async () => {
    const res = await run({ finding: 0, command: "false", behaviourChange: true });
    expect(res.output).toMatch(/NOT REPRODUCED — the command fails on the base too \(exit code 1\): not a change of this pull request/);
  }, 60_000);

  it.each([
    ["a command that is not there", { command: "no-such-program --flag" }, /ERROR — on the head: command not found \(exit code 127\)/],
    ["a command past review.proofBudget.seconds", { command: "sleep 30" }, /ERROR — on the head: timed out after 2 s \(review.proofBudget.seconds\)/],
  ])("error: %s", async (_what, input, expected) => {
    session.budget.seconds = 2;
    const res = await run({ finding: 0, ...input });
    expect(res.isError).toBe(true);
    expect(res.output).toMatch(expected);
    expect(session.proofs[0]!.outcome).toBe("error");
  }, 60_000);

  it("error: the sandbox refuses (no OS sandbox) — nothing runs", async () => {
    const off: SandboxInfo = { available: false, reason: "disabled in this test" };
    await expect(run({ finding: 0, command: "true" }, { ...ctx, sandbox: off })).rejects.toThrow(/prove is not available: it needs the OS sandbox/);
  });

  it("over budget: a proof past review.proofBudget.max is refused and runs nothing", async () => {
    session.budget.max = 2;
    await run({ finding: 0, command: "true" });
    await run({ finding: 1, command: "true" });
    const marker = path.join(ws.base, "ran");
    await expect(run({ finding: 2, command: `touch ${marker}` })).rejects.toThrow(/proof budget of this review is spent \(2 proofs, review.proofBudget.max\)/);
    expect(session.proofs).toHaveLength(2);
    await expect(lstat(marker)).rejects.toThrow();
  }, 60_000);

  it("a checkout over the copy's limit of files is refused before anything is copied or run", async () => {
    session.copyLimits = { maxBytes: COPY_LIMITS.maxBytes, maxEntries: 200 };
    await mkdir(path.join(ws.root, "many"));
    for (let i = 0; i < 300; i++) await writeFile(path.join(ws.root, "many", `f${i}`), "");
    const res = await run({ finding: 0, command: "true" });
    expect(res.isError).toBe(true);
    expect(res.output).toMatch(/^Finding 0: ERROR — not proved: the checkout is over 200 files and folders to copy\./);
    expect(session.proofs[0]).toMatchObject({ outcome: "error", head: { exitCode: null, problem: "the checkout is over 200 files and folders to copy" } });
    expect(session.proofs[0]!.base).toBeUndefined();
    expect(await readdir(session.workDir)).toEqual([]);
  }, 60_000);

  it("stops copying a large checkout when the review is cancelled, and removes what it copied", async () => {
    const total = 3000;
    await mkdir(path.join(ws.root, "many"));
    for (let i = 0; i < total; i++) await writeFile(path.join(ws.root, "many", `f${i}`), "x");
    const controller = new AbortController();
    const copied = path.join(session.workDir, "proof-1", "head", "many");
    let most = 0;
    let done = false;
    const proving = run({ finding: 0, command: "true" }, { ...ctx, signal: controller.signal }).finally(() => (done = true));
    // Cancelled once the copy is under way; what it copied is watched until the tool returns.
    while (!done) {
      const n = (await readdir(copied).catch(() => [])).length;
      most = Math.max(most, n);
      if (n >= 50 && !controller.signal.aborted) controller.abort({ kind: "cancelled" });
      await new Promise((r) => setTimeout(r, 2));
    }
    const res = await proving;
    expect(controller.signal.aborted).toBe(true);
    expect(res.output).toMatch(/^Finding 0: ERROR — not proved: cancelled while the checkout was copied\./);
    expect(most).toBeLessThan(total);
    expect(await readdir(session.workDir)).toEqual([]);
  }, 60_000);

  it("a fork's pull request: no session, so the tool refuses, and toolsFor never offers it on a stranger's checkout", async () => {
    await expect(run({ finding: 0, command: "true" }, ws.ctx("read-only"))).rejects.toThrow(/prove is not available for this review/);
    const names = (o: Parameters<typeof toolsFor>[1]) => toolsFor("read-only", o).tools.map((t) => t.name);
    expect(names({ trust: "trusted", sandbox, roleTools: roleTools("reviewer"), prove: true })).toContain("prove");
    expect(names({ sandbox, roleTools: roleTools("reviewer"), prove: true, trust: "stranger" })).not.toContain("prove");
    expect(names({ trust: "trusted", sandbox, roleTools: roleTools("reviewer"), prove: false })).not.toContain("prove");
    expect(names({ trust: "trusted", sandbox, roleTools: roleTools("planner"), prove: true })).not.toContain("prove");
    expect(names({ trust: "trusted", sandbox, roleTools: roleTools("reviewer"), prove: true, allow: ["read", "grep"] })).not.toContain("prove");
    expect(names({ trust: "trusted", sandbox: { available: false, reason: "x" }, roleTools: roleTools("reviewer"), prove: true })).not.toContain("prove");
    expect(toolsFor("write", { trust: "trusted", sandbox, roleTools: roleTools("reviewer"), prove: true }).tools.map((t) => t.name)).not.toContain("prove");
  });

});

describe("prove's words to the model", () => {
  const spec = toolSpec(proveTool);
  const flag = (spec.input_schema.properties as Record<string, { description?: string }>).behaviourChange!.description!;

  it("calls behaviourChange a flag on the finding, not a condition the command must meet", () => {
    expect(flag).toMatch(/^A flag on the finding: true marks it a regression/);
    expect(flag).not.toMatch(/the command must/);
  });

  it("proves critical and warning findings only: the severity is required, and a suggestion is refused before anything runs", () => {
    expect(spec.input_schema.required).toContain("severity");
    expect((spec.input_schema.properties as Record<string, { enum?: string[] }>).severity!.enum).toEqual(["critical", "warning"]);
    expect(proveTool.schema.safeParse({ finding: 0, command: "true", severity: "suggestion" }).success).toBe(false);
    expect(proveTool.schema.safeParse({ finding: 0, command: "true" }).success).toBe(false);
  });

  it("names a plain node script as fine where the repository has no test runner", () => {
    expect(spec.description).toMatch(/no test runner, a plain `node` script is fine/);
  });
});

describe("proofOutcome", () => {
  const ran = (exitCode: number | null, problem?: string) => ({ exitCode, tail: "", ...(problem ? { problem } : {}) });
  it.each<[string, boolean, ReturnType<typeof ran>, ReturnType<typeof ran> | undefined, string]>([
    ["fails on head", false, ran(1), undefined, "reproduced"],
    ["fails on head, base failed too", false, ran(1), ran(1), "reproduced"],
    ["passes on head", false, ran(0), undefined, "not reproduced"],
    ["behaviour: fails on head, passes on base", true, ran(1), ran(0), "reproduced"],
    ["behaviour: fails on both", true, ran(2), ran(2), "not reproduced"],
    ["behaviour: no base", true, ran(1), undefined, "error"],
    ["behaviour: base timed out", true, ran(1), ran(null, "timed out"), "error"],
    ["head could not start", false, ran(null, "could not start"), undefined, "error"],
    ["head: command not found", true, ran(127, "command not found (exit code 127)"), undefined, "error"],
  ])("%s → %s", (_what, behaviourChange, head, base, outcome) => {
    expect(proofOutcome(behaviourChange, head, base).outcome).toBe(outcome);
  });
});

