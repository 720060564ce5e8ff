/**
 * Attacks on `prove`: a reproducer's files must stay inside the throwaway copy (no `..`, absolute
 * path, `.git` or symlink of the pull request takes them out), its command has no network,
 * whatever the repository's `sandbox.network` says, and a tree too large to copy is refused.
 */
import { lstat, mkdir, open, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COPY_LIMITS, proveTool } from "../../src/tools/prove.js";
import type { ProofSession } from "../../src/tools/proof-session.js";
import { detectSandbox } from "../../src/tools/sandbox.js";
import { ToolError, type ToolContext } from "../../src/tools/types.js";
import { makeWorkspace, treeHash, type Workspace } from "../tools/fixture.js";

const sandbox = await detectSandbox();
const skipNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;

describe.skipIf(!sandbox.available)(`prove attacks${skipNote}`, () => {
  let ws: Workspace;
  let session: ProofSession;
  let ctx: ToolContext;
  const run = (input: Record<string, unknown>, c: ToolContext = ctx) => proveTool.run(proveTool.schema.parse({ severity: "critical", ...input }), c);

  beforeEach(async () => {
    ws = await makeWorkspace(sandbox);
    const base = path.join(ws.base, "base");
    await mkdir(base);
    await writeFile(path.join(base, "README.md"), "# Fixture\n");
    session = { budget: { max: 5, seconds: 30 }, base: { sha: "b".repeat(40), tree: await realpath(base) }, workDir: path.join(ws.base, "work"), proofs: [] };
    ctx = ws.ctx("read-only", { proof: session });
  });
  afterEach(async () => ws.cleanup());
  afterAll(async () => rm("/tmp/escape.txt", { force: true }));

  it.each([
    ["..", "../escape.txt"],
    ["an absolute path", "/tmp/escape.txt"],
    [".git", ".git/hooks/pre-commit"],
    ["a symlinked directory of the PR", "link-dir-out/planted.txt"],
    ["a symlink of the PR as the file", "link-file-out"],
  ])("refuses a reproducer file through %s and writes nothing outside the copy", async (_what, p) => {
    const before = await treeHash(ws.outside);
    await expect(run({ finding: 0, files: [{ path: p, content: "x" }], command: "true" })).rejects.toThrow(ToolError);
    expect(await treeHash(ws.outside)).toBe(before);
    await expect(lstat("/tmp/escape.txt")).rejects.toThrow();
  });

  it("a pull request's sparse file larger than a copy may hold is refused before a byte of it is copied", async () => {
    // Sparse: it takes no room on this disk, and claims more than COPY_LIMITS.maxBytes.
    const huge = await open(path.join(ws.root, "huge.bin"), "w");
    await huge.truncate(COPY_LIMITS.maxBytes + 1024 * 1024);
    await huge.close();
    const res = await run({ finding: 0, command: "true" });
    expect(res.output).toMatch(/^Finding 0: ERROR — not proved: the checkout is over 1024 MB to copy\./);
    expect(session.proofs[0]).toMatchObject({ outcome: "error", head: { exitCode: null } });
    expect(await readdir(session.workDir)).toEqual([]);
  }, 60_000);

  describe("network off", () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((sock) => {
        connections++;
        sock.end("hello-from-host\n");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => new Promise<void>((r) => server.close(() => r())));

    it("a reproducer cannot reach a loopback server on the host, even with sandbox.network on", async () => {
      const res = await run({ finding: 0, command: `timeout 5 bash -c 'cat < /dev/tcp/127.0.0.1/${port}'; cat /proc/net/dev` }, { ...ctx, network: true });
      // No interface but lo: not even the egress-only namespace "network on" would bring.
      expect(session.proofs[0]!.head.tail).not.toMatch(/tap\d|eth\d|ens\d|enp\d/);
      expect(session.proofs[0]!.head.tail).toMatch(/Network is unreachable|Connection refused/);
      expect(session.proofs[0]!.head.tail).not.toContain("hello-from-host");
      expect(res.output).not.toContain("hello-from-host");
      expect(connections).toBe(0);
    }, 60_000);
  });
});
