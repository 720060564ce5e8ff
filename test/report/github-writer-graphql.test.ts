import { describe, expect, it } from "vitest";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { fakeClock, TOKEN } from "../helpers/github.js";

/** An Octokit whose GraphQL client answers from a list, recording what it was sent. */
function octokit(answers: Array<() => unknown>) {
  const sent: Array<{ query: string; variables: Record<string, unknown> }> = [];
  return {
    sent,
    request: async () => ({ status: 200, headers: {}, data: {} }),
    graphql: async <T>(query: string, variables: Record<string, unknown> = {}) => {
      sent.push({ query, variables });
      return answers.shift()!() as T;
    },
  };
}

describe("GraphQL mutations through the writer", () => {
  it("waits out GraphQL's RATE_LIMITED answer and sends the mutation again, counted as writes", async () => {
    const rateLimited = Object.assign(new Error("API rate limit exceeded"), { errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded" }] });
    const client = octokit([() => Promise.reject(rateLimited), () => ({ resolveReviewThread: { thread: { id: "T", isResolved: true } } })]);
    const clock = fakeClock();
    const writer = new GitHubWriter({ octokit: client, clock });

    const data = await writer.mutate<{ resolveReviewThread: { thread: { isResolved: boolean } } }>("mutation($threadId: ID!) { x }", { threadId: "T" });

    expect(data.resolveReviewThread.thread.isResolved).toBe(true);
    expect([writer.writes, writer.retries]).toEqual([2, 1]);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("redacts secrets in the variables and spaces mutations like other writes", async () => {
    const client = octokit([() => ({}), () => ({})]);
    const clock = fakeClock();
    const writer = new GitHubWriter({ octokit: client, clock, secrets: [TOKEN] });
    await writer.mutate("mutation { a }", { body: `token ${TOKEN}` });
    await writer.mutate("mutation { b }", {});
    expect(JSON.stringify(client.sent)).not.toContain(TOKEN);
    expect(clock.sleeps).toEqual([1000]);
  });

  it("refuses plainly when the Octokit has no GraphQL client", async () => {
    const writer = new GitHubWriter({ octokit: { request: async () => ({ status: 200, headers: {}, data: {} }) } });
    await expect(writer.mutate("mutation { a }")).rejects.toThrow("this Octokit has no GraphQL client");
  });
});
