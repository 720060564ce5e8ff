/**
 * The learnings pull request on GitHub: the file read at a commit, the branch and its open pull
 * request found, and the proposal committed through the Git Data API — one tree on the default
 * branch's head that changes `.github/crewbot/learnings.md` and nothing else, a commit GitHub
 * makes (and signs) as the app, and the branch moved without force. Never the default branch.
 */
import type { InstallationOctokit } from "../github/types.js";
import type { PeoplesText } from "../secrets/peoples-text.js";
import { explainRefError, type GitDataWriter } from "../workspace/api-commits.js";
import { assertPushable } from "../workspace/push.js";
import { LEARNINGS_BRANCH, LEARNINGS_PATH } from "./types.js";

export interface LearningsRepo {
  owner: string;
  repo: string;
  defaultBranch: string;
}

type Reader = Pick<InstallationOctokit, "request">;

/** A learnings file larger than this is refused rather than read: it is no list a reviewer reads. */
export const MAX_LEARNINGS_FILE_BYTES = 256 * 1024;

const status = (error: unknown): number | undefined => (error as { status?: number }).status;
const notFound = <T>(error: unknown, value: T): T => {
  if (status(error) === 404) return value;
  throw error;
};

/** The file at a commit or branch; undefined when it is not there. */
export async function readLearningsAt(octokit: Reader, repo: LearningsRepo, ref: string): Promise<string | undefined> {
  const { owner, repo: name } = repo;
  try {
    const { data } = (await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner, repo: name, path: LEARNINGS_PATH, ref })) as {
      data: { type?: string; size?: number; content?: string; encoding?: string };
    };
    if (data.type !== "file") throw new Error(`${LEARNINGS_PATH} at ${ref} is not a file`);
    if ((data.size ?? 0) > MAX_LEARNINGS_FILE_BYTES) throw new Error(`${LEARNINGS_PATH} at ${ref} is larger than ${MAX_LEARNINGS_FILE_BYTES / 1024} KB`);
    return Buffer.from(data.content ?? "", "base64").toString("utf8");
  } catch (error) {
    return notFound(error, undefined);
  }
}

export interface LearningsPull {
  number: number;
  url: string;
}

/** The open pull request from `crewbot/learnings` of this repository, if any. */
export async function openLearningsPull(octokit: Reader, repo: LearningsRepo): Promise<LearningsPull | undefined> {
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls", { owner: repo.owner, repo: repo.repo, head: `${repo.owner}:${LEARNINGS_BRANCH}`, state: "open", per_page: 10 })) as {
    data: Array<{ number: number; html_url: string; head: { ref: string } }>;
  };
  const pull = data.find((p) => p.head.ref === LEARNINGS_BRANCH);
  return pull ? { number: pull.number, url: pull.html_url } : undefined;
}

async function branchHead(octokit: Reader, repo: LearningsRepo, branch: string): Promise<string | undefined> {
  try {
    const { data } = (await octokit.request("GET /repos/{owner}/{repo}/git/ref/{ref}", { owner: repo.owner, repo: repo.repo, ref: `heads/${branch}` })) as { data: { object: { sha: string } } };
    return data.object.sha;
  } catch (error) {
    return notFound(error, undefined);
  }
}

/** Where the default branch and `crewbot/learnings` stand. */
export interface BranchState {
  defaultSha: string;
  defaultTree: string;
  /** The head of `crewbot/learnings`, when the branch exists. */
  branchSha?: string;
  /** Their merge base, when the branch exists. */
  mergeBase?: string;
  /** The default branch's head is in the branch's history (the branch is up to date with it). */
  upToDate: boolean;
}

export async function readBranchState(octokit: Reader, repo: LearningsRepo): Promise<BranchState> {
  const { owner, repo: name } = repo;
  const defaultSha = await branchHead(octokit, repo, repo.defaultBranch);
  if (defaultSha === undefined) throw new Error(`the default branch ${repo.defaultBranch} was not found`);
  const { data: commit } = (await octokit.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { owner, repo: name, commit_sha: defaultSha })) as { data: { tree: { sha: string } } };
  const branchSha = await branchHead(octokit, repo, LEARNINGS_BRANCH);
  if (branchSha === undefined) return { defaultSha, defaultTree: commit.tree.sha, upToDate: false };
  const { data: compare } = (await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", { owner, repo: name, basehead: `${defaultSha}...${branchSha}`, per_page: 1 })) as {
    data: { status: string; merge_base_commit: { sha: string } };
  };
  return { defaultSha, defaultTree: commit.tree.sha, branchSha, mergeBase: compare.merge_base_commit.sha, upToDate: compare.status === "ahead" || compare.status === "identical" };
}

/** The ids of the learnings the default branch's file held at `until` (epoch ms); undefined when it had no such file then. */
export async function fileAsOf(octokit: Reader, repo: LearningsRepo, defaultSha: string, until: number): Promise<string | undefined> {
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/commits", { owner: repo.owner, repo: repo.repo, sha: defaultSha, path: LEARNINGS_PATH, until: new Date(until).toISOString(), per_page: 1 })) as {
    data: Array<{ sha: string }>;
  };
  return data[0] ? await readLearningsAt(octokit, repo, data[0].sha) : undefined;
}

/** A learnings commit's tree entries: the file, and nothing else. */
export const learningsTreeEntries = (content: PeoplesText) => [{ path: LEARNINGS_PATH, mode: "100644" as const, type: "blob" as const, content }];

/**
 * Commits `content` as the file on `crewbot/learnings`: a tree on the default branch's head with
 * only that path changed; the commit's parents are the branch's head (so nothing is force-pushed,
 * and what a person committed there stays in its history) and, when the branch is behind, the
 * default branch's head too (so the pull request shows this file alone and never conflicts).
 * `content` is crewbot's edit of the files people wrote: their lines go byte for byte.
 */
export async function commitLearnings(writer: GitDataWriter, repo: LearningsRepo, state: BranchState, content: PeoplesText, message: string): Promise<string> {
  assertPushable({ branch: LEARNINGS_BRANCH, defaultBranch: repo.defaultBranch });
  const { owner, repo: name } = repo;
  try {
    const { data: tree } = await writer.write<{ sha: string }>("POST /repos/{owner}/{repo}/git/trees", { owner, repo: name, base_tree: state.defaultTree, tree: learningsTreeEntries(content) });
    const parents = state.branchSha === undefined ? [state.defaultSha] : state.upToDate ? [state.branchSha] : [state.branchSha, state.defaultSha];
    const { data: commit } = await writer.write<{ sha: string }>("POST /repos/{owner}/{repo}/git/commits", { owner, repo: name, message, tree: tree.sha, parents });
    if (state.branchSha === undefined) {
      await writer.write("POST /repos/{owner}/{repo}/git/refs", { owner, repo: name, ref: `refs/heads/${LEARNINGS_BRANCH}`, sha: commit.sha });
    } else {
      await writer.write("PATCH /repos/{owner}/{repo}/git/refs/{ref}", { owner, repo: name, ref: `heads/${LEARNINGS_BRANCH}`, sha: commit.sha, force: false });
    }
    return commit.sha;
  } catch (error) {
    throw explainRefError(error, LEARNINGS_BRANCH);
  }
}

export const LEARNINGS_PR_TITLE = "crewbot learnings: what this team taught crewbot";

/**
 * Updates the open pull request's body, or opens it (ready for review: it changes one markdown
 * file, nothing to build). A pull request another proposal opened meanwhile (GitHub's 422) is
 * found again and updated: never a second one.
 */
export async function openOrUpdatePull(
  writer: GitDataWriter,
  repo: LearningsRepo,
  open: LearningsPull | undefined,
  body: string,
  findOpen: () => Promise<LearningsPull | undefined>,
): Promise<LearningsPull & { opened: boolean }> {
  const { owner, repo: name } = repo;
  const update = async (pull: LearningsPull) => {
    await writer.write("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo: name, pull_number: pull.number, body });
    return { ...pull, opened: false };
  };
  if (open) return update(open);
  try {
    const { data } = await writer.write<{ number: number; html_url: string }>("POST /repos/{owner}/{repo}/pulls", {
      owner,
      repo: name,
      title: LEARNINGS_PR_TITLE,
      head: LEARNINGS_BRANCH,
      base: repo.defaultBranch,
      body,
      draft: false,
    });
    return { number: data.number, url: data.html_url, opened: true };
  } catch (error) {
    const found = status(error) === 422 ? await findOpen() : undefined;
    if (!found) throw error;
    return update(found);
  }
}
