import { mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { runChain } from "../../src/chain/run-chain.js";
import { findTool } from "../../src/tools/find.js";
import { lsTool } from "../../src/tools/ls.js";
import { readTool } from "../../src/tools/read.js";
import { MAX_SCRATCH_FILE_BYTES } from "../../src/tools/scratch-room.js";
import { scratchWriteTool } from "../../src/tools/scratch-write.js";
import type { ToolContext } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { fakeClient, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const call = (name: string, input: unknown) => ({ content: [{ type: "tool_use" as const, name, input }] });
const lastResult = (body: any) => JSON.stringify(body.messages.at(-1));

describe("the local:// scratch space", () => {
  it("a scout's scratch_write note is read by the worker, nothing of it reaches the checkout, and escapes are refused", async () => {
    const root = await makeRepo({ "README.md": "# r\n" });
    const artifactsDir = await tempDir();
    fake = await startFakeAnthropic([
      call("scratch_write", { path: "local://notes.md", content: "NOTE-FROM-SCOUT: README is tiny." }),
      call("scratch_write", { path: "README.md", content: "overwritten" }),
      call("read", { path: "local://../x" }),
      { text: "Scouted; notes in local://notes.md." },
      call("submit_plan", { goal: "Keep notes.", steps: ["Read the scout's notes"] }),
      call("read", { path: "local://notes.md" }),
      call("write", { path: "local://worker/log.md", content: "worker was here" }),
      call("ls", { path: "local://" }),
      { text: "[DONE:1]\n## Completed\nRead the notes." },
    ]);
    const { agents, chains } = await loadDefinitions();
    const result = await runChain({
      chain: chains.get("implement")!,
      agents,
      task: "take notes",
      mode: "write",
      trust: "trusted",
      workspace: { root, artifactsDir, scratchDir: await tempDir() },
      sandbox: { available: false, reason: "test" },
      budget: new BudgetTracker(DEFAULT_BUDGETS),
      client: fakeClient(fake.url),
    });
    expect(result.error).toBeUndefined();
    const reqs = fake.requests.map((r) => r.body);
    const scoutTools = reqs[0]!.tools.map((t: { name: string }) => t.name);
    expect(scoutTools).toContain("scratch_write");
    expect(scoutTools).not.toContain("write");
    expect(scoutTools).not.toContain("edit");
    expect(lastResult(reqs[1])).toContain("Created local://notes.md");
    expect(lastResult(reqs[2])).toMatch(/Refused path \\"README.md\\": scratch_write writes only local:\/\/ paths/);
    expect(lastResult(reqs[3])).toMatch(/Refused path \\"local:\/\/..\/x\\": it leaves the local:\/\/ scratch space/);
    expect(lastResult(reqs[6])).toContain("NOTE-FROM-SCOUT: README is tiny.");
    expect(lastResult(reqs[7])).toContain("Created local://worker/log.md");
    expect(lastResult(reqs[8])).toContain("notes.md\\nworker/");
    // Kept with the job's artifacts, outside the checkout: nothing to commit, README untouched.
    expect(await readFile(path.join(artifactsDir, "local", "notes.md"), "utf8")).toBe("NOTE-FROM-SCOUT: README is tiny.");
    expect(await readFile(path.join(artifactsDir, "local", "worker", "log.md"), "utf8")).toBe("worker was here");
    expect(gitSync(root, "status", "--porcelain")).toBe("");
    expect(await readFile(path.join(root, "README.md"), "utf8")).toBe("# r\n");
  });

  it("confines local:// paths like checkout paths: no parent, no absolute, no symlink out, a size cap", async () => {
    const root = await tempDir();
    const localDir = await tempDir();
    const outside = await tempDir();
    await symlink(outside, path.join(localDir, "out"));
    await mkdir(path.join(localDir, "sub"));
    const ctx = { root, localDir, readRoots: [], mode: "read-only", artifactsDir: root, scratchDir: root, signal: new AbortController().signal, sandbox: { available: false }, network: false, envAllowlist: {} } as ToolContext;
    const attempt = (tool: any, input: unknown) => tool.run(input, ctx).then((r: { output: string }) => r.output, (e: Error) => e.message);
    expect(await attempt(scratchWriteTool, { path: "local://out/x.md", content: "x" })).toMatch(/symlink that leads out of the local:\/\/ scratch space/);
    expect(await attempt(scratchWriteTool, { path: "local:///etc/x", content: "x" })).toMatch(/relative to the scratch space/);
    expect(await attempt(scratchWriteTool, { path: "local://sub/../../x", content: "x" })).toMatch(/leaves the local:\/\/ scratch space/);
    expect(await attempt(scratchWriteTool, { path: "local://big.md", content: "x".repeat(MAX_SCRATCH_FILE_BYTES + 1) })).toMatch(/would be 1048577 bytes; a scratch file holds at most 1\.0 MB/);
    expect(await attempt(scratchWriteTool, { path: "local://sub/a.md", content: "hello" })).toBe("Created local://sub/a.md (5 bytes).");
    expect(await attempt(readTool, { path: "local://sub/a.md" })).toContain("hello");
    expect(await attempt(findTool, { pattern: "**/*.md", path: "local://" })).toBe("local://sub/a.md");
    expect(await attempt(lsTool, { path: "local://sub" })).toBe("a.md");
    // Read-only steps have no write; the worker's write is refused in plan mode whatever the path.
    expect(await attempt(writeTool, { path: "local://w.md", content: "x" })).toMatch(/not available in read-only/);
    const noSpace = { ...ctx, localDir: undefined };
    expect(await readTool.run({ path: "local://sub/a.md" }, noSpace).catch((e: Error) => e.message)).toMatch(/no local:\/\/ scratch space/);
  });
});
