import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { instructionEvents, jobInstructions, touchedFiles } from "../../src/jobs/job-instructions.js";
import type { JobRecord } from "../../src/queue/types.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

function job(isPullRequest: boolean, review?: { baseRef: string }): JobRecord {
  return { id: "job-7", kind: review ? "review" : "implement", target: { installationId: 1, owner: "o", repo: "r", number: 4, isPullRequest }, ...(review ? { review } : {}) } as unknown as JobRecord;
}

async function repoWithPullRequest() {
  const dir = await makeRepo({ "README.md": "x\n", "src/a.ts": "a\n", "old.txt": "o\n" });
  const main = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "checkout", "-q", "-b", "release");
  await writeFile(path.join(dir, "release.txt"), "r\n");
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", "release");
  gitSync(dir, "checkout", "-q", "-b", "feature");
  await writeFile(path.join(dir, "src/a.ts"), "b\n");
  gitSync(dir, "mv", "old.txt", "new.txt");
  gitSync(dir, "commit", "-q", "-am", "change");
  const head = gitSync(dir, "rev-parse", "HEAD").trim();
  return { dir, main, head };
}

describe("touchedFiles", () => {
  const log = () => {
    const lines: string[] = [];
    return { lines, jobId: "job-7", warn: (line: string) => void lines.push(line) };
  };

  it.each<[string, JobRecord, string[] | undefined]>([
    ["an issue's job: none known upfront", job(false), undefined],
    ["a PR's job: its changes since the default branch (a rename as both paths)", job(true), ["new.txt", "old.txt", "release.txt", "src/a.ts"]],
    ["a review: its changes since its base branch", job(true, { baseRef: "release" }), ["new.txt", "old.txt", "src/a.ts"]],
  ])("%s", async (_name, record, expected) => {
    const { dir, main, head } = await repoWithPullRequest();
    const got = await touchedFiles(dir, record, { head, defaultBranch: main }, undefined, log());
    expect(got && [...got].sort()).toEqual(expected);
  });

  it("takes what the job says (a review's file selection) before anything else", async () => {
    const { dir, main, head } = await repoWithPullRequest();
    expect(await touchedFiles(dir, job(true), { head, defaultBranch: main }, () => ["src/a.ts"], log())).toEqual(["src/a.ts"]);
  });

  it("a PR whose files cannot be listed gets the root's instructions only, and the log says why", async () => {
    const { dir, main } = await repoWithPullRequest();
    const l = log();
    expect(await touchedFiles(dir, job(true), { head: "0".repeat(40), defaultBranch: main }, undefined, l)).toEqual([]);
    expect(l.lines).toEqual([expect.stringMatching(/^job job-7: the files of pull request #4 could not be listed \(.+\); only the root's instructions are given$/)]);
  });
});

describe("jobInstructions", () => {
  it("names the instruction files the default branch could not give, and those over a cap in one line", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "AGENTS.md"), "Be brief.\n");
    const skipped = [
      { path: "src/AGENTS.md", reason: "symlink" },
      { path: ".github/instructions/big.instructions.md", reason: "larger than 256 KB" },
      { path: "a/AGENTS.md", reason: "more than 200 instruction files" },
      { path: "b/AGENTS.md", reason: "more than 200 instruction files" },
      { path: ".github/skills/x/AGENTS.md", reason: "symlink" },
      { path: ".github/crewbot.yml", reason: "symlink" },
    ];
    const got = await jobInstructions(dir, { files: ["AGENTS.md"], skipped }, { kind: "plan" }, DEFAULT_CONFIG, undefined, { jobId: "j", warn: () => undefined });
    expect(got.sections).toEqual([{ source: "AGENTS.md (default branch)", text: "Be brief.\n" }]);
    expect(got.notes).toEqual([
      "src/AGENTS.md: skipped (symlink); its instructions are not given",
      ".github/instructions/big.instructions.md: skipped (larger than 256 KB); its instructions are not given",
      "2 instruction files skipped (more than 200 instruction files)",
    ]);
    expect(instructionEvents(got.applied)).toEqual([{ type: "log", level: "info", message: "Repository instructions (default branch):\n- AGENTS.md (default branch)" }]);
    expect(instructionEvents([])).toEqual([]);
  });
});
