import { describe, expect, it } from "vitest";
import type { JobRecord } from "../../src/queue/types.js";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { findJobComment, removeTriggerLabel } from "../../src/report/job-comment.js";
import { BEGIN_WITHOUT_END, TOKEN_SHAPES } from "../helpers/peoples-text.js";

const job = { id: "job-42", createdAt: Date.UTC(2026, 11, 1, 10, 0, 0, 750), target: { installationId: 1, owner: "o", repo: "r", number: 7, isPullRequest: false } } as JobRecord;

/** A writer whose reads answer from `pages` (GitHub's pages of issue comments), recording each request. */
function readingWriter(pages: Array<Array<{ id: number; body: string; user: { login: string } | null }>>) {
  const asked: Array<Record<string, unknown>> = [];
  const octokit = {
    request: async (route: string, params: Record<string, unknown> = {}) => {
      expect(route).toBe("GET /repos/{owner}/{repo}/issues/{issue_number}/comments");
      asked.push(params);
      return { status: 200, headers: {}, data: pages[Number(params.page) - 1] ?? [] };
    },
  };
  return { writer: new GitHubWriter({ octokit }), asked };
}

const filler = (from: number) => Array.from({ length: 100 }, (_, i) => ({ id: from + i, body: "chatter", user: { login: "someone" } }));

describe("findJobComment", () => {
  it("finds crewbot's own comment with the job's marker on a later page, reading since the job was made", async () => {
    const { writer, asked } = readingWriter([filler(1), [{ id: 500, body: "x\n<!-- crewbot:job:job-42 -->", user: { login: "Crewbot[bot]" } }]]);
    expect(await findJobComment(job, writer, "crewbot[bot]")).toBe(500);
    expect(asked).toEqual([1, 2].map((page) => ({ owner: "o", repo: "r", issue_number: 7, since: "2026-12-01T10:00:00Z", per_page: 100, page })));
  });

  it("takes no one else's quote of the marker, nor crewbot's comment of another job; stops at a short page", async () => {
    const { writer, asked } = readingWriter([
      [
        { id: 1, body: "> <!-- crewbot:job:job-42 -->", user: { login: "mallory" } },
        { id: 2, body: "<!-- crewbot:job:job-421 -->", user: { login: "crewbot[bot]" } },
        { id: 3, body: "<!-- crewbot:job:job-42 -->", user: null },
      ],
    ]);
    expect(await findJobComment(job, writer, "crewbot[bot]")).toBeUndefined();
    expect(asked).toHaveLength(1);
  });

  it("reads at most ten pages", async () => {
    const { writer, asked } = readingWriter(Array.from({ length: 20 }, (_, i) => filler(i * 100)));
    expect(await findJobComment(job, writer, "crewbot[bot]")).toBeUndefined();
    expect(asked).toHaveLength(10);
  });
});

describe("removeTriggerLabel", () => {
  it("removes the label by the name people gave it, byte for byte, token shapes and all", async () => {
    const name = `crewbot ${TOKEN_SHAPES[0]} ${BEGIN_WITHOUT_END}`;
    const sent: Array<[string, Record<string, unknown>]> = [];
    const octokit = { request: async (route: string, params: Record<string, unknown> = {}) => (sent.push([route, params]), { status: 200, headers: {}, data: [] }) };
    const labelled = { ...job, trigger: { sender: "alice", request: "", label: name } } as JobRecord;
    await removeTriggerLabel(labelled, new GitHubWriter({ octokit, minSpacingMs: 0 }), { warn: () => {}, error: () => {} });
    expect(sent).toEqual([["DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", { owner: "o", repo: "r", issue_number: 7, name }]]);
  });
});
