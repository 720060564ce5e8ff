/**
 * The job's `local://` scratch space on the transcript page: listed with links, each file served as
 * plain text only to those who may see the transcript, confined to that job's scratch folder.
 */
import { request } from "node:http";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scratchPathInArgs } from "../../src/web/artifacts.js";
import { get, OPERATOR_SECRET, signIn, startWebFixture, type WebFixture } from "./fixture.js";

let fx: WebFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** A request whose path goes out exactly as written: fetch's URL parser would fold `..` and `%2e%2e` first. */
function rawGet(base: string, rawPath: string, cookie: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: rawPath, headers: { cookie } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const HTML_NAME = `<img src=x onerror=alert(1)>.md`;

/** A finished job whose scout left notes, plus things around its scratch folder that must stay out of reach. */
async function jobWithScratch(f: WebFixture): Promise<{ local: string }> {
  f.jobs.add("job-1", "acme/open", "succeeded");
  f.jobs.add("job-2", "acme/secret", "succeeded");
  const local = path.join(f.dataDir, "jobs", "job-1", "artifacts", "local");
  await mkdir(path.join(local, "sub"), { recursive: true });
  await writeFile(path.join(local, "notes.md"), `# Notes\n<script>alert(1)</script>\ntoken ${OPERATOR_SECRET}\n`);
  await writeFile(path.join(local, "sub", "api.md"), "the API is in src/api\n");
  await writeFile(path.join(local, HTML_NAME), "a file with a hostile name\n");
  await writeFile(path.join(local, `key-${OPERATOR_SECRET}.txt`), "named after a secret\n");
  await writeFile(path.join(f.dataDir, "outside.txt"), "OUTSIDE");
  await mkdir(path.join(f.dataDir, "jobs", "job-2", "artifacts", "local"), { recursive: true });
  await writeFile(path.join(f.dataDir, "jobs", "job-2", "artifacts", "local", "theirs.md"), "OTHER JOB");
  await writeFile(path.join(f.dataDir, "jobs", "job-1", "artifacts", "top.log"), "top-level artifact");
  await symlink(path.join(f.dataDir, "outside.txt"), path.join(local, "link.md"));
  await symlink(path.join(f.dataDir, "jobs", "job-2", "artifacts", "local"), path.join(local, "elsewhere"));
  const r = f.recorder;
  r.append("job-1", { type: "step_start", index: 0, agent: "scout" });
  r.append("job-1", { type: "tool_start", agent: "scout", id: "t1", name: "scratch_write", args: "scratch_write local://notes.md" });
  r.append("job-1", { type: "tool_end", agent: "scout", id: "t1", name: "scratch_write", ok: true, ms: 2, output: "Created local://notes.md (40 bytes)." });
  r.append("job-1", { type: "tool_start", agent: "scout", id: "t2", name: "scratch_write", args: "scratch_write local://../x" });
  r.append("job-1", { type: "tool_end", agent: "scout", id: "t2", name: "scratch_write", ok: false, ms: 1, output: "Refused path" });
  r.append("job-1", { type: "step_end", index: 0, agent: "scout", stopReason: "done", output: "see local://notes.md" });
  r.append("job-1", { type: "step_start", index: 1, agent: "worker" });
  r.append("job-1", { type: "tool_start", agent: "worker", id: "t3", name: "read", args: "read local://sub/api.md:5" });
  r.append("job-1", { type: "tool_end", agent: "worker", id: "t3", name: "read", ok: true, ms: 1, output: "the API is in src/api" });
  r.append("job-1", { type: "tool_start", agent: "worker", id: "t4", name: "write", args: "write src/api.ts" });
  r.append("job-1", { type: "tool_end", agent: "worker", id: "t4", name: "write", ok: true, ms: 1, output: "Created src/api.ts" });
  await r.end("job-1", { kind: "done" }, "✅ Done");
  return { local };
}

describe("the scratch space on the transcript page", () => {
  it("lists the job's scratch files with links, names escaped, symlinks left out", async () => {
    fx = await startWebFixture();
    await jobWithScratch(fx);
    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/jobs/job-1`, cookie)).text();
    const listed = [...html.matchAll(/<a class="scratch" href="([^"]+)">local:\/\/([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(listed).toEqual([
      ["/jobs/job-1/artifacts/local/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.md", "&lt;img src=x onerror=alert(1)&gt;.md"],
      ["/jobs/job-1/artifacts/local/notes.md", "notes.md"],
      ["/jobs/job-1/artifacts/local/sub/api.md", "sub/api.md"],
    ]);
    expect(html).not.toContain("<img src=x");
    // A name holding a secret is shown redacted, without a link that would carry it.
    expect(html).toContain("<li>local://key-[redacted].txt <span");
    expect(html).not.toContain(OPERATOR_SECRET);
    expect(html).not.toContain("link.md");
    // Each listed link opens its file.
    const hostile = await get(`${fx.url}/jobs/job-1/artifacts/local/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.md`, cookie);
    expect(hostile.status).toBe(200);
    expect(await hostile.text()).toBe("a file with a hostile name\n");
  });

  it("links the tool calls that name a local:// file to it, not failed ones nor checkout paths", async () => {
    fx = await startWebFixture();
    await jobWithScratch(fx);
    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/jobs/job-1`, cookie)).text();
    const toolLinks = [...html.matchAll(/<li id="[^"]+" class="tool[^"]*" data-tool="([^"]+)"><div class="tool-h">(.*?)<\/div>/g)].map((m) => [
      m[1],
      /<a class="scratch" href="([^"]+)">/.exec(m[2]!)?.[1],
    ]);
    expect(toolLinks).toEqual([
      ["scratch_write", "/jobs/job-1/artifacts/local/notes.md"],
      ["scratch_write", undefined],
      ["read", "/jobs/job-1/artifacts/local/sub/api.md"],
      ["write", undefined],
    ]);
  });

  it("serves a scratch file as redacted plain text that no browser renders", async () => {
    fx = await startWebFixture();
    await jobWithScratch(fx);
    const cookie = await signIn(fx);
    const res = await get(`${fx.url}/jobs/job-1/artifacts/local/notes.md`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(await res.text()).toBe("# Notes\n<script>alert(1)</script>\ntoken [redacted]\n");
    expect(await (await get(`${fx.url}/jobs/job-1/artifacts/local/sub/api.md`, cookie)).text()).toBe("the API is in src/api\n");
    // The top-level artifacts are still served as before.
    expect(await (await get(`${fx.url}/jobs/job-1/artifacts/top.log`, cookie)).text()).toBe("top-level artifact");
  });

  it.each([
    ["dot-dot", "/jobs/job-1/artifacts/local/../../../../outside.txt"],
    ["dot-dot into another job", "/jobs/job-1/artifacts/local/../../../job-2/artifacts/local/theirs.md"],
    ["encoded dot-dot", "/jobs/job-1/artifacts/local/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside.txt"],
    ["encoded slashes", "/jobs/job-1/artifacts/local/..%2F..%2F..%2F..%2Foutside.txt"],
    ["an absolute path", "/jobs/job-1/artifacts/local/%2Fetc%2Fpasswd"],
    ["an empty segment", "/jobs/job-1/artifacts/local//etc/passwd"],
    ["a backslash", "/jobs/job-1/artifacts/local/..%5C..%5Coutside.txt"],
    ["a NUL byte", "/jobs/job-1/artifacts/local/notes.md%00"],
    ["a symlink out of the space", "/jobs/job-1/artifacts/local/link.md"],
    ["a symlinked folder into another job", "/jobs/job-1/artifacts/local/elsewhere/theirs.md"],
    ["a directory", "/jobs/job-1/artifacts/local/sub"],
    ["the space itself", "/jobs/job-1/artifacts/local"],
    ["a missing file", "/jobs/job-1/artifacts/local/nope.md"],
    ["a nested path outside local", "/jobs/job-1/artifacts/other/notes.md"],
  ])("refuses %s with 404", async (_, rawPath) => {
    fx = await startWebFixture();
    await jobWithScratch(fx);
    const cookie = await signIn(fx);
    const res = await rawGet(fx.url, rawPath, cookie);
    expect(res.status).toBe(404);
    expect(res.body).not.toMatch(/OUTSIDE|OTHER JOB|root:/);
  });

  it("gates the scratch files like the transcript: sign-in first, and 404 to a user who cannot read the repository", async () => {
    fx = await startWebFixture({ readable: ["acme/open"] });
    await jobWithScratch(fx);
    const anonymous = await get(`${fx.url}/jobs/job-1/artifacts/local/notes.md`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/auth/login?next=%2Fjobs%2Fjob-1%2Fartifacts%2Flocal%2Fnotes.md");
    const cookie = await signIn(fx);
    expect((await get(`${fx.url}/jobs/job-2/artifacts/local/theirs.md`, cookie)).status).toBe(404);
    // Someone signed in who cannot read acme/open.
    const other = await startWebFixture({ readable: [] });
    try {
      await jobWithScratch(other);
      const outsider = await signIn(other);
      expect((await get(`${other.url}/jobs/job-1/artifacts/local/notes.md`, outsider)).status).toBe(404);
      expect((await get(`${other.url}/jobs/job-1`, outsider)).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe("the scratch space of a public transcript", () => {
  it("opens without sign-in, like the transcript, and only the job's own files", async () => {
    fx = await startWebFixture({ publicRepos: ["acme/public"] });
    const job = fx.jobs.add("job-pub", "acme/public", "succeeded", { repo: { cloneUrl: "https://github.com/acme/public.git", defaultBranch: "main", private: false } });
    fx.recorder.begin(job);
    fx.recorder.makePublic("job-pub");
    await fx.recorder.end("job-pub", { kind: "done" }, "✅ Done");
    const local = path.join(fx.dataDir, "jobs", "job-pub", "artifacts", "local");
    await mkdir(local, { recursive: true });
    await writeFile(path.join(local, "notes.md"), "public notes\n");
    await writeFile(path.join(fx.dataDir, "outside.txt"), "OUTSIDE");
    const page = await (await get(`${fx.url}/jobs/job-pub`)).text();
    expect(page).toContain(`<a class="scratch" href="/jobs/job-pub/artifacts/local/notes.md">local://notes.md</a>`);
    expect(await (await get(`${fx.url}/jobs/job-pub/artifacts/local/notes.md`)).text()).toBe("public notes\n");
    expect((await rawGet(fx.url, "/jobs/job-pub/artifacts/local/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside.txt", "")).status).toBe(404);
  });
});

describe("which scratch file a tool call names", () => {
  it.each([
    ["scratch_write", "scratch_write local://notes.md", "notes.md"],
    ["write", "write local://a/b.md", "a/b.md"],
    ["edit", "edit local://./a/../b.md", "b.md"],
    ["read", "read local://notes.md:20", "notes.md"],
    ["read", "read local://notes.md", "notes.md"],
    ["read", "read src/notes.md", undefined],
    ["write", "write src/local://x", undefined],
    ["scratch_write", "scratch_write local://../x", undefined],
    ["scratch_write", "scratch_write local:///etc/passwd", undefined],
    ["scratch_write", "scratch_write local://", undefined],
    ["read", `read local://${"a".repeat(150)}…`, undefined],
    ["bash", "bash cat local://notes.md", undefined],
    ["ls", "ls local://", undefined],
  ])("%s %j → %j", (tool, args, expected) => {
    expect(scratchPathInArgs(tool, args)).toBe(expected);
  });
});
