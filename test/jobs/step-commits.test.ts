import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StepCommits } from "../../src/jobs/step-commits.js";
import type { JobReport } from "../../src/jobs/job-report.js";
import type { JobRecord } from "../../src/queue/types.js";
import { ToolError } from "../../src/tools/types.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";

const job = {
  repo: { cloneUrl: "https://github.com/o/r.git" },
  trigger: { sender: "octocat", senderId: 1 },
} as unknown as JobRecord;

async function setup(steps: string[]) {
  const checkout = await makeRepo({ "README.md": "# r\n" });
  const patches: unknown[] = [];
  const report = { set: (p: unknown) => patches.push(p) } as unknown as JobReport;
  const notes: string[] = [];
  const work = new StepCommits({ job, report, secrets: ["ghs_unused"], checkout, author: { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" }, allowWorkflowEdits: false, notes });
  work.usePlan({ steps: steps.map((text, i) => ({ n: i + 1, text })), filesToModify: [] });
  return { work, checkout, notes, patches };
}

const subjects = (dir: string) => gitSync(dir, "log", "--format=%s").trim().split("\n");

describe("StepCommits.completeStep", () => {
  it("commits the step's changes at once and says what is left; a step with no changes is ticked without a commit", async () => {
    const { work, checkout, notes } = await setup(["Write A", "Nothing to change", "Write B"]);
    await writeFile(path.join(checkout, "A.txt"), "a\n");
    expect(await work.completeStep(1)).toMatch(/^Step 1 ticked and committed \([0-9a-f]{7}\)\. Steps left: 2, 3\.$/);
    expect(await work.completeStep(2, "already right")).toBe("Step 2 ticked; it changed no files, so there is no commit for it. Steps left: 3.");
    await writeFile(path.join(checkout, "B.txt"), "b\n");
    expect(await work.completeStep(3)).toMatch(/All steps are done/);
    expect(subjects(checkout)).toEqual(["Write B", "Write A", "initial"]);
    expect(gitSync(checkout, "show", "--name-only", "--format=", "HEAD~1").trim()).toBe("A.txt");
    expect(work.patch().plan.done).toEqual([1, 2, 3]);
    expect(Object.keys(work.patch().plan.commits)).toEqual(["1", "3"]);
    expect(notes).toEqual(["Step 2: already right"]);
  });

  it("answers a repeated step without a second commit, and refuses a step the plan lacks", async () => {
    const { work, checkout } = await setup(["Write A"]);
    await writeFile(path.join(checkout, "A.txt"), "a\n");
    await work.completeStep(1);
    expect(await work.completeStep(1)).toMatch(/^Step 1 was already reported finished/);
    await expect(work.completeStep(2)).rejects.toThrow(ToolError);
    await expect(work.completeStep(2)).rejects.toThrow("There is no step 2: the plan has 1 step.");
    expect(subjects(checkout)).toEqual(["Write A", "initial"]);
  });

  it("markers reported together share one commit, linked from each, with a note", async () => {
    const { work, checkout, notes } = await setup(["Write A", "Write B"]);
    await writeFile(path.join(checkout, "A.txt"), "a\n");
    await writeFile(path.join(checkout, "B.txt"), "b\n");
    work.observe({ type: "step_start", index: 0, agent: "worker", role: "worker" });
    work.observe({ type: "text", agent: "worker", text: "[DONE:1]\n[DONE:2]" });
    await work.commitFinished();
    expect(subjects(checkout)).toEqual(["Steps 1, 2: Write A; Write B", "initial"]);
    const { commits } = work.patch().plan;
    expect(commits[1]!.sha).toBe(commits[2]!.sha);
    expect(notes[0]).toMatch(/^Steps 1, 2 were reported finished together .*could not be separated/);
  });
});
