import { describe, expect, it } from "vitest";
import { REVIEW_EFFORTS } from "../../src/config/schema.js";
import { EFFORT, reviewerShape } from "../../src/review/effort.js";

describe("review.effort: one row per level", () => {
  it("has a row for every level the config accepts, and nothing else", () => {
    expect(Object.keys(EFFORT).sort()).toEqual([...REVIEW_EFFORTS].sort());
  });

  it.each([
    // level, the reviewer's own cap → its cap, proofBudget.max → proofs, one look
    ["quick", 25, 2, 5, 0, true],
    ["quick", undefined, 2, 5, 0, true],
    ["standard", 25, 25, 5, 5, false],
    ["standard", undefined, undefined, 0, 0, false],
    ["deep", 25, 50, 5, 10, false],
    ["deep", undefined, undefined, 0, 0, false],
  ] as const)("%s: own cap %s → %s turns; proofBudget.max %s → %s proofs", (effort, own, turns, max, proofs, look) => {
    const shape = reviewerShape(effort, own);
    expect(shape.maxTurns).toBe(turns);
    expect(shape.look).toBe(look);
    expect(shape.why).toBe(`review.effort: ${effort}`);
    expect(EFFORT[effort].proofs(max)).toBe(proofs);
  });

  it("tells the reviewer of a quick or deep level in its task, and adds nothing to a standard review's", () => {
    expect(reviewerShape("quick", 25).brief).toMatch(/one look[\s\S]*`submit_review` in your first reply/);
    expect(reviewerShape("deep", 25).brief).toMatch(/twice the usual turns and proofs/);
    expect(reviewerShape("standard", 25)).not.toHaveProperty("brief");
  });
});
