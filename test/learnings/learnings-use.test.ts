/**
 * The merged learnings as context (read from the default branch's files, capped, numbered) and
 * what a review applied of them (ids given only, counts, the report's line). Tables where pure.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEARNINGS_MAX_BYTES, LEARNINGS_SOURCE, learningsFor, learningsInSection, learningsSection, readRepoLearnings } from "../../src/context/learnings-context.js";
import { learningCounts, learningsApplied, learningsLine, recordLearningUses } from "../../src/review/learning-uses.js";
import { renderReviewCheck, reviewLines, type ReviewReport } from "../../src/review/render-review.js";
import { LEARNINGS_PATH } from "../../src/learnings/types.js";
import { readDefaultBranchFiles } from "../../src/jobs/default-branch.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { SqliteLearningsStore } from "../../src/store/sqlite/learnings.js";
import { commit, serve, TOKEN } from "../workspace/fixture.js";

const bullet = (id: string, text: string) => `- ${text} <!-- crewbot:learning:${id} -->`;

async function defaultsWith(content: string | { symlinkTo: string }) {
  const dir = await tempDir();
  await mkdir(path.join(dir, ".github/crewbot"), { recursive: true });
  if (typeof content === "string") await writeFile(path.join(dir, LEARNINGS_PATH), content);
  else await symlink(content.symlinkTo, path.join(dir, LEARNINGS_PATH));
  return dir;
}

describe("readRepoLearnings", () => {
  it("numbers each learning by its id, continuation lines kept, under the repository's learnings", async () => {
    const dir = await defaultsWith(`# crewbot learnings\n\n${bullet("0a1b2c3d", "In `src/db/**`, raw SQL is intended.")}\n- Two lines\n  of text.\n`);
    const got = await readRepoLearnings(dir, { files: [LEARNINGS_PATH], skipped: [] });
    expect(got.learnings.map((l) => l.id)).toEqual(["0a1b2c3d", expect.stringMatching(/^[0-9a-f]{8}$/)]);
    expect(got.section!.source).toBe(LEARNINGS_SOURCE);
    expect(got.section!.text.split("\n").slice(-3)).toEqual(["[L:0a1b2c3d] In `src/db/**`, raw SQL is intended.", `[L:${got.learnings[1]!.id}] Two lines`, "  of text."]);
    expect(learningsInSection(got.section!.text)).toEqual([
      { id: "0a1b2c3d", text: "In `src/db/**`, raw SQL is intended." },
      { id: got.learnings[1]!.id, text: "Two lines\nof text." },
    ]);
    expect(got.notes).toEqual([]);
  });

  it("cuts a file over 32 KB, leaves out the cut bullet and says so", async () => {
    const many = Array.from({ length: 600 }, (_, i) => bullet(i.toString(16).padStart(8, "0"), `Learning number ${i} with some words to fill the line.`));
    const dir = await defaultsWith(`${many.join("\n")}\n`);
    const got = await readRepoLearnings(dir, { files: [LEARNINGS_PATH], skipped: [] });
    expect(got.section!.text.length).toBeLessThan(LEARNINGS_MAX_BYTES + 2048);
    expect(got.learnings.length).toBeGreaterThan(100);
    expect(got.learnings.length).toBeLessThan(600);
    // Every learning given is whole: the last one read matches the file's bullet exactly.
    expect(`- ${got.learnings.at(-1)!.text} <!-- crewbot:learning:${got.learnings.at(-1)!.id} -->`).toBe(many[got.learnings.length - 1]);
    expect(got.section!.text.endsWith(`[… ${LEARNINGS_PATH} cut at 32 KB]`)).toBe(true);
    expect(got.notes).toEqual([`${LEARNINGS_PATH}: larger than 32 KB; only the learnings in its first 32 KB are given`]);
  });

  it("gives nothing for a file the default branch did not give (a symlink), a missing one, or one without a bullet", async () => {
    const linked = await defaultsWith({ symlinkTo: "/etc/passwd" });
    expect(await readRepoLearnings(linked, { files: [], skipped: [{ path: LEARNINGS_PATH, reason: "symlink" }] })).toEqual({
      learnings: [],
      notes: [`${LEARNINGS_PATH}: skipped (symlink); its learnings are not given`],
    });
    // Even listed as a file, a symlink out of the folder is not followed (confined read).
    const warned: string[] = [];
    expect((await readRepoLearnings(linked, { files: [LEARNINGS_PATH], skipped: [] }, { jobId: "j", warn: (l) => warned.push(l) })).section).toBeUndefined();
    expect(await readRepoLearnings(await tempDir(), { files: [], skipped: [] })).toEqual({ learnings: [], notes: [] });
    expect((await readRepoLearnings(await defaultsWith("# Only a heading\n"), { files: [LEARNINGS_PATH], skipped: [] })).section).toBeUndefined();
  });

  it("the default branch gives its learnings.md, never the PR head's, and skips a symlinked one", async () => {
    const { dataDir, repo } = await serve();
    const src = await repo("octo", "learn", { [LEARNINGS_PATH]: `${bullet("0a1b2c3d", "MAIN-RULE")}\n`, "README.md": "x\n" });
    gitSync(src.dir, "checkout", "-q", "-b", "evil");
    const prSha = await commit(src.dir, { [LEARNINGS_PATH]: "- HEAD-RULE\n" });
    gitSync(src.dir, "checkout", "-q", "main");
    gitSync(src.dir, "update-ref", "refs/pull/3/head", prSha);
    const lease = await new MirrorStore({ dataDir }).sync({ owner: "octo", repo: "learn", cloneUrl: src.cloneUrl, token: TOKEN, pulls: [3] });
    await lease.release();
    const dest = path.join(await tempDir(), "defs");
    const defaults = await readDefaultBranchFiles(lease.path, "main", dest);
    expect(defaults.files).toContain(LEARNINGS_PATH);
    expect((await readRepoLearnings(dest, defaults)).learnings.map((l) => l.text)).toEqual(["MAIN-RULE"]);

    const linked = await repo("octo", "linked", { "README.md": "x\n" });
    await mkdir(path.join(linked.dir, ".github/crewbot"), { recursive: true });
    await symlink("/etc/passwd", path.join(linked.dir, LEARNINGS_PATH));
    gitSync(linked.dir, "add", "-A");
    gitSync(linked.dir, "commit", "-q", "-m", "link");
    const lease2 = await new MirrorStore({ dataDir }).sync({ owner: "octo", repo: "linked", cloneUrl: linked.cloneUrl, token: TOKEN });
    await lease2.release();
    const got = await readDefaultBranchFiles(lease2.path, "main", path.join(await tempDir(), "defs"));
    expect(got.skipped).toEqual([{ path: LEARNINGS_PATH, reason: "symlink" }]);
  });
});

describe("learningsFor", () => {
  const given = { learnings: [], notes: [], section: learningsSection([{ id: "0a1b2c3d", text: "x" }]) };
  it.each([
    ["reviewer", 1],
    ["planner", 1],
    ["scout", 0],
    ["worker", 0],
  ])("%s gets %i section(s)", (agent, n) => {
    expect(learningsFor(agent, given)).toHaveLength(n);
    expect(learningsFor(agent, undefined)).toEqual([]);
  });
});

describe("learningsApplied", () => {
  const given = new Set(["aaaaaaaa", "bbbbbbbb"]);
  const f = (learning?: string) => ({ path: "a.ts", line: 1, severity: "warning" as const, text: "t", ...(learning ? { learning } : {}) });
  it.each([
    ["none named", { findings: [f()] }, [], []],
    ["a suppression", { findings: [], learnings: [{ id: "aaaaaaaa", suppressed: 2 }] }, [{ id: "aaaaaaaa", suppressed: 2, shaped: 0 }], []],
    ["a shaped finding counts its learning as applied", { findings: [f("bbbbbbbb"), f("bbbbbbbb")] }, [{ id: "bbbbbbbb", suppressed: 0, shaped: 2 }], []],
    ["both, one learning", { findings: [f("aaaaaaaa")], learnings: [{ id: "aaaaaaaa", suppressed: 1 }] }, [{ id: "aaaaaaaa", suppressed: 1, shaped: 1 }], []],
    ["ids not given are dropped", { findings: [f("cccccccc")], learnings: [{ id: "dddddddd", suppressed: 3 }] }, [], ["dddddddd", "cccccccc"]],
  ])("%s", (_name, review, uses, unknown) => {
    const got = learningsApplied(review, given);
    expect(got.uses).toEqual(uses);
    expect(got.unknown).toEqual(unknown);
    expect(got.findings.every((x) => x.learning === undefined || given.has(x.learning))).toBe(true);
    expect(got.findings).toHaveLength(review.findings.length);
  });
});

describe("learningsLine", () => {
  it.each([
    [undefined, undefined],
    [{ applied: 2, suppressed: 2, shaped: 1 }, "Learnings: 2 findings left out, 1 shaped (2 learnings applied)."],
    [{ applied: 1, suppressed: 1, shaped: 0 }, "Learnings: 1 finding left out (1 learning applied)."],
    [{ applied: 1, suppressed: 0, shaped: 3 }, "Learnings: 3 findings shaped (1 learning applied)."],
    [{ applied: 1, suppressed: 0, shaped: 0 }, "Learnings: 1 learning applied, no finding left out or shaped."],
  ])("%j → %s", (counts, line) => {
    expect(learningsLine(counts)).toBe(line);
  });

  it("stands in the check run's summary of a clean review, and nowhere when none applied", () => {
    const r: ReviewReport = { terminal: { kind: "done" }, counts: { critical: 0, warning: 0, suggestion: 0 }, clean: true, inline: 0, repeated: 0, headSha: "a".repeat(40), costUsd: 0, estimate: false, elapsedMs: 1000 };
    const counts = learningCounts([{ id: "aaaaaaaa", suppressed: 2, shaped: 0 }]);
    expect(renderReviewCheck({ ...r, ...(counts ? { learnings: counts } : {}) }).output.summary.split("\n").slice(0, 2)).toEqual([
      "- No findings: no review was posted.",
      "- Learnings: 2 findings left out (1 learning applied).",
    ]);
    expect(renderReviewCheck(r).output.summary).not.toContain("Learnings");
    // The `/review` comment's lines are the same.
    expect(reviewLines({ ...r, clean: false, counts: { critical: 0, warning: 1, suggestion: 0 }, inline: 1, learnings: { applied: 2, suppressed: 2, shaped: 1 } })).toEqual([
      "Findings: 0 critical · 1 warning · 0 suggestions; 1 inline comment.",
      "Learnings: 2 findings left out, 1 shaped (2 learnings applied).",
    ]);
  });
});

describe("recordLearningUses", () => {
  it("records each use with the job and the time; a failing store costs the counts only", async () => {
    const store = new SqliteLearningsStore({ dataDir: await tempDir() });
    await recordLearningUses(store, "o/r", "job-1", [{ id: "aaaaaaaa", suppressed: 1, shaped: 2 }], { warn: () => {} }, 1000);
    expect(await store.usage("o/r", 0)).toEqual(new Map([["aaaaaaaa", { reviews: 1, suppressed: 1, shaped: 2, lastUsed: 1000 }]]));
    expect(await store.lastUses("o/r")).toEqual(new Map([["aaaaaaaa", 1000]]));
    await store.close();
    const warned: string[] = [];
    const broken = Object.assign(new SqliteLearningsStore({ dataDir: await tempDir() }), { recordUses: async () => Promise.reject(new Error("disk full")) });
    await recordLearningUses(broken, "o/r", "job-2", [{ id: "aaaaaaaa", suppressed: 0, shaped: 1 }], { warn: (l) => warned.push(l) });
    expect(warned).toEqual(["job job-2: the uses of 1 learning(s) could not be recorded: disk full"]);
  });
});
