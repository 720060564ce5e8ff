/**
 * `crewbot run` offers the local checkout's skills like a job does: names and descriptions in every
 * agent's context, bodies through the `skill` tool, a broken skill skipped and named.
 */
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, tempDir } from "../helpers/git-repo.js";
import { inProcessRun } from "./run-in-process.js";

const PLAN = "## Goal\nShip.\n\n## Plan\n1. Follow the deploy checklist\n";
const toolUse = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const DEPLOY = "---\nname: deploy\ndescription: How we deploy the service.\n---\nDEPLOY-BODY: run make release, then tag.\n";
const TESTING = "---\nname: testing\ndescription: How the tests are organised.\n---\nTESTING-BODY: vitest, one file per module.\n";

const run = inProcessRun();

const userText = (body: Record<string, any>) => (body.messages[0].content as Array<{ text?: string }>).map((b) => b.text ?? "").join("");
const toolNames = (body: Record<string, any>) => body.tools.map((t: { name: string }) => t.name) as string[];

describe("crewbot run with the local checkout's skills", () => {
  it("lists both skills to every agent without their bodies, and the skill tool and read give the body and the skill's files", async () => {
    const repo = await makeRepo({
      "README.md": "hello\n",
      ".github/skills/deploy/SKILL.md": DEPLOY,
      ".github/skills/deploy/checklist.md": "CHECKLIST: staging first\n",
      ".claude/skills/testing/SKILL.md": TESTING,
      ".agents/skills/big/SKILL.md": `---\nname: big\ndescription: too big\n---\n${"x".repeat(300 * 1024)}\n`,
    });
    const outside = await tempDir("crewbot-outside-");
    await writeFile(path.join(outside, "SKILL.md"), "---\nname: linked\ndescription: from elsewhere\n---\nLINKED-BODY\n");
    await mkdir(path.join(repo, ".agents/skills/linked"), { recursive: true });
    await symlink(path.join(outside, "SKILL.md"), path.join(repo, ".agents/skills/linked/SKILL.md"));
    const checklist = path.join(await realpath(repo), ".github/skills/deploy/checklist.md");

    const r = await run(repo, ["ship it"], [
      { content: [toolUse("skill", { name: "deploy" })] },
      { content: [toolUse("read", { path: checklist })] },
      { text: "Scout report: follow the deploy skill." },
      { text: PLAN },
    ]);

    expect(r.code).toBe(0);
    const [first, afterSkill, afterRead, planner] = r.requests;
    for (const request of [first!, planner!]) {
      const context = userText(request.body);
      expect(context).toContain("- deploy: How we deploy the service.");
      expect(context).toContain("- testing: How the tests are organised.");
      expect(context).not.toMatch(/DEPLOY-BODY|TESTING-BODY|LINKED-BODY|name: big/);
      expect(toolNames(request.body)).toContain("skill");
    }
    const skillResult = JSON.stringify(afterSkill!.body.messages.at(-1));
    expect(skillResult).toContain("DEPLOY-BODY: run make release, then tag.");
    expect(skillResult).toContain(checklist);
    expect(JSON.stringify(afterRead!.body.messages.at(-1))).toContain("CHECKLIST: staging first");
    // The broken skills are skipped, each named.
    expect(r.stderr).toContain("crewbot: note: .agents/skills/big/SKILL.md: file: too large");
    expect(r.stderr).toContain("crewbot: note: .agents/skills/linked/SKILL.md: file: is a symlink");
  });

  it("offers no skill tool when the checkout has no skills", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(repo, ["plan it"], [{ text: "Scout report." }, { text: PLAN }]);
    expect(r.code).toBe(0);
    expect(toolNames(r.requests[0]!.body)).not.toContain("skill");
    expect(userText(r.requests[0]!.body)).not.toContain("skills of this repository");
  });
});
