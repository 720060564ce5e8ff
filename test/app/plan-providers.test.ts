/**
 * `/plan` end to end on each cloud provider: the whole app, configured as an operator configures
 * it (`CREWBOT_MODEL_PROVIDER` and the provider's variables, a `CREWBOT_MODEL_IDS` file), its model
 * requests answered by the provider's stand-in (helpers/fake-providers.ts), never by Anthropic's.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { startFakeProvider, type ProviderKind } from "../helpers/fake-providers.js";
import { useNock } from "../helpers/github.js";
import { ANTHROPIC_KEY, API, mockInstallationToken, mockPermission, mockRepoConfig, normalise, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const PLAN = "## Goal\nFix the **spelling**.\n\n## Plan\n1. Fix `commmit` in the README\n\n## Risks\nNone.";

/** The scout (claude-haiku-4-5) and the planner (claude-sonnet-5-5) as each provider is asked for them. */
const ASKED: Record<ProviderKind, [string, string]> = {
  // Sonnet 5.5 has no Bedrock id in the bundled table: the operator's file gives it.
  bedrock: ["global.anthropic.claude-haiku-4-5-20251001-v1:0", "global.anthropic.claude-sonnet-5-5"],
  vertex: ["claude-haiku-4-5@20251001", "claude-sonnet-5-5"],
  foundry: ["claude-haiku-4-5", "claude-sonnet-5-5"],
};

describe.each<ProviderKind>(["bedrock", "vertex", "foundry"])("/plan on %s, end to end", (kind) => {
  it("plans through the provider's own client and wire, and posts the plan", async () => {
    const fake = await startFakeProvider(kind, [{ text: "Scout report: README.md has the typo on line 1." }, { text: PLAN }]);
    const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-ids-"));
    const ids = path.join(dir, "model-ids.yml");
    await writeFile(ids, 'claude-sonnet-5-5: { bedrock: "global.anthropic.claude-sonnet-5-5" }\n');
    const stack = await startStack([], { files: { "README.md": "# Hello commmit\n" }, env: { ...fake.env, CREWBOT_MODEL_IDS: ids } });
    try {
      const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
      const edits: string[] = [];
      mockInstallationToken();
      mockPermission("Codertocat", "admin");
      mockRepoConfig();
      nock(API)
        .post(`${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`)
        .reply(201, { id: 1, content: "eyes" })
        .post(`${REPO_PATH}/issues/1/comments`)
        .reply(201, { id: 9001 })
        .get(`${REPO_PATH}/issues/1/comments`)
        .query({ per_page: 100 })
        .reply(200, [])
        .patch(`${REPO_PATH}/issues/comments/9001`, (b) => (edits.push(b.body), true))
        .times(6)
        .optionally()
        .reply(200, { id: 9001 });

      const job = await stack.runToEnd("issue_comment", payload, `delivery-plan-${kind}`);

      expect(job.state).toBe("succeeded");
      const final = normalise(edits.at(-1)!, job.id);
      expect(final).toMatch(/^✅ Done · Ns · [\d.]+k? tokens · \$[\d.]+\n/); // priced under Anthropic's names
      expect(final).toContain("## Plan\n- [ ] Fix `commmit` in the README");
      expect(fake.requests.map((r) => r.model)).toEqual(ASKED[kind]);
      expect(stack.fake.requests).toEqual([]); // Anthropic's API was never asked
      // The start-up check's client and the job's share one token: Google's chain is one per process.
      if (kind === "vertex") expect(fake.tokenRequests).toBe(1);
      const wire = JSON.stringify(fake.requests.map((r) => r.wire));
      expect(JSON.stringify(fake.requests[1]!.wire)).toContain("Scout report: README.md has the typo on line 1."); // the scout's report reached the planner
      for (const secret of [TOKEN, ANTHROPIC_KEY, fake.env.AWS_SECRET_ACCESS_KEY, fake.env.ANTHROPIC_FOUNDRY_API_KEY]) if (secret) expect(wire).not.toContain(secret);
    } finally {
      await stack.stop();
      await fake.close();
    }
  });
});
