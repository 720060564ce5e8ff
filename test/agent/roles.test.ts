/**
 * Roles (agent/roles.ts): an agent's `role` frontmatter, not its name, decides what it may do. A
 * repository's own agent that picks a role is parsed with it, offered exactly that role's tools,
 * and runs in a chain against the fake model; one named like a bundled agent gains nothing by it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_AGENTS_DIR, loadAgents } from "../../src/chain/agents.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { DEFAULT_ROLE, ROLE_NAMES, ROLES, roleTools } from "../../src/agent/roles.js";
import { chainMode, runChain } from "../../src/chain/run-chain.js";
import { DefinitionError } from "../../src/chain/types.js";
import { checkStepOutput } from "../../src/jobs/step-results.js";
import { reviewOf } from "../../src/review/review-result.js";
import { toolsFor } from "../../src/tools/index.js";
import { TOOL_REGISTRY } from "../../src/tools/registry.js";
import { fakeClient, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";
import { chainOptions } from "../chain/chain-fixture.js";

const agent = (frontmatter: string, body = "Do the task.") => `---\n${frontmatter}\n---\n${body}\n`;

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A repository's definitions as a job reads them from its default branch. */
async function repoWith(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const CRITIC = agent("name: critic\ndescription: Reviews the way this team does.\nrole: reviewer\ntools: read, grep", "Review it our way.");

describe("the role table", () => {
  it("every bundled agent declares its role, and the bundled set plays every role", async () => {
    const agents = await loadAgents([BUNDLED_AGENTS_DIR]);
    expect([...agents.values()].map((a) => [a.name, a.role]).sort()).toEqual(ROLE_NAMES.map((r) => [r, r]).sort());
  });

  it("one writing role, and each role's own tools are registry rows offered by role alone", () => {
    expect(ROLE_NAMES.filter((r) => ROLES[r].writes)).toEqual(["worker"]);
    for (const role of ROLE_NAMES) {
      for (const tool of roleTools(role)) expect(TOOL_REGISTRY[tool].byRole, `${role}: ${tool}`).toBe(true);
      const result = ROLES[role].result;
      if (result !== undefined) expect(TOOL_REGISTRY[result].result).toBe(true);
    }
  });

  it("a tool offered by role goes to no step whose role lacks it, whatever else the step has", () => {
    const everything = { trust: "trusted" as const, sandbox: { available: true }, prove: true, numberedPlan: true, questions: true, hasSkills: true, scratch: true };
    for (const mode of ["read-only", "write"] as const) {
      const offered = toolsFor(mode, { ...everything, roleTools: roleTools("scout") }).tools.map((t) => t.name);
      expect(offered.filter((name) => TOOL_REGISTRY[name as keyof typeof TOOL_REGISTRY].byRole)).toEqual([]);
    }
  });
});

describe("a repository agent's role", () => {
  it("is parsed from its frontmatter; one named like a bundled agent keeps that agent's role only when it declares none", async () => {
    const root = await repoWith({
      ".github/crewbot/agents/critic.md": CRITIC,
      // Named like the bundled reviewer, but a scout: its name gives it no reviewer's tools.
      ".github/crewbot/agents/reviewer.md": agent("name: reviewer\ndescription: Only looks.\nrole: scout"),
      // Written before roles: it overrides the bundled planner and stays the planner.
      ".github/crewbot/agents/planner.md": agent("name: planner\ndescription: Our planner."),
      // A new agent with no role: read-only, nothing extra.
      ".github/crewbot/agents/helper.md": agent("name: helper\ndescription: Helps."),
    });
    const { agents } = await loadDefinitions(root);
    expect(agents.get("critic")).toMatchObject({ role: "reviewer", tools: ["read", "grep"], file: ".github/crewbot/agents/critic.md" });
    expect(agents.get("reviewer")?.role).toBe("scout");
    expect(agents.get("planner")).toMatchObject({ role: "planner", file: ".github/crewbot/agents/planner.md" });
    expect(agents.get("helper")?.role).toBe(DEFAULT_ROLE);
  });

  it.each([
    ["an unknown role", "role: judge", 'role: unknown role "judge" (known: scout, planner, worker, reviewer, answerer, describer, learner)'],
    ["a role that is not a string", "role: [reviewer]", "role: must be one of the roles: scout, planner, worker, reviewer, answerer, describer, learner"],
  ])("%s is a definition error naming the file and the known roles", async (_what, line, message) => {
    const root = await repoWith({ ".github/crewbot/agents/odd.md": agent(`name: odd\ndescription: Odd.\n${line}`) });
    const error = await loadDefinitions(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toBe(`.github/crewbot/agents/odd.md: ${message}`);
  });

  it("a parallel item whose agent plays the writing role is refused when the chain is loaded", async () => {
    const root = await repoWith({
      ".github/crewbot/agents/fixer.md": agent("name: fixer\ndescription: Fixes.\nrole: worker"),
      ".github/crewbot/prompts/both.md": "1. parallel:\n   - scout: look\n   - fixer: fix\n",
    });
    await expect(loadDefinitions(root)).rejects.toThrow(/both\.md: steps: step 1 \(parallel\): item 2 \(fixer\) plays the worker role, which never runs in parallel/);
  });
});

describe("a repository agent with a role, in a chain", () => {
  it("is offered exactly its role's tools (narrowed by its own `tools`), hands over its result, and the job's parser reads it", async () => {
    const root = await repoWith({
      ".github/crewbot/agents/critic.md": CRITIC,
      ".github/crewbot/agents/reviewer.md": agent("name: reviewer\ndescription: Only looks.\nrole: scout"),
      ".github/crewbot/prompts/critique.md": "1. reviewer: Look at {task}\n2. critic: Review {task}\n",
    });
    const { agents, chains } = await loadDefinitions(root);
    const chain = chains.get("critique")!;
    expect(chainMode(chain, agents)).toBe("read-only");
    const review = { summary: "One problem.", findings: [{ path: "a.ts", line: 3, severity: "warning", body: "Off by one." }] };
    fake = await startFakeAnthropic([{ text: "Looked." }, { content: [{ type: "tool_use", name: "submit_review", input: review }] }]);
    const result = await runChain({
      ...(await chainOptions({ chain, agents })),
      task: "the change",
      client: fakeClient(fake.url),
      checkOutput: checkStepOutput,
    });

    expect(result).toMatchObject({ ok: true, stopReason: "done" });
    const offered = fake.requests.map((r) => (r.body.tools as Array<{ name: string }>).map((t) => t.name));
    // The repository's `reviewer` is a scout: no submit_review for it, whatever its name.
    expect(offered[0]).toEqual(["read", "ls", "find", "grep", "scratch_write"]);
    expect(offered[1]).toEqual(["read", "grep", "scratch_write", "submit_review"]);
    expect(result.steps.map((s) => [s.agent, s.role])).toEqual([["reviewer", "scout"], ["critic", "reviewer"]]);
    const critic = result.steps.findLast((s) => s.role === "reviewer")!;
    expect(reviewOf(critic).findings).toEqual([{ path: "a.ts", line: 3, severity: "warning", text: "Off by one." }]);
  });

  it("the job's parser for the role fails a reviewer-role step whose text is no review", async () => {
    const root = await repoWith({ ".github/crewbot/agents/critic.md": CRITIC, ".github/crewbot/prompts/critique.md": "1. critic: Review {task}\n" });
    const { agents, chains } = await loadDefinitions(root);
    fake = await startFakeAnthropic([{ text: "Seems fine overall." }]);
    const result = await runChain({ ...(await chainOptions({ chain: chains.get("critique")!, agents })), client: fakeClient(fake.url), checkOutput: checkStepOutput });
    expect(result).toMatchObject({ ok: false, stopReason: "error" });
    expect(result.error).toMatch(/^step 1 \(critic\): the reviewer gave no review/);
  });
});
