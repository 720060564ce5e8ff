/**
 * The writer and text people wrote: a description crewbot edits, a path, a file's bytes go byte
 * for byte — token shapes, a private-key BEGIN line without END and a length near GitHub's limit
 * included — while what crewbot adds is still redacted; nothing of theirs is cut, and a literal
 * secret of crewbot's in it is refused rather than changed.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { GITHUB_BODY_LIMIT } from "../../src/text/github-markdown.js";
import { PeoplesText, PeoplesTextRefused } from "../../src/secrets/peoples-text.js";
import { REDACTED } from "../../src/secrets/redact.js";
import { API, fakeClock, newOctokit, TOKEN, useNock } from "../helpers/github.js";
import { BEGIN_WITHOUT_END, paddedTo, PEOPLES_TEXT, TOKEN_SHAPES } from "../helpers/peoples-text.js";

useNock();

const PULL = "/repos/o/r/pulls/7";
const pr = { owner: "o", repo: "r", pull_number: 7 };
const OPERATOR_SECRET = "operator-webhook-secret-value";
const writer = () => new GitHubWriter({ octokit: newOctokit(), clock: fakeClock(), secrets: [TOKEN, OPERATOR_SECRET] });
/** crewbot's own part, with a token shape and a secret of its own that must not leave. */
const OURS = `<!-- crewbot:block -->\ncrewbot saw ghs_${"q".repeat(36)} and ${OPERATOR_SECRET}\n<!-- crewbot:end -->`;
const OURS_SENT = `<!-- crewbot:block -->\ncrewbot saw ${REDACTED} and ${REDACTED}\n<!-- crewbot:end -->`;

function pullOnGitHub(body: string) {
  const sent: string[] = [];
  nock(API).get(PULL).times(2).optionally().reply(200, { body });
  nock(API).patch(PULL, (b: { body: string }) => (sent.push(b.body), true)).optionally().reply(200, {});
  return sent;
}

describe("editPullBody and the description people wrote", () => {
  it("sends their text byte for byte, past GitHub's comment margin, and redacts only crewbot's block", async () => {
    // Over the 65,000 characters crewbot fits its own comments to, under GitHub's 65,536.
    const theirs = paddedTo(PEOPLES_TEXT, GITHUB_BODY_LIMIT - OURS.length - 20);
    const sent = pullOnGitHub(theirs);
    const out = await writer().editPullBody(pr, (body) => `${body}\n\n${OURS}`);
    expect(out.written).toBe(true);
    expect(sent).toEqual([`${theirs}\n\n${OURS_SENT}`]);
    expect(sent[0]!.startsWith(theirs)).toBe(true);
    for (const shape of TOKEN_SHAPES) expect(sent[0]).toContain(shape);
  });

  it("keeps their lines on both sides of a block it replaces, a BEGIN line before it included", async () => {
    const theirs = `${BEGIN_WITHOUT_END}\n\n<!-- crewbot:block -->\nold\n<!-- crewbot:end -->\n\n${PEOPLES_TEXT}`;
    const sent = pullOnGitHub(theirs);
    await writer().editPullBody(pr, (body) => body.replace(/<!-- crewbot:block -->[\s\S]*<!-- crewbot:end -->/, OURS));
    expect(sent).toEqual([`${BEGIN_WITHOUT_END}\n\n${OURS_SENT}\n\n${PEOPLES_TEXT}`]);
  });

  it("refuses, and never cuts, a description that crewbot's part would take over GitHub's limit", async () => {
    const theirs = paddedTo(PEOPLES_TEXT, GITHUB_BODY_LIMIT - 10);
    const sent = pullOnGitHub(theirs);
    const w = writer();
    await expect(w.editPullBody(pr, (body) => `${body}\n\n${OURS}`)).rejects.toThrow(/over GitHub's 65,536, and crewbot never cuts text people wrote/);
    expect(sent).toEqual([]);
    expect(w.writes).toBe(0);
  });

  it("refuses to send back their text when it holds crewbot's own secret: neither posted nor changed", async () => {
    const sent = pullOnGitHub(`${PEOPLES_TEXT}\n\nleaked: ${TOKEN}`);
    const error = await writer().editPullBody(pr, (body) => `${body}\n\n${OURS}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeoplesTextRefused);
    expect((error as Error).message).toMatch(/holds one of crewbot's own secrets/);
    expect((error as Error).message).not.toContain(TOKEN);
    expect(sent).toEqual([]);
  });
});

describe("the writer's other people's text", () => {
  it("sends a repository path as it is, wherever it is nested, while the comment beside it is redacted", async () => {
    const path = `fixtures/${TOKEN_SHAPES[0]}.json`;
    let received: unknown;
    nock(API).post("/repos/o/r/pulls/3/reviews").reply(200, (_uri, body) => ((received = body), { id: 1 }));
    await writer().write("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
      ...{ owner: "o", repo: "r", pull_number: 3, event: "COMMENT", body: "see" },
      comments: [{ path, line: 2, body: `the key ${TOKEN_SHAPES[2]}` }],
    });
    expect(received).toEqual({ event: "COMMENT", body: "see", comments: [{ path, line: 2, body: `the key ${REDACTED}` }] });
  });

  it("sends a file's bytes as they are, and a file people edited with only crewbot's lines redacted", async () => {
    const bytes = Buffer.from(`${PEOPLES_TEXT}\n\u0000\u00ff binary tail`, "latin1");
    const trees: unknown[] = [];
    nock(API).post("/repos/o/r/git/blobs").reply(201, (_uri, body) => ((trees.push(body), { sha: "b".repeat(40) })));
    nock(API).post("/repos/o/r/git/trees").reply(201, (_uri, body) => ((trees.push(body), { sha: "t".repeat(40) })));
    const w = writer();
    await w.write("POST /repos/{owner}/{repo}/git/blobs", { owner: "o", repo: "r", content: PeoplesText.blob(bytes), encoding: "base64" });
    const edited = `${PEOPLES_TEXT}\n- crewbot's bullet ${TOKEN_SHAPES[0]}x\n`;
    await w.write("POST /repos/{owner}/{repo}/git/trees", { owner: "o", repo: "r", tree: [{ path: "f.md", mode: "100644", type: "blob", content: PeoplesText.edited(edited, `${PEOPLES_TEXT}\n`) }] });
    expect(Buffer.from((trees[0] as { content: string }).content, "base64")).toEqual(bytes);
    expect((trees[1] as { tree: Array<{ content: string }> }).tree[0]!.content).toBe(`${PEOPLES_TEXT}\n- crewbot's bullet ${REDACTED}\n`);
  });

  it("refuses a file whose bytes hold crewbot's own secret", async () => {
    const w = writer();
    const content = PeoplesText.blob(Buffer.from(`config:\n  token: ${TOKEN}\n`));
    await expect(w.write("POST /repos/{owner}/{repo}/git/blobs", { owner: "o", repo: "r", content, encoding: "base64" })).rejects.toBeInstanceOf(PeoplesTextRefused);
    expect(w.writes).toBe(0);
  });
});

describe("PeoplesText.edited", () => {
  it("redacts a run of crewbot's lines as one text: a key it quotes whole is gone, theirs around it stays", () => {
    const theirs = `${BEGIN_WITHOUT_END}\ntheirs ${TOKEN_SHAPES[2]}`;
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----";
    const text = `${theirs}\n${key}\nafter`;
    expect(PeoplesText.edited(text, theirs).sendable([], "a file")).toBe(`${theirs}\n${REDACTED}\nafter`);
  });
});
