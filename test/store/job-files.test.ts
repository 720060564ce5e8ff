/**
 * A job's files through the shared store (a real redis-server): what one worker's data dir has, another
 * process's gets back — capped, symlinks never copied or followed, names that would leave the job's
 * artifacts refused, and a process's own files never replaced.
 */
import { mkdir, readFile, symlink, writeFile, utimes, lstat } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RedisJobFiles } from "../../src/store/redis/job-files.js";
import { cutNote, isSharedName, JobFiles, MAX_SHARED_FILE_BYTES, MAX_SHARED_JOB_BYTES, MAX_SHARED_PATCH_BYTES, sharePlan } from "../../src/transcripts/job-files.js";
import { tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());
const opened: RedisJobFiles[] = [];
afterEach(async () => void (await Promise.all(opened.splice(0).map((s) => s.close()))));

function store(prefix = `crewbot-test:files-${Math.random().toString(36).slice(2, 8)}`): RedisJobFiles {
  const s = new RedisJobFiles({ url: server.url, prefix, retentionDays: 1 });
  opened.push(s);
  return s;
}

const artifacts = (dataDir: string, jobId: string) => path.join(dataDir, "jobs", jobId, "artifacts");

async function put(dataDir: string, jobId: string, name: string, content: string | Buffer): Promise<void> {
  const file = path.join(artifacts(dataDir, jobId), ...name.split("/"));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

describe("the shared job files", () => {
  it("bring a worker's artifacts, scratch files and refused commits to another process, the big ones cut with a note", async () => {
    const shared = store();
    const [workerDir, appDir] = [await tempDataDir(), await tempDataDir()];
    const big = Buffer.concat([Buffer.alloc(2 * MAX_SHARED_FILE_BYTES, "a"), Buffer.from("the end\n")]);
    const patch = Buffer.alloc(2 * MAX_SHARED_FILE_BYTES, "p");
    await put(workerDir, "job1", "tool-1-bash.txt", "full output\n");
    await put(workerDir, "job1", "check-log-5.log", big);
    await put(workerDir, "job1", "commits.patch", patch);
    await put(workerDir, "job1", "local/notes/api.md", "# notes\n");
    await symlink("/etc/passwd", path.join(artifacts(workerDir, "job1"), "local", "passwd"));
    const worker = new JobFiles(shared, workerDir, "worker:a:1");
    expect(await worker.share("job1")).toBe(4);
    expect((await shared.list("job1")).map((f) => f.name).sort()).toEqual(["check-log-5.log", "commits.patch", "local/notes/api.md", "tool-1-bash.txt"]);
    expect(await worker.share("job1")).toBe(0); // nothing changed
    await put(workerDir, "job1", "local/notes/api.md", "# notes\nmore\n");
    expect(await worker.share("job1")).toBe(1);

    const app = new JobFiles(shared, appDir, "embedded:app");
    expect(await app.fetch("job1")).toBe(4);
    const got = (name: string) => readFile(path.join(artifacts(appDir, "job1"), ...name.split("/")));
    expect((await got("tool-1-bash.txt")).toString()).toBe("full output\n");
    expect((await got("local/notes/api.md")).toString()).toBe("# notes\nmore\n");
    expect((await got("commits.patch")).equals(patch)).toBe(true); // a patch is kept whole
    const log = await got("check-log-5.log");
    expect(log.toString().startsWith(cutNote(big.length, MAX_SHARED_FILE_BYTES, "worker:a:1"))).toBe(true);
    expect(log.toString().endsWith("the end\n")).toBe(true);
    expect(log.length).toBe(cutNote(big.length, MAX_SHARED_FILE_BYTES, "worker:a:1").length + MAX_SHARED_FILE_BYTES);
    await expect(lstat(path.join(artifacts(appDir, "job1"), "local", "passwd"))).rejects.toThrow();
    expect(await app.fetch("job1")).toBe(0); // nothing new

    // A change on the worker reaches the app's copy on its next look.
    await put(workerDir, "job1", "local/notes/api.md", "# notes\nmore\nand more\n");
    await worker.share("job1");
    expect(await app.fetch("job1")).toBe(1);
    expect((await got("local/notes/api.md")).toString()).toBe("# notes\nmore\nand more\n");
  });

  it("never replaces a process's own file, and writes nothing outside the job's artifacts", async () => {
    const shared = store();
    const dir = await tempDataDir();
    await put(dir, "job2", "tool-1.txt", "mine\n");
    await mkdir(path.join(artifacts(dir, "job2"), "local"), { recursive: true });
    await symlink(path.join(dir, "outside"), path.join(artifacts(dir, "job2"), "local", "out"));
    await mkdir(path.join(dir, "outside"));
    for (const name of ["tool-1.txt", "../../escape.txt", "local/../../escape.txt", "local/out/planted.txt", "/etc/x", ".hidden"]) await shared.put("job2", name, Buffer.from("theirs\n"), "v1");
    const files = new JobFiles(shared, dir, "w");
    expect(await files.fetch("job2")).toBe(0);
    expect(await readFile(path.join(artifacts(dir, "job2"), "tool-1.txt"), "utf8")).toBe("mine\n");
    await expect(lstat(path.join(dir, "jobs", "escape.txt"))).rejects.toThrow();
    await expect(lstat(path.join(dir, "outside", "planted.txt"))).rejects.toThrow();
  });

  it("a file of the store changed since the process fetched it is fetched again, and changed here it is shared again", async () => {
    const shared = store();
    const [one, two] = [await tempDataDir(), await tempDataDir()];
    await put(one, "job3", "local/a.md", "v1\n");
    await new JobFiles(shared, one, "one").share("job3");
    const resumed = new JobFiles(shared, two, "two");
    expect(await resumed.fetch("job3")).toBe(1);
    expect(await resumed.share("job3")).toBe(0); // the store's own copy, unchanged
    const file = path.join(artifacts(two, "job3"), "local", "a.md");
    await writeFile(file, "v2\n");
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    expect(await resumed.share("job3")).toBe(1);
    expect((await shared.get("job3", "local/a.md"))?.toString()).toBe("v2\n");
  });

  it("prunes jobs whose files were last written before the cut-off", async () => {
    const shared = store();
    await shared.put("old", "a.txt", Buffer.from("x"), "v");
    expect(await shared.prune(Date.now() - 60_000)).toBe(0);
    expect(await shared.prune(Date.now() + 1)).toBe(1);
    expect(await shared.list("old")).toEqual([]);
    expect(await shared.get("old", "a.txt")).toBeUndefined();
  });
});

describe("what the store keeps", () => {
  it.each<[string, number, number, { keep: number; cut: boolean }]>([
    ["tool-1.txt", 10, MAX_SHARED_JOB_BYTES, { keep: 10, cut: false }],
    ["tool-1.txt", MAX_SHARED_FILE_BYTES + 1, MAX_SHARED_JOB_BYTES, { keep: MAX_SHARED_FILE_BYTES, cut: true }],
    ["commits.patch", MAX_SHARED_PATCH_BYTES, MAX_SHARED_JOB_BYTES, { keep: MAX_SHARED_PATCH_BYTES, cut: false }],
    ["local/a.md", 500, 100, { keep: 100, cut: true }],
    ["local/a.md", 500, 0, { keep: 0, cut: true }],
  ])("%s of %i bytes with %i left", (name, bytes, left, expected) => {
    expect(sharePlan(name, bytes, left)).toEqual(expected);
  });

  it.each<[string, boolean]>([
    ["tool-1.txt", true],
    ["commits.patch", true],
    ["local/notes/api.md", true],
    ["local/.notes", true],
    ["local", false],
    ["local/", false],
    ["local/../x", false],
    ["../x", false],
    ["a/b.txt", false],
    [".hidden", false],
    ["local/.crewbot-fetch-123", false],
  ])("the name %s is shared: %s", (name, ok) => {
    expect(isSharedName(name)).toBe(ok);
  });
});
