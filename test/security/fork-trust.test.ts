/**
 * Adversarial suite: a fork's code is a stranger's (DESIGN.md §4). For every job type and every
 * checkout it can have — an issue (the default branch), a same-repository PR, a fork's PR — the
 * exact tools each agent of the job's chain is offered and whether `setup`/`check` run, from the
 * functions the jobs use (checkout-trust → the chain → toolsFor). docs/security.md prints the same
 * table; this test fails when they disagree. Then: a checkout's trust is found fail closed, and the
 * repository's commands refuse a stranger's checkout whoever calls them.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { roleOf, roleTools } from "../../src/agent/roles.js";
import { chainMode, stepMode } from "../../src/chain/run-chain.js";
import type { ChainDefinition } from "../../src/chain/types.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { checkoutPolicy, checkoutTrust, resolveCheckoutTrust, trustRefusal, type CheckoutTrust } from "../../src/jobs/checkout-trust.js";
import { JOB_TYPES, writesCheckout, type JobType } from "../../src/jobs/job-types.js";
import { jobPolicy } from "../../src/jobs/job-policy.js";
import { fromWorker, implementChain, type Prepared } from "../../src/jobs/prepare.js";
import { RepoChecks } from "../../src/jobs/repo-checks.js";
import { ANSWER_CHAIN, ANSWERER } from "../../src/jobs/thread-answer-job.js";
import { toolsFor } from "../../src/tools/index.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { tempDir } from "../helpers/git-repo.js";
import { API, useNock } from "../helpers/github.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";
import { LEARN_CHAIN, LEARNER, learnerAgent } from "../../src/jobs/learner-run.js";

useNock();

type Checkout = "issue" | "same-repo PR" | "fork PR";
const TARGET = { owner: "Codertocat", repo: "Hello-World", number: 1, installationId: 1 };
const HEAD: Record<Checkout, { isPullRequest: boolean; headRepo?: string }> = {
  issue: { isPullRequest: false },
  "same-repo PR": { isPullRequest: true, headRepo: "Codertocat/Hello-World" },
  "fork PR": { isPullRequest: true, headRepo: "mallory/Hello-World" },
};

/** Where each job type can run: `/implement` on a PR is PR feedback, a ci-fix and a click on "Fix these findings" only exist on PRs. */
const WHERE: Record<JobType, Checkout[]> = {
  plan: ["issue", "same-repo PR", "fork PR"],
  "implement-issue": ["issue"],
  "implement-approved-plan": ["issue"],
  "implement-pr-feedback": ["same-repo PR", "fork PR"],
  "implement-fix-findings": ["same-repo PR", "fork PR"],
  review: ["same-repo PR", "fork PR"],
  "review-thread-answer": ["same-repo PR", "fork PR"],
  ask: ["issue", "same-repo PR", "fork PR"],
  describe: ["same-repo PR", "fork PR"],
  "ci-fix": ["same-repo PR", "fork PR"],
  learn: ["issue", "same-repo PR", "fork PR"],
  learnings: ["issue", "same-repo PR", "fork PR"],
};

/** The chain each job runs under the default config, as its job file builds it (bundled agents and prompts). */
async function chainOf(type: JobType): Promise<{ chain: ChainDefinition; numberedPlan: boolean }> {
  const { chains, agents } = await loadDefinitions();
  const prepared = { config: DEFAULT_CONFIG, chains, agents } as Prepared;
  switch (type) {
    case "plan":
      return { chain: chains.get("plan")!, numberedPlan: false };
    case "review":
      return { chain: chains.get("review")!, numberedPlan: false };
    case "ask":
      return { chain: chains.get("ask")!, numberedPlan: false };
    case "describe":
      return { chain: chains.get("describe")!, numberedPlan: false };
    case "learn":
      return { chain: LEARN_CHAIN, numberedPlan: false };
    case "learnings":
      // The list of merged learnings: no model at all.
      return { chain: { name: "learnings", steps: [], file: "(built in)" }, numberedPlan: false };
    case "review-thread-answer":
      // The reviewer under its own name: prose, no submit_review.
      return { chain: ANSWER_CHAIN, numberedPlan: false };
    case "implement-issue":
      return { chain: implementChain(prepared), numberedPlan: true };
    case "implement-approved-plan":
      return { chain: fromWorker(implementChain(prepared), type, "{task}", prepared.agents), numberedPlan: true };
    default:
      return { chain: fromWorker(implementChain(prepared), type, "{task}", prepared.agents), numberedPlan: false };
  }
}

const SANDBOX: SandboxInfo = { available: true, network: { available: true } };

interface Row {
  type: JobType;
  checkout: Checkout;
  trust: CheckoutTrust;
  /** `agent: tool, tool…` per step, or why the job is refused before anything is cloned. */
  agents: string[];
  refused?: string;
  repoCommands: boolean;
}

async function table(): Promise<Row[]> {
  const { agents } = await loadDefinitions();
  const rows: Row[] = [];
  for (const type of JOB_TYPES) {
    for (const checkout of WHERE[type]) {
      const trust = checkoutTrust({ ...TARGET, isPullRequest: HEAD[checkout].isPullRequest }, HEAD[checkout].headRepo);
      const refused = trustRefusal(type, trust);
      if (refused) {
        rows.push({ type, checkout, trust, agents: [], refused, repoCommands: false });
        continue;
      }
      const { chain, numberedPlan } = await chainOf(type);
      const mode = chainMode(chain, agents);
      const steps = chain.steps.map((step) => {
        const named = agents.get(step.agent === ANSWERER ? "reviewer" : step.agent)!;
        // As the jobs run them: the learner with no file tools, the reviewer in a thread as the answerer.
        const definition = step.agent === LEARNER ? learnerAgent(named) : step.agent === ANSWERER ? { ...named, role: "answerer" as const } : named;
        const agentMode = stepMode(mode, roleOf(definition));
        const tools = toolsFor(agentMode, { sandbox: SANDBOX, trust, allow: definition.tools, roleTools: roleTools(roleOf(definition)), numberedPlan: numberedPlan && agentMode === "write", scratch: true, prove: type === "review" && DEFAULT_CONFIG.review.prove !== "off" });
        return `${step.agent}: ${tools.tools.map((t) => t.name).join(", ")}`;
      });
      rows.push({ type, checkout, trust, agents: steps, repoCommands: writesCheckout(type) && checkoutPolicy(trust).repoCommands });
    }
  }
  return rows;
}

function markdown(rows: Row[]): string {
  const lines = ["| job type | checkout | trust | each agent's tools | setup / check |", "|---|---|---|---|---|"];
  for (const r of rows) {
    const tools = r.refused ? "refused before anything is cloned (a write job)" : r.agents.length === 0 ? "no agent (no model, nothing cloned)" : r.agents.map((a) => a.replace(/^([^:]+):/, "**$1**:")).join("<br>");
    lines.push(`| \`${r.type}\` | ${r.checkout} | ${r.trust} | ${tools} | ${r.repoCommands ? "run" : "never"} |`);
  }
  return lines.join("\n");
}

const FORK_REFUSAL = "this pull request comes from a fork: its code is a stranger's, so crewbot runs no write job on it (and can only push to branches of this repository)";
const READ = "read, ls, find, grep";

describe("the trust table: every job type on every checkout it can have", () => {
  it("lists every job type", () => {
    expect(Object.keys(WHERE).sort()).toEqual([...JOB_TYPES].sort());
  });

  it("offers bash (and a review's prove) only on the repository's own code, and runs setup/check only there", async () => {
    const rows = await table();
    const row = (type: JobType, checkout: Checkout) => rows.find((r) => r.type === type && r.checkout === checkout)!;
    expect(row("plan", "fork PR").agents).toEqual([`scout: ${READ}, scratch_write`, `planner: ${READ}, scratch_write, submit_plan`]);
    expect(row("plan", "same-repo PR").agents).toEqual([`scout: ${READ}, bash, scratch_write`, `planner: ${READ}, bash, scratch_write, submit_plan`]);
    expect(row("review", "fork PR").agents).toEqual([`reviewer: ${READ}, scratch_write, submit_review`]);
    expect(row("review", "same-repo PR").agents).toEqual([`reviewer: ${READ}, bash, scratch_write, prove, submit_review`]);
    expect(row("review-thread-answer", "fork PR").agents).toEqual([`reviewer-in-thread: ${READ}, scratch_write`]);
    expect(row("ask", "fork PR").agents).toEqual([`answerer: ${READ}, scratch_write`]);
    expect(row("ask", "same-repo PR").agents).toEqual([`answerer: ${READ}, bash, scratch_write`]);
    expect(row("review-thread-answer", "same-repo PR").agents).toEqual([`reviewer-in-thread: ${READ}, bash, scratch_write`]);
    expect(row("implement-pr-feedback", "same-repo PR")).toMatchObject({ repoCommands: true, agents: expect.arrayContaining([`worker: ${READ}, bash, edit, write, scratch_write`]) });
    for (const type of ["implement-pr-feedback", "implement-fix-findings", "ci-fix"] as const) {
      expect(row(type, "fork PR")).toMatchObject({ refused: FORK_REFUSAL, agents: [], repoCommands: false });
    }
    // The rule itself, over the whole table: a stranger's row has no bash and no commands.
    for (const r of rows.filter((x) => x.trust === "stranger")) {
      expect(r.agents.join("\n"), `${r.type} on a ${r.checkout}`).not.toMatch(/\bbash\b/);
      expect(r.repoCommands).toBe(false);
    }
  });

  it("is the table docs/security.md prints", async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, "../../docs/security.md"), "utf8");
    const printed = /<!-- trust-table:start -->\n([\s\S]*?)\n<!-- trust-table:end -->/.exec(doc)?.[1];
    expect(printed, "docs/security.md's trust table (between the trust-table markers)").toBe(markdown(await table()));
  });
});

describe("a checkout's trust is decided once, fail closed", () => {
  const octokit = new TestOctokit({ auth: "ghs_test" });
  const job = (isPullRequest: boolean, headRepo?: string) => ({
    target: { ...TARGET, isPullRequest },
    ...(headRepo !== undefined ? { review: { headRepo } as never } : {}),
  });

  it.each([
    ["an issue (the default branch)", "trusted", false, undefined],
    ["a same-repository PR, case aside", "trusted", true, "codertocat/hello-world"],
    ["a fork's PR", "stranger", true, "mallory/Hello-World"],
    ["a fork since deleted (head repo gone)", "stranger", true, ""],
  ] as const)("%s is %s from the job's record, with no request", async (_what, trust, isPr, headRepo) => {
    expect(await resolveCheckoutTrust(job(isPr, headRepo), octokit)).toBe(trust);
  });

  it.each([
    ["a fork's head", "stranger", { full_name: "mallory/Hello-World" }],
    ["a deleted fork (repo null)", "stranger", null],
    ["the repository's own branch", "trusted", { full_name: "Codertocat/Hello-World" }],
  ] as const)("a PR job that does not know its head (a /plan) asks GitHub: %s is %s", async (_what, trust, repo) => {
    nock(API).get("/repos/Codertocat/Hello-World/pulls/1").reply(200, { head: { repo } });
    expect(await resolveCheckoutTrust(job(true), octokit)).toBe(trust);
  });

  it("fails the job when GitHub cannot say: nothing runs on a guess", async () => {
    nock(API).get("/repos/Codertocat/Hello-World/pulls/1").reply(500, { message: "boom" });
    await expect(resolveCheckoutTrust(job(true), octokit)).rejects.toThrow();
  });
});

describe("the repository's commands never run on a stranger's checkout, whoever calls them", () => {
  it.each(["setup", "check"] as const)("%s is refused and creates nothing, even with the sandbox waived", async (phase) => {
    const root = await tempDir("crewbot-stranger-");
    const marker = path.join(root, "ran");
    const config = { ...DEFAULT_CONFIG, implement: { ...DEFAULT_CONFIG.implement, setup: [`touch ${marker}`], check: [`touch ${marker}`] } };
    const prepared = { root, policy: jobPolicy("implement-issue", "stranger", config, { private: false }), config } as Prepared;
    const services = { sandbox: async () => ({ available: false, allowUnsandboxed: true }) } as never;
    const ctx = { signal: new AbortController().signal } as never;
    const report = { set: () => undefined } as never;
    const checks = new RepoChecks(ctx, report, prepared, { scratchDir: root, artifactsDir: root } as never, services, []);
    await expect(phase === "setup" ? checks.setup() : checks.check()).rejects.toThrow(/not run: the checkout is a fork's code/);
    expect(existsSync(marker)).toBe(false);
  });
});
