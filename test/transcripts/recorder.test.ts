import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactNameIn, OUTPUT_TAIL_CHARS, TranscriptRecorder } from "../../src/transcripts/recorder.js";
import { SqliteTranscriptStore } from "../../src/store/sqlite/transcripts.js";
import type { StoredEntry, TranscriptStore } from "../../src/transcripts/types.js";
import type { JobRecord } from "../../src/queue/types.js";
import { tempDir } from "../helpers/git-repo.js";

const JOB_TOKEN = `ghs_${"J0bT0ken".repeat(5)}`;
const OPERATOR = "operator-secret-of-no-known-shape";
const PAT = `ghp_${"a1".repeat(18)}`;

const job = { id: "job-1", kind: "plan", target: { installationId: 1, owner: "acme", repo: "open", number: 3, isPullRequest: false }, trigger: { sender: "octocat", request: `/plan use ${OPERATOR}` }, subject: { title: "T", body: "", author: "octocat" } } as unknown as JobRecord;

async function setup() {
  const dataDir = await tempDir("crewbot-rec-");
  const store = new SqliteTranscriptStore({ dataDir });
  const recorder = new TranscriptRecorder({ store, dataDir, secrets: [OPERATOR], flushMs: 10 });
  return { dataDir, store, recorder };
}

const json = (entries: StoredEntry[]) => JSON.stringify(entries);

describe("TranscriptRecorder", () => {
  it("redacts the job's token, the operator's secrets and known token shapes from every entry", async () => {
    const { store, recorder } = await setup();
    recorder.begin(job, [JOB_TOKEN]);
    recorder.append(job.id, { type: "step_start", index: 1, agent: "scout" });
    recorder.append(job.id, { type: "tool_start", agent: "scout", id: "t1", name: "bash", args: `curl -H "Authorization: ${JOB_TOKEN}"` });
    recorder.append(job.id, { type: "tool_end", agent: "scout", id: "t1", name: "bash", ok: true, ms: 12, output: `env: ${OPERATOR} ${PAT}` });
    // A secret split across text deltas is still caught: deltas are joined before redaction.
    recorder.append(job.id, { type: "text", agent: "scout", text: `The token is ${JOB_TOKEN.slice(0, 10)}` });
    recorder.append(job.id, { type: "text", agent: "scout", text: `${JOB_TOKEN.slice(10)} ok` });
    recorder.append(job.id, { type: "log", agent: "scout", level: "warn", message: `failed with ${JOB_TOKEN}` });
    recorder.append(job.id, { type: "step_end", index: 1, agent: "scout", stopReason: "done", output: `report ${OPERATOR}` });
    await recorder.end(job.id, { kind: "done" }, "✅ Done · 1s");
    const entries = await store.read(job.id);
    const text = json(entries);
    expect(text).not.toContain(JOB_TOKEN);
    expect(text).not.toContain(JOB_TOKEN.slice(4, 20));
    expect(text).not.toContain(OPERATOR);
    expect(text).not.toContain(PAT);
    expect(text).toContain("[redacted]");
    expect(entries.map((e) => e.type)).toEqual(["job_start", "step_start", "tool_start", "tool_end", "text", "log", "step_end", "job_end"]);
    expect(entries[0]).toMatchObject({ type: "job_start", sender: "octocat", repo: "acme/open", number: 3, request: "/plan use [redacted]" });
    expect(entries[4]).toMatchObject({ type: "text", text: "The token is [redacted] ok" });
    expect(entries[7]).toMatchObject({ type: "job_end", terminal: "done", outcome: "✅ Done · 1s" });
  });

  it("keeps the tail of a long output and leaves the whole of it, redacted, in the job's artifacts", async () => {
    const { dataDir, store, recorder } = await setup();
    recorder.begin(job, [JOB_TOKEN]);
    const long = `${JOB_TOKEN}\n${"line of output\n".repeat(2000)}the end`;
    recorder.append(job.id, { type: "tool_start", agent: "worker", id: "toolu_01/x", name: "read", args: "big.txt" });
    recorder.append(job.id, { type: "tool_end", agent: "worker", id: "toolu_01/x", name: "read", ok: true, ms: 5, output: long });
    await recorder.end(job.id, { kind: "done" }, "✅ Done");
    const end = (await store.read(job.id)).find((e) => e.type === "tool_end") as Extract<StoredEntry, { type: "tool_end" }>;
    expect(end.output.length).toBe(OUTPUT_TAIL_CHARS);
    expect(end.output.endsWith("the end")).toBe(true);
    expect(end.outputBytes).toBe(Buffer.byteLength(long));
    expect(end.artifact).toBe("tool-toolu_01_x.log");
    const saved = await readFile(path.join(dataDir, "jobs", job.id, "artifacts", end.artifact!), "utf8");
    expect(saved.startsWith("[redacted]\nline of output")).toBe(true);
    expect(saved).not.toContain(JOB_TOKEN);
  });

  it("keeps the parallel item of each event, and never joins text deltas of two items", async () => {
    const { store, recorder } = await setup();
    recorder.append(job.id, { type: "step_start", index: 0, agent: "scout + scout", items: [{ agent: "scout", task: "a" }, { agent: "scout", task: "b" }] });
    recorder.append(job.id, { type: "text", agent: "scout", item: 1, text: "one " });
    recorder.append(job.id, { type: "text", agent: "scout", item: 2, text: "two " });
    recorder.append(job.id, { type: "text", agent: "scout", item: 2, text: "more" });
    recorder.append(job.id, { type: "tool_start", agent: "scout", item: 1, id: "t1", name: "ls", args: "ls ." });
    recorder.append(job.id, { type: "tool_end", agent: "scout", item: 1, id: "t1", name: "ls", ok: true, ms: 1, output: "a" });
    await recorder.end(job.id, { kind: "done" }, "✅ Done");
    const entries = await store.read(job.id);
    expect(entries.map((e) => [e.type, "item" in e ? e.item : undefined, "text" in e ? e.text : undefined])).toEqual([
      ["step_start", undefined, undefined],
      ["text", 1, "one "],
      ["text", 2, "two more"],
      ["tool_start", 1, undefined],
      ["tool_end", 1, undefined],
      ["job_end", undefined, undefined],
    ]);
    expect(entries[0]).toMatchObject({ items: [{ agent: "scout", task: "a" }, { agent: "scout", task: "b" }] });
  });

  it("names the artifact a tool already saved instead of writing another", async () => {
    const { dataDir, store, recorder } = await setup();
    const output = `${"x".repeat(OUTPUT_TAIL_CHARS + 10)}\n[Full output saved to ${dataDir}/jobs/job-1/artifacts/bash-2026-01-01T00-00-00-000Z-abcd1234.log; read it with the read tool]`;
    recorder.append(job.id, { type: "tool_end", agent: "worker", id: "t9", name: "bash", ok: false, ms: 1500, output });
    await recorder.flush(job.id);
    const [end] = await store.read(job.id);
    expect(end).toMatchObject({ type: "tool_end", ok: false, ms: 1500, artifact: "bash-2026-01-01T00-00-00-000Z-abcd1234.log" });
    expect(existsSync(path.join(dataDir, "jobs", job.id, "artifacts", "tool-t9.log"))).toBe(false);
    expect(artifactNameIn("/data/jobs/job-1/artifacts/../../etc/passwd", "job-1")).toBeUndefined();
    expect(artifactNameIn("/data/jobs/other/artifacts/a.log", "job-1")).toBeUndefined();
  });

  it("writes in batches while the job runs, and never throws when the store fails", async () => {
    const { store, recorder } = await setup();
    recorder.append(job.id, { type: "turn_start", agent: "scout", turn: 1 });
    recorder.append(job.id, { type: "text", agent: "scout", text: "Looking " });
    recorder.append(job.id, { type: "text", agent: "scout", text: "around" });
    await new Promise((r) => setTimeout(r, 60));
    // Without an end, the timer wrote what it had (the last, maybe unfinished, word is held back).
    expect((await store.read(job.id)).map((e) => e.type)).toEqual(["turn_start", "text"]);
    expect((await store.read(job.id))[1]).toMatchObject({ text: "Looking " });

    const warnings: string[] = [];
    const broken: TranscriptStore = { append: async () => Promise.reject(new Error("disk full")), read: async () => [], prune: async () => [], close: async () => {} };
    const failing = new TranscriptRecorder({ store: broken, dataDir: "/nonexistent", secrets: [], log: { warn: (m) => warnings.push(m) } });
    failing.append("job-2", { type: "turn_start", agent: "scout", turn: 1 });
    await expect(failing.end("job-2", { kind: "failed", reason: "x" }, "❌ Failed: x")).resolves.toBeUndefined();
    expect(warnings).toEqual(["transcript of job-2: disk full"]);
  });
});
