import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { runChain } from "../../src/chain/run-chain.js";
import { loadSkills } from "../../src/chain/skills.js";
import { readDefaultBranchFiles } from "../../src/jobs/default-branch.js";
import { fakeClient, startFakeAnthropic, type FakeServer, type Script } from "../helpers/fake-anthropic.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";
import { chainOptions } from "./chain-fixture.js";

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\n---\n${body}\n`;

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A repository on `main` with two good skills, one symlinked and one oversized SKILL.md, materialised as a job does. */
async function defaultBranchWithSkills(): Promise<{ dest: string; skipped: { path: string; reason: string }[] }> {
  const repo = await makeRepo({
    ".github/skills/release/SKILL.md": skill("release", "How to cut a release of this package.", "RELEASE-BODY: bump, tag, push."),
    ".github/skills/release/checklist.md": "- [ ] changelog\n",
    ".claude/skills/testing/SKILL.md": skill("testing", "How the tests are run here.", "TESTING-BODY: npm run unit."),
    // A later dir's skill of the same name loses to the first.
    ".agents/skills/release/SKILL.md": skill("release", "A shadowed duplicate.", "SHADOWED-BODY"),
    ".agents/skills/huge/SKILL.md": skill("huge", "Too big.", "x".repeat(300 * 1024)),
    "README.md": "# r\n",
  });
  await mkdir(path.join(repo, ".agents/skills/linked"), { recursive: true });
  await symlink("/etc/passwd", path.join(repo, ".agents/skills/linked/SKILL.md"));
  gitSync(repo, "add", "-A");
  gitSync(repo, "commit", "-q", "-m", "skills");
  const dest = path.join(await tempDir(), "defaults");
  const { skipped } = await readDefaultBranchFiles(repo, "main", dest);
  return { dest, skipped };
}

async function runScout(script: Script, withSkills: boolean) {
  const { dest } = await defaultBranchWithSkills();
  const defs = await loadDefinitions(withSkills ? dest : undefined);
  fake = await startFakeAnthropic(script);
  const result = await runChain({
    ...(await chainOptions({ chain: { name: "one", file: "(test)", steps: [{ agent: "scout", task: "{task}" }] }, agents: defs.agents })),
    task: "look around",
    client: fakeClient(fake.url),
    skills: defs.skills?.skills,
  });
  return { result, requests: fake.requests, defs };
}

describe("skills from the default branch", () => {
  it("lists names and descriptions (no bodies) in the first request; the skill tool gives the body and the other files, which read opens", async () => {
    let checklist = "";
    const { result, requests, defs } = await runScout((request, index) => {
      if (index === 0) return { content: [{ type: "tool_use", name: "skill", input: { name: "release" } }] };
      if (index === 1) {
        const out = JSON.stringify(request.body.messages.at(-1));
        checklist = /(\/[^"\\]*checklist\.md)/.exec(out)![1]!;
        return { content: [{ type: "tool_use", name: "read", input: { path: checklist } }] };
      }
      return { text: "Report: done." };
    }, true);
    expect(result.ok).toBe(true);
    const first = JSON.stringify(requests[0]!.body.messages[0]);
    expect(first).toContain("release: How to cut a release of this package.");
    expect(first).toContain("testing: How the tests are run here.");
    expect(first).not.toContain("RELEASE-BODY");
    expect(first).not.toContain("TESTING-BODY");
    expect(first).not.toContain("A shadowed duplicate");
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("skill");
    const skillResult = JSON.stringify(requests[1]!.body.messages.at(-1));
    expect(skillResult).toContain("RELEASE-BODY: bump, tag, push.");
    expect(skillResult).toContain("checklist.md");
    expect(JSON.stringify(requests[2]!.body.messages.at(-1))).toContain("- [ ] changelog");
    expect(defs.skills!.skills.map((s) => s.name)).toEqual(["release", "testing"]);
    expect(defs.skills!.notes).toEqual(['.agents/skills/release/SKILL.md: skipped: a skill named "release" was found earlier']);
  });

  it("offers no skill tool to a repository without skills", async () => {
    const { requests } = await runScout([{ text: "Report." }], false);
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("skill");
    expect(JSON.stringify(requests[0]!.body.messages[0])).not.toContain("skills of this repository");
  });

  it("never takes a symlinked or oversized SKILL.md from the default branch, and names each", async () => {
    const { skipped } = await defaultBranchWithSkills();
    expect(skipped).toEqual([
      { path: ".agents/skills/huge/SKILL.md", reason: "larger than 256 KB" },
      { path: ".agents/skills/linked/SKILL.md", reason: "symlink" },
    ]);
  });

  it("refuses, by name, a symlinked or oversized SKILL.md and one without name or description when loading a copy", async () => {
    const root = await tempDir();
    const outsideDir = await tempDir();
    await mkdir(path.join(outsideDir, "evil"));
    await writeFile(path.join(outsideDir, "evil", "SKILL.md"), skill("evil", "From outside.", "EVIL"));
    const at = (p: string) => path.join(root, p);
    await mkdir(at(".github/skills/linked"), { recursive: true });
    await writeFile(at("outside.md"), skill("linked", "Outside.", "OUTSIDE"));
    await symlink(at("outside.md"), at(".github/skills/linked/SKILL.md"));
    await mkdir(at(".github/skills/huge"), { recursive: true });
    await writeFile(at(".github/skills/huge/SKILL.md"), skill("huge", "Big.", "x".repeat(257 * 1024)));
    await mkdir(at(".claude/skills/nameless"), { recursive: true });
    await writeFile(at(".claude/skills/nameless/SKILL.md"), "---\ndescription: No name.\n---\nbody\n");
    await mkdir(at(".claude/skills/quiet"), { recursive: true });
    await writeFile(at(".claude/skills/quiet/SKILL.md"), "---\nname: quiet\n---\nbody\n");
    await mkdir(at(".claude/skills/ok"), { recursive: true });
    await writeFile(at(".claude/skills/ok/SKILL.md"), skill("ok", "Fine.", "OK-BODY"));
    await mkdir(at(".agents"), { recursive: true });
    await symlink(outsideDir, at(".agents/skills"));
    const { skills, notes } = await loadSkills(root);
    expect(skills.map((s) => s.name)).toEqual(["ok"]);
    expect(notes).toEqual([
      expect.stringMatching(/^\.github\/skills\/huge\/SKILL\.md: file: too large \(\d+ bytes; at most 262144\) \(skill skipped\)$/),
      ".github/skills/linked/SKILL.md: file: is a symlink (skill skipped)",
      ".claude/skills/nameless/SKILL.md: name: is required (skill skipped)",
      ".claude/skills/quiet/SKILL.md: description: is required (skill skipped)",
      ".agents/skills: skipped: is a symlink",
    ]);
  });
});
