/**
 * The GraphQL stand-in answers as GitHub does, through the real Octokit: review threads page by
 * page, the resolve mutation through the writer, refusals as 200 with errors, and the Enterprise
 * Server path `/api/graphql` under GHE_HOST.
 */
import { describe, expect, it } from "vitest";
import { fetchReviewThreads, resolveReviewThread } from "../../src/review/review-threads-api.js";
import { githubOctokit } from "../../src/github/octokit.js";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { TestOctokit } from "./app-stand-ins.js";
import { fakeClock, newOctokit, TOKEN, useNock } from "./github.js";
import { GitHubGraphql } from "./github-graphql.js";

useNock();

const SHA = "a".repeat(40);

describe("the GraphQL stand-in", () => {
  it("pages review threads 100 at a time, with their comments, authors and commits", async () => {
    const gh = new GitHubGraphql();
    for (let i = 1; i <= 130; i++) gh.addThread({ path: `f${i}.ts`, line: i, body: `finding ${i}`, author: "crewbot", bot: true, commit: SHA });
    gh.reply(gh.threads[0]!, "octocat", "won't fix");
    gh.resolveAs(gh.threads[1]!, "octocat");
    gh.intercept(2);

    const threads = await fetchReviewThreads(newOctokit(), "Codertocat", "Hello-World", 1);

    expect(threads).toHaveLength(130);
    expect(threads[0]).toMatchObject({ path: "f1.ts", line: 1, isResolved: false, diffSide: "RIGHT", originalLine: 1 });
    expect(threads[0]!.comments.map((c) => [c.author?.login, c.body, c.originalCommit?.oid])).toEqual([
      ["crewbot", "finding 1", SHA],
      ["octocat", "won't fix", SHA],
    ]);
    expect(threads[1]!.isResolved).toBe(true);
    expect(gh.requests.map((r) => r.variables.cursor ?? null)).toEqual([null, expect.any(String)]);
  });

  it("resolves a thread through the writer: one spaced, counted write", async () => {
    const gh = new GitHubGraphql();
    const thread = gh.addThread({ path: "a.ts", line: 3, body: "x", author: "crewbot", bot: true, commit: SHA });
    gh.intercept(1);
    const writer = new GitHubWriter({ octokit: newOctokit(), clock: fakeClock() });

    expect(await resolveReviewThread(writer, thread.id)).toBe(true);
    expect(gh.resolvedByMutation).toEqual([thread.id]);
    expect(writer.writes).toBe(1);
  });

  it.each([
    ["a field GitHub's schema does not have", "{ repository(owner: \"Codertocat\", name: \"Hello-World\") { pullRequest(number: 1) { reviewThreads(first: 1) { nodes { severity } } } } }", /Cannot query field "severity"/],
    ["a connection without first or last", "{ repository(owner: \"Codertocat\", name: \"Hello-World\") { pullRequest(number: 1) { reviewThreads { totalCount } } } }", /You must provide a `first` or `last` value/],
    ["more than 100 nodes", "{ repository(owner: \"Codertocat\", name: \"Hello-World\") { pullRequest(number: 1) { reviewThreads(first: 101) { totalCount } } } }", /exceeds the `first` limit of 100/],
    ["an unknown thread", "mutation { resolveReviewThread(input: { threadId: \"PRRT_nope\" }) { thread { id } } }", /Could not resolve to a node/],
  ])("refuses %s with 200 and errors, as GitHub does", async (_name, query, message) => {
    const gh = new GitHubGraphql();
    gh.expectErrors = true;
    gh.intercept(1);
    const error = await newOctokit().graphql(query).catch((e: unknown) => e as { errors?: Array<{ message: string }>; name: string });
    expect((error as { name: string }).name).toBe("GraphqlResponseError");
    expect((error as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(message);
    expect(gh.problems).toHaveLength(1);
  });

  it("is reached at /api/graphql on GitHub Enterprise Server (GHE_HOST)", async () => {
    const gh = new GitHubGraphql();
    gh.addThread({ path: "a.ts", line: 3, body: "x", author: "crewbot", bot: true, commit: SHA });
    gh.intercept(1, "https://ghe.example.test", "/api/graphql");
    const Octokit = githubOctokit({ GHE_HOST: "ghe.example.test" }, TestOctokit);

    const threads = await fetchReviewThreads(new Octokit({ auth: TOKEN }), "Codertocat", "Hello-World", 1);
    expect(threads.map((t) => t.path)).toEqual(["a.ts"]);
  });
});
