/**
 * A pull request's review threads (GraphQL only: REST has no threads and cannot resolve one).
 * Reads go through the installation Octokit's `graphql`, which uses the same host as REST
 * (`/api/graphql` under GHE_HOST); the resolve mutation is a write, so it goes through the writer.
 */
import type { GitHubWriter } from "../report/github-writer.js";
import type { ReviewThread } from "./thread-plan.js";

/** GitHub's largest page; a thread's first 50 comments hold its finding and the replies that matter. */
const THREADS_PER_PAGE = 100;
const COMMENTS_PER_THREAD = 50;
/** 50 pages = 5000 threads: a bound, so a pathological PR cannot loop a job forever. */
const MAX_PAGES = 50;

export const REVIEW_THREADS_QUERY = `query ReviewThreads($owner: String!, $repo: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: ${THREADS_PER_PAGE}, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved isOutdated path line startLine originalLine originalStartLine diffSide resolvedBy { login }
          comments(first: ${COMMENTS_PER_THREAD}) { nodes { databaseId body url author { login } originalCommit { oid } } }
        }
      }
    }
  }
}`;

export const RESOLVE_THREAD_MUTATION = `mutation ResolveThread($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<Omit<ReviewThread, "comments"> & { comments: { nodes: ReviewThread["comments"] } }>;
      };
    } | null;
  } | null;
}

export interface GraphqlClient {
  graphql<T = unknown>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

/** Every review thread of the pull request, oldest first. */
export async function fetchReviewThreads(octokit: GraphqlClient, owner: string, repo: string, number: number): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const data: ThreadsPage = await octokit.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, { owner, repo, number, cursor });
    const connection = data.repository?.pullRequest?.reviewThreads;
    if (!connection) throw new Error(`GitHub has no pull request #${number} in ${owner}/${repo}`);
    for (const node of connection.nodes) threads.push({ ...node, comments: node.comments.nodes });
    if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) break;
    cursor = connection.pageInfo.endCursor;
  }
  return threads;
}

/** Resolves one thread; true when GitHub says it is resolved now. */
export async function resolveReviewThread(writer: GitHubWriter, threadId: string): Promise<boolean> {
  const data = await writer.mutate<{ resolveReviewThread: { thread: { id: string; isResolved: boolean } | null } | null }>(RESOLVE_THREAD_MUTATION, { threadId });
  return data.resolveReviewThread?.thread?.isResolved === true;
}
