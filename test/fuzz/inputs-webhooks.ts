/**
 * Webhook payloads as GitHub signs them — real examples (`test/fixtures/`) — with what a stranger
 * controls made hostile: every string (titles, bodies, logins, branch names, labels) any text of
 * any length, numbers at the edges, the fields GitHub may leave null set to null, and lists
 * (labels, a suite's pull requests) a hundred thousand entries long. The shape stays GitHub's.
 */
import fc from "fast-check";
import { checkRunRequestedAction } from "../fixtures/check-run.js";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";
import { issueCommentCreated, issueLabeled, pullRequestEvent, reviewCommentCreated } from "../fixtures/payloads.js";
import { edgeNumber, hostileText, lengthNear } from "./hostile.js";

type Json = Record<string, any>;
type Path = Array<string | number>;

/** Paths to every leaf of a payload, by its kind. */
function leaves(value: unknown, at: Path = [], found: { strings: Path[]; numbers: Path[]; lists: Path[] } = { strings: [], numbers: [], lists: [] }) {
  if (typeof value === "string") found.strings.push(at);
  else if (typeof value === "number") found.numbers.push(at);
  else if (Array.isArray(value)) {
    if (value.length > 0) found.lists.push(at);
    value.forEach((v, i) => leaves(v, [...at, i], found));
  } else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) leaves(v, [...at, k], found);
  return found;
}

type Edit = { path: Path; value: unknown } | { path: Path; times: number };

function apply(payload: Json, edits: readonly Edit[]): Json {
  for (const edit of edits) {
    const parent = edit.path.slice(0, -1).reduce<any>((node, key) => (node === null || typeof node !== "object" ? undefined : node[key]), payload);
    const key = edit.path.at(-1)!;
    if (parent === null || typeof parent !== "object" || !(key in parent)) continue;
    if ("times" in edit) {
      const list = parent[key] as unknown[];
      if (Array.isArray(list) && list.length > 0) parent[key] = Array.from({ length: edit.times }, (_, i) => list[i % list.length]);
    } else parent[key] = edit.value;
  }
  return payload;
}

const payloadText = hostileText({ max: 120_000, caps: [1_000, 65_536, 100_000], tokens: ["/review", "crewbot", "[bot]", "refs/heads/", "crewbot/issue-1-x", "open", "closed", "failure", "Bot"] });

/** A real payload with hostile edits; `nullable` are the paths GitHub may send as null. */
function hostilePayload(base: () => Json, nullable: readonly Path[]): fc.Arbitrary<Json> {
  const shape = leaves(base());
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ path: fc.constantFrom(...shape.strings), value: payloadText }) },
    { weight: 2, arbitrary: fc.record({ path: fc.constantFrom(...shape.numbers), value: edgeNumber() }) },
    { weight: 1, arbitrary: fc.record({ path: fc.constantFrom(...nullable), value: fc.constant(null) }) },
    ...(shape.lists.length > 0 ? [{ weight: 1, arbitrary: fc.record({ path: fc.constantFrom(...shape.lists), times: lengthNear(150_000, [100_000]) }) }] : []),
  );
  return fc.array(edit, { maxLength: 8 }).map((edits) => apply(base(), edits));
}

const SHA = "0123456789abcdef0123456789abcdef01234567";

export const pullRequestPayload = fc
  .constantFrom("opened", "synchronize", "reopened", "ready_for_review", "closed", "labeled" as const)
  .chain((action) =>
    hostilePayload(() => pullRequestEvent(action, { headSha: SHA, labels: ["a", "b"] }), [
      ["pull_request", "body"],
      ["pull_request", "user"],
      ["pull_request", "head", "repo"],
      ["installation"],
    ]),
  );

export const checkSuitePayload = hostilePayload(() => checkSuiteCompleted({ suiteId: 1, headSha: SHA, headBranch: "crewbot/issue-1-x" }), [
  ["check_suite", "head_branch"],
  ["check_suite", "conclusion"],
  ["check_suite", "app"],
  ["installation"],
]);

export const checkRunPayload = hostilePayload(() => checkRunRequestedAction({ login: "alice", headSha: SHA }), [["requested_action"], ["check_run", "app"], ["installation"]]);

/** The example comment is on an issue; GitHub marks one on a pull request with `issue.pull_request`. */
const onPullRequest = (payload: Json): Json => ({ ...payload, issue: { ...payload.issue, pull_request: { url: "https://api.github.com/repos/o/r/pulls/1" } } });

export const commentPayload = fc.oneof(
  hostilePayload(() => issueCommentCreated("/plan add a cache"), [["comment", "user"], ["issue", "body"], ["issue", "user"], ["installation"]]),
  hostilePayload(() => onPullRequest(issueCommentCreated("/review full")), [["comment", "user"], ["issue", "body"], ["installation"]]),
  hostilePayload(() => reviewCommentCreated("@crewbot why?", { inReplyTo: 7, line: 3, side: "RIGHT" }), [
    ["comment", "user"],
    ["comment", "line"],
    ["comment", "original_line"],
    ["comment", "start_line"],
    ["comment", "side"],
    ["pull_request", "body"],
    ["pull_request", "head", "repo"],
    ["installation"],
  ]),
);

/** `on-label.ts` drops a payload without a label or an installation before deciding. */
export const labelPayload = hostilePayload(() => issueLabeled("crewbot:plan"), [["issue", "body"], ["issue", "user"]]);

export const WEBHOOK_SHA = SHA;
