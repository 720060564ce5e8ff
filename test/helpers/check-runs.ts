/** GitHub stand-ins for check runs: a commit's or a suite's runs, their annotations, and Actions job logs. */
import nock from "nock";
import { API } from "./github.js";
import { REPO_NAME, REPO_OWNER } from "../fixtures/payloads.js";

const REPO = `/repos/${REPO_OWNER}/${REPO_NAME}`;

/** A check run as GitHub lists it (the fields crewbot reads, and the ones the description requires around them). */
export function checkRun(o: { id: number; name: string; conclusion?: string; app?: { id: number; slug: string }; output?: Record<string, unknown> | null; headSha?: string }) {
  const app = o.app ?? { id: 15368, slug: "github-actions" };
  return {
    id: o.id,
    name: o.name,
    head_sha: o.headSha ?? "a".repeat(40),
    status: "completed",
    conclusion: o.conclusion ?? "failure",
    app: { id: app.id, slug: app.slug, name: app.slug },
    output: o.output === null ? { title: null, summary: null, text: null, annotations_count: 0, annotations_url: "" } : { title: null, summary: null, text: null, annotations_count: 0, annotations_url: "", ...o.output },
  };
}

/** `GET …/commits/{ref}/check-runs`: what `/implement` on a PR reads of its head (none failing by default). */
export function mockHeadCheckRuns(runs: unknown[] = [], sha?: string): nock.Scope {
  const path = sha ? `${REPO}/commits/${sha}/check-runs` : new RegExp(`^${REPO}/commits/[0-9a-f]{7,40}/check-runs`);
  return nock(API).get(path).query(true).reply(200, { total_count: runs.length, check_runs: runs });
}

/** `GET …/check-suites/{id}/check-runs`. */
export function mockSuiteCheckRuns(suiteId: number, runs: unknown[], times = 1): nock.Scope {
  return nock(API).get(`${REPO}/check-suites/${suiteId}/check-runs`).query(true).times(times).reply(200, { total_count: runs.length, check_runs: runs });
}

/** `GET …/check-runs/{id}/annotations`. */
export function mockAnnotations(checkRunId: number, annotations: unknown[]): nock.Scope {
  return nock(API).get(`${REPO}/check-runs/${checkRunId}/annotations`).query(true).reply(200, annotations);
}

/** `GET …/actions/jobs/{id}/logs`: GitHub's redirect to where the log is stored. */
export function mockJobLogRedirect(jobId: number, location: string): nock.Scope {
  return nock(API).get(`${REPO}/actions/jobs/${jobId}/logs`).reply(302, "", { Location: location });
}

/** A check suite as `GET …/commits/{ref}/check-suites` lists it (the fields crewbot reads, and the ones around them). */
export function checkSuite(o: { id: number; app?: { id: number; slug: string }; status?: string; conclusion?: string | null; runs?: number; headSha?: string }) {
  const app = o.app ?? { id: 15368, slug: "github-actions" };
  const status = o.status ?? "completed";
  return {
    id: o.id,
    node_id: `CS_${o.id}`,
    head_branch: "crewbot/issue-1-greet",
    head_sha: o.headSha ?? "a".repeat(40),
    status,
    conclusion: o.conclusion !== undefined ? o.conclusion : status === "completed" ? "failure" : null,
    app: { id: app.id, slug: app.slug, name: app.slug },
    latest_check_runs_count: o.runs ?? 1,
    url: `https://api.github.com${REPO}/check-suites/${o.id}`,
    check_runs_url: `https://api.github.com${REPO}/check-suites/${o.id}/check-runs`,
  };
}

/** `GET …/commits/{sha}/check-suites`: every suite of a head, `times` times (a waiting round reads them again). */
export function mockHeadCheckSuites(sha: string, suites: unknown[], times = 1): nock.Scope {
  return nock(API).get(`${REPO}/commits/${sha}/check-suites`).query(true).times(times).reply(200, { total_count: suites.length, check_suites: suites });
}
