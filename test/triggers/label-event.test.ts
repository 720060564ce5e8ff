import { describe, expect, it } from "vitest";
import { decideLabel, labelCommand, type LabelPayload } from "../../src/triggers/label-event.js";
import { issueLabeled } from "../fixtures/payloads.js";

const DEFAULTS = { plan: "crewbot:plan", implement: "crewbot:implement" };
const NOW = Date.parse("2026-12-01T10:00:00Z");

describe("labelCommand", () => {
  it.each([
    ["crewbot:plan", DEFAULTS, "plan"],
    ["crewbot:implement", DEFAULTS, "implement"],
    ["bug", DEFAULTS, undefined],
    ["Crewbot:plan", DEFAULTS, undefined], // GitHub keeps a label's case: the name must match as written
    ["crewbot:plan", { plan: "", implement: "crewbot:implement" }, undefined], // "" turns it off
    ["", { plan: "", implement: "" }, undefined],
    ["ai:plan", { plan: "ai:plan", implement: "ai:go" }, "plan"],
  ] as const)("%s with %j is %s", (name, labels, expected) => {
    expect(labelCommand(name, labels)).toBe(expected);
  });
});

describe("decideLabel", () => {
  const payload = (o: Parameters<typeof issueLabeled>[1] = {}) => issueLabeled("crewbot:plan", o) as unknown as LabelPayload;

  it("a writer's label starts the job as if the command had been written with no extra instructions", () => {
    const decision = decideLabel(payload(), "plan", "write", "delivery-7", NOW);
    expect(decision).toMatchObject({
      action: "enqueue",
      job: {
        deliveryId: "delivery-7",
        kind: "plan",
        target: { owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: false },
        trigger: { sender: "Codertocat", request: "", label: "crewbot:plan", commentCreatedAt: "2026-12-01T10:00:00.000Z" },
      },
    });
    expect(decision.action === "enqueue" && decision.job.trigger.commentId).toBeUndefined();
  });

  it.each(["read", "triage", "none", undefined])("permission %s: one short reply, nothing started", (permission) => {
    const decision = decideLabel(payload({ login: "mallory" }), "implement", permission, "d", NOW);
    expect(decision).toEqual({
      action: "reply",
      body: "Sorry @mallory, the label `crewbot:plan` starts crewbot only when someone with write, maintain or admin permission adds it. Nothing was started.",
      reason: "label by someone without write access",
    });
  });

  it("a bot's label starts nothing, whatever its permission, and says so once", () => {
    const decision = decideLabel(payload({ login: "triage-bot[bot]", senderType: "Bot" }), "plan", "admin", "d", NOW);
    expect(decision).toMatchObject({ action: "reply", reason: "label by a bot" });
  });
});
