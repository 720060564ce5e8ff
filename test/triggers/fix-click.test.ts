import { describe, expect, it } from "vitest";
import { decideFixClick, fixFindingsJob, type CheckRunActionPayload } from "../../src/triggers/fix-click.js";
import { checkRunRequestedAction } from "../fixtures/check-run.js";

const SHA = "e".repeat(40);
const click = (o: Partial<Parameters<typeof checkRunRequestedAction>[0]> = {}) => checkRunRequestedAction({ login: "maintainer", headSha: SHA, ...o }) as unknown as CheckRunActionPayload;

describe("whether a check run click is crewbot's to take", () => {
  it.each<[string, CheckRunActionPayload, string]>([
    ["a person's Fix click on crewbot's review", click(), "check"],
    ["another button", click({ identifier: "rerun" }), "requested action rerun"],
    ["another app's check run", click({ appId: 99 }), "the check run is another app's"],
    ["a fork's pull request (GitHub lists none)", click({ fork: true }), "no pull request of this repository has this check run (a fork's, or closed)"],
    ["a bot's click", click({ senderType: "Bot" }), "clicked by a bot"],
    ["a check run event of another action", { ...click(), action: "completed" }, "action completed"],
    ["another check of the app", { ...click(), check_run: { ...click().check_run, name: "crewbot/other" } }, "check run crewbot/other is not crewbot's review"],
  ])("%s", (_name, payload, expected) => {
    const decision = decideFixClick(payload, { id: 1 });
    expect(decision.action === "check" ? "check" : decision.reason).toBe(expected);
  });

  it("names the pull request and the clicker, and the job runs the worker on that PR", () => {
    expect(decideFixClick(click(), { slug: "crewbot" })).toEqual({ action: "check", number: 1, login: "maintainer" });
    const job = fixFindingsJob(click(), 1, "delivery-1", Date.parse("2026-01-01T00:00:00Z"));
    expect(job).toMatchObject({
      kind: "implement",
      target: { owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: true },
      trigger: { sender: "maintainer", request: "Fix these findings", commentCreatedAt: "2026-01-01T00:00:00.000Z" },
      fixFindings: { checkRunId: 601, headSha: SHA },
    });
  });
});
