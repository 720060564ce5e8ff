/**
 * GitHub's GraphQL endpoint for the stand-ins: an excerpt of GitHub's schema (review threads of a
 * pull request, and `resolveReviewThread`) executed by the real `graphql` implementation against
 * in-memory threads. As GitHub does, a query that does not validate, a connection asked for
 * without `first`/`last` or more than 100 nodes, and an unknown node id are answered 200 with
 * `{"errors":[…]}`. Any such error fails the test unless the test said it expects one.
 */
import { buildSchema, graphql, type GraphQLError } from "graphql";
import nock from "nock";

/** api.github.com (as `./github.js` names it; not imported, so benches load this without vitest). */
const API = "https://api.github.com";

/** The fields of GitHub's public schema that crewbot uses, spelled as GitHub spells them. */
export const GITHUB_SCHEMA_EXCERPT = /* GraphQL */ `
  scalar GitObjectID
  scalar DateTime
  scalar URI
  interface Node { id: ID! }
  interface Actor { login: String! }
  type User implements Actor & Node { id: ID! login: String! }
  type Bot implements Actor & Node { id: ID! login: String! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Commit implements Node { id: ID! oid: GitObjectID! }
  enum DiffSide { LEFT RIGHT }
  type PullRequestReviewComment implements Node {
    id: ID!
    databaseId: Int
    body: String!
    url: URI!
    author: Actor
    path: String!
    line: Int
    originalLine: Int
    startLine: Int
    originalStartLine: Int
    outdated: Boolean!
    commit: Commit
    originalCommit: Commit
    createdAt: DateTime!
  }
  type PullRequestReviewCommentConnection { nodes: [PullRequestReviewComment] pageInfo: PageInfo! totalCount: Int! }
  type PullRequestReviewThread implements Node {
    id: ID!
    isResolved: Boolean!
    isOutdated: Boolean!
    isCollapsed: Boolean!
    path: String!
    line: Int
    startLine: Int
    originalLine: Int
    originalStartLine: Int
    diffSide: DiffSide!
    startDiffSide: DiffSide
    resolvedBy: User
    viewerCanResolve: Boolean!
    comments(first: Int, after: String, last: Int, before: String, skip: Int): PullRequestReviewCommentConnection!
  }
  type PullRequestReviewThreadConnection { nodes: [PullRequestReviewThread] pageInfo: PageInfo! totalCount: Int! }
  type PullRequest implements Node {
    id: ID!
    number: Int!
    reviewThreads(first: Int, after: String, last: Int, before: String): PullRequestReviewThreadConnection!
  }
  type Repository implements Node { id: ID! name: String! pullRequest(number: Int!): PullRequest }
  type Query {
    repository(owner: String!, name: String!, followRenames: Boolean = true): Repository
    node(id: ID!): Node
  }
  input ResolveReviewThreadInput { threadId: ID! clientMutationId: String }
  type ResolveReviewThreadPayload { clientMutationId: String thread: PullRequestReviewThread }
  type Mutation { resolveReviewThread(input: ResolveReviewThreadInput!): ResolveReviewThreadPayload }
`;

const schema = buildSchema(GITHUB_SCHEMA_EXCERPT);

export interface StandInComment {
  databaseId: number;
  body: string;
  /** GraphQL's login: a GitHub App's bot without `[bot]`. */
  author: { login: string; bot?: boolean };
  /** The commit it was made on. */
  commit: string;
}

export interface StandInThread {
  id: string;
  path: string;
  line: number | null;
  startLine: number | null;
  originalLine: number;
  originalStartLine: number | null;
  diffSide: "LEFT" | "RIGHT";
  isResolved: boolean;
  isOutdated: boolean;
  /** Who resolved it: crewbot (through the mutation) or a person. */
  resolvedBy?: string;
  comments: StandInComment[];
}

class GitHubError extends Error {
  constructor(
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

/** A page of a connection, with GitHub's rules for `first`, `last` and cursors. */
function page<T>(all: readonly T[], args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null }, name: string) {
  if (args.first == null && args.last == null) throw new GitHubError(`You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`, "MISSING_PAGINATION_BOUNDARIES");
  for (const [key, n] of [["first", args.first], ["last", args.last]] as const) {
    if (n != null && (n < 0 || n > 100)) throw new GitHubError(`Requesting ${n} records on the \`${name}\` connection exceeds the \`${key}\` limit of 100 records.`, "EXCESSIVE_PAGINATION");
  }
  const at = (cursor: string | null | undefined) => (cursor ? Number(Buffer.from(cursor, "base64").toString("utf8").replace(/^cursor:v2:/, "")) : undefined);
  let start = args.after ? at(args.after)! + 1 : 0;
  let end = args.before ? at(args.before)! : all.length;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  const cursor = (i: number) => Buffer.from(`cursor:v2:${i}`).toString("base64");
  const nodes = all.slice(start, end);
  return {
    nodes,
    totalCount: all.length,
    pageInfo: { hasNextPage: end < all.length, hasPreviousPage: start > 0, startCursor: nodes.length ? cursor(start) : null, endCursor: nodes.length ? cursor(end - 1) : null },
  };
}

/** Who resolved a thread through the mutation: the app's bot. */
const BOT_RESOLVER = "crewbot";

const live = new Set<GitHubGraphql>();
// Under vitest, a test fails on any GraphQL request GitHub would have refused; benches run without it.
if (process.env.VITEST) {
  const { afterEach, expect } = await import("vitest");
  afterEach(() => {
    const problems = [...live].flatMap((g) => (g.expectErrors ? [] : g.problems));
    live.clear();
    expect(problems, "GraphQL requests GitHub would have refused").toEqual([]);
  });
}

export class GitHubGraphql {
  readonly threads: StandInThread[] = [];
  /** Every request: its query and variables. */
  readonly requests: Array<{ query: string; variables: Record<string, unknown> }> = [];
  /** Thread ids resolved through `resolveReviewThread`, in order. */
  readonly resolvedByMutation: string[] = [];
  /** Errors GitHub would have answered; they fail the test unless `expectErrors`. */
  readonly problems: string[] = [];
  expectErrors = false;
  private nextComment = 9000;

  constructor(readonly repo = { owner: "Codertocat", name: "Hello-World", number: 1 }) {
    live.add(this);
  }

  /** One thread per inline comment of a posted review (`POST …/pulls/{n}/reviews` body), by `author`. */
  addReview(review: { commit_id: string; comments: Array<{ path: string; body: string; line: number; side?: string; start_line?: number }> }, author = "crewbot"): StandInThread[] {
    return review.comments.map((c) =>
      this.addThread({ path: c.path, line: c.line, startLine: c.start_line ?? null, side: (c.side as "LEFT" | "RIGHT") ?? "RIGHT", body: c.body, author, bot: true, commit: review.commit_id }),
    );
  }

  addThread(o: { path: string; line: number; startLine?: number | null; side?: "LEFT" | "RIGHT"; body: string; author: string; bot?: boolean; commit: string }): StandInThread {
    const thread: StandInThread = {
      id: `PRRT_kwDO${String(this.threads.length + 1).padStart(6, "0")}`,
      ...{ path: o.path, line: o.line, startLine: o.startLine ?? null, originalLine: o.line, originalStartLine: o.startLine ?? null },
      ...{ diffSide: o.side ?? "RIGHT", isResolved: false, isOutdated: false },
      comments: [{ databaseId: this.nextComment++, body: o.body, author: { login: o.author, bot: o.bot }, commit: o.commit }],
    };
    this.threads.push(thread);
    return thread;
  }

  reply(thread: StandInThread, login: string, body: string): void {
    thread.comments.push({ databaseId: this.nextComment++, body, author: { login }, commit: thread.comments[0]!.commit });
  }

  /** A person pressed "Resolve conversation". */
  resolveAs(thread: StandInThread, login: string): void {
    thread.isResolved = true;
    thread.resolvedBy = login;
  }

  /** Answers `POST /graphql` `times` times (GitHub Enterprise Server: `base` `https://ghe…`, path `/api/graphql`). */
  intercept(times = 1, base = API, path = "/graphql"): nock.Scope {
    return nock(base)
      .post(path)
      .times(times)
      .reply(async (_uri, body) => [200, await this.execute(body as { query: string; variables?: Record<string, unknown> })]);
  }

  async execute(body: { query: string; variables?: Record<string, unknown>; operationName?: string }): Promise<unknown> {
    const variables = body.variables ?? {};
    this.requests.push({ query: body.query, variables });
    const result = await graphql({ schema, source: body.query, rootValue: this.root(), variableValues: variables, operationName: body.operationName });
    if (!result.errors) return { data: result.data };
    const errors = result.errors.map((e: GraphQLError) => {
      const type = e.originalError instanceof GitHubError ? e.originalError.type : undefined;
      return { ...(type ? { type } : {}), message: e.message, ...(e.locations ? { locations: e.locations } : {}), ...(e.path ? { path: e.path } : {}) };
    });
    this.problems.push(...errors.map((e) => e.message));
    // Validation errors come without data, execution errors beside it (as GitHub answers).
    return result.data === undefined ? { errors } : { data: result.data, errors };
  }

  private threadNode(t: StandInThread) {
    return {
      __typename: "PullRequestReviewThread",
      ...{ id: t.id, isResolved: t.isResolved, isOutdated: t.isOutdated, isCollapsed: t.isResolved, path: t.path },
      ...{ line: t.line, startLine: t.startLine, originalLine: t.originalLine, originalStartLine: t.originalStartLine, diffSide: t.diffSide, startDiffSide: t.startLine === null ? null : t.diffSide },
      // \`resolvedBy\` is a \`User\`: a GitHub App's bot (crewbot resolving through the mutation) is none, so GitHub says null.
      resolvedBy: t.resolvedBy && t.resolvedBy !== BOT_RESOLVER ? { __typename: "User", id: `U_${t.resolvedBy}`, login: t.resolvedBy } : null,
      viewerCanResolve: !t.isResolved,
      comments: (args: Record<string, number | string | null>) => page(t.comments.map((c) => this.commentNode(t, c)), args, "comments"),
    };
  }

  private commentNode(t: StandInThread, c: StandInComment) {
    const commit = { __typename: "Commit", id: `C_${c.commit}`, oid: c.commit };
    return {
      __typename: "PullRequestReviewComment",
      ...{ id: `PRRC_${c.databaseId}`, databaseId: c.databaseId, body: c.body, path: t.path, outdated: t.isOutdated },
      url: `https://github.com/${this.repo.owner}/${this.repo.name}/pull/${this.repo.number}#discussion_r${c.databaseId}`,
      author: { __typename: c.author.bot ? "Bot" : "User", id: `A_${c.author.login}`, login: c.author.login },
      ...{ line: t.line, originalLine: t.originalLine, startLine: t.startLine, originalStartLine: t.originalStartLine },
      ...{ commit, originalCommit: commit, createdAt: "2026-01-01T00:00:00Z" },
    };
  }

  private root() {
    const pullRequest = ({ number }: { number: number }) =>
      number !== this.repo.number
        ? null
        : { __typename: "PullRequest", id: `PR_${number}`, number, reviewThreads: (args: Record<string, number | string | null>) => page(this.threads.map((t) => this.threadNode(t)), args, "reviewThreads") };
    return {
      repository: ({ owner, name }: { owner: string; name: string }) => {
        if (owner.toLowerCase() !== this.repo.owner.toLowerCase() || name.toLowerCase() !== this.repo.name.toLowerCase()) {
          throw new GitHubError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, "NOT_FOUND");
        }
        return { __typename: "Repository", id: "R_1", name, pullRequest };
      },
      node: ({ id }: { id: string }) => {
        const t = this.threads.find((x) => x.id === id);
        return t ? this.threadNode(t) : null;
      },
      resolveReviewThread: ({ input }: { input: { threadId: string; clientMutationId?: string } }) => {
        const t = this.threads.find((x) => x.id === input.threadId);
        if (!t) throw new GitHubError(`Could not resolve to a node with the global id of '${input.threadId}'`, "NOT_FOUND");
        t.isResolved = true;
        t.resolvedBy = BOT_RESOLVER;
        this.resolvedByMutation.push(t.id);
        return { clientMutationId: input.clientMutationId ?? null, thread: this.threadNode(t) };
      },
    };
  }
}
