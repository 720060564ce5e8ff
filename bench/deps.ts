/**
 * The dependency pass of a review, printed by `npm run bench` (`BENCH_ONLY=deps`): a Renovate-style
 * pull request bumping 40 npm packages (package.json and package-lock.json) → the review posted
 * with its Dependencies section, against the registry stand-in on loopback (both versions of each
 * package published, a few with an install script or a `child_process` use) and an instant model.
 * Cold: the first review, nothing cached; warm: the same bump reviewed on a second pull request,
 * with the mirror and the tarball cache warm (goal < 2 s). GitHub is nock answering at once.
 */
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import nock from "nock";
import { pullRequestEvent, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { gitSync, makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { startNpmRegistry, type NpmRegistryStandIn, type PublishedVersion } from "../test/helpers/npm-registry.js";
import { API, boot, mockGitHub, REPO, TOKEN } from "./app.js";

const PACKAGES = 40;
const GOAL_MS = 2000;
const name = (i: number) => `bench-dep-${String(i).padStart(2, "0")}`;

/** Both versions of each package; every tenth adds a postinstall, every seventh a child process. */
function publishAll(registry: NpmRegistryStandIn): Array<[PublishedVersion, PublishedVersion]> {
  const body = (i: number, v: string) => `// ${name(i)} ${v}\n${Array.from({ length: 200 }, (_, k) => `exports.f${k} = (x) => x + ${k};`).join("\n")}\n`;
  return Array.from({ length: PACKAGES }, (_, i) => {
    const old = registry.publish({ name: name(i), version: "1.0.0", files: { "index.js": body(i, "1.0.0") } });
    const scripts = i % 10 === 0 ? { scripts: { postinstall: "node install.js" } } : {};
    const extra = i % 7 === 0 ? "\nrequire('child_process').execSync('true');\n" : "";
    const fresh = registry.publish({ name: name(i), version: "1.1.0", manifest: scripts, files: { "index.js": body(i, "1.1.0") + extra, "install.js": "1;\n" } });
    return [old, fresh];
  });
}

function manifest(version: string): string {
  return `${JSON.stringify({ name: "bench", version: "1.0.0", dependencies: Object.fromEntries(Array.from({ length: PACKAGES }, (_, i) => [name(i), `^${version}`])) }, null, 2)}\n`;
}

function lockfile(registryUrl: string, versions: Array<[PublishedVersion, PublishedVersion]>, side: 0 | 1): string {
  const version = side === 0 ? "1.0.0" : "1.1.0";
  const entries = Object.fromEntries(versions.map((pair, i) => [`node_modules/${name(i)}`, { version, resolved: new URL(pair[side].tarballPath.slice(1), registryUrl).href, integrity: pair[side].integrity }]));
  const root = { name: "bench", version: "1.0.0", dependencies: Object.fromEntries(Array.from({ length: PACKAGES }, (_, i) => [name(i), `^${version}`])) };
  return `${JSON.stringify({ name: "bench", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": root, ...entries } }, null, 2)}\n`;
}

/** The served repository: `main` at the old versions, `feature` (the heads of PRs #1 and #2) at the new. */
async function makeDepsRepo(dir: string, registry: NpmRegistryStandIn, versions: Array<[PublishedVersion, PublishedVersion]>): Promise<string> {
  await makeRepo({ "package.json": manifest("1.0.0"), "package-lock.json": lockfile(registry.url, versions, 0) }, dir);
  gitSync(dir, "checkout", "-q", "-b", "feature");
  await writeFile(`${dir}/package.json`, manifest("1.1.0"));
  await writeFile(`${dir}/package-lock.json`, lockfile(registry.url, versions, 1));
  gitSync(dir, "commit", "-q", "-am", "chore(deps): update 40 dependencies");
  const sha = gitSync(dir, "rev-parse", "HEAD").trim();
  for (const n of [1, 2]) gitSync(dir, "update-ref", `refs/pull/${n}/head`, sha);
  gitSync(dir, "checkout", "-q", "main");
  return sha;
}

/** GitHub for the two reviews: config (40 packages inspected), check runs, the reviews' times and bodies. */
function mockDepsGitHub(reviews: Array<{ at: number; body: string; pull: number }>, completed: number[]): void {
  const config = "review:\n  debounceSeconds: 0\n  dependencies:\n    maxPackages: 40\n";
  nock(API).persist().get(`${REPO}/contents/.github%2Fcrewbot.yml`).reply(200, config, { "content-type": "text/plain; charset=utf-8" });
  nock(API).persist().get(/\/pulls\/\d+\/(comments|reviews)$/).query(true).reply(200, []);
  mockGitHub([], { count: 0 });
  nock(API)
    .persist()
    .post(`${REPO}/check-runs`)
    .reply(201, { id: 9101 })
    .patch(/\/check-runs\/\d+$/)
    .reply(200, (_uri, raw) => ((typeof raw === "string" ? JSON.parse(raw) : raw).status === "completed" && completed.push(performance.now()), {}))
    .post(/\/pulls\/\d+\/reviews$/)
    .reply((uri, raw) => {
      const body = (typeof raw === "string" ? JSON.parse(raw) : raw) as { body: string };
      const pull = Number(/\/pulls\/(\d+)\//.exec(uri)![1]);
      reviews.push({ at: performance.now(), body: body.body, pull });
      return [200, { id: 800 + pull, html_url: `https://github.com/${REPO_OWNER}/${REPO_NAME}/pull/${pull}#pullrequestreview-${800 + pull}` }];
    });
}

async function until<T>(what: string, probe: () => T | undefined, ms = 180_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() - t0 > ms) throw new Error(`bench deps: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function depsBench(): Promise<string> {
  const registry = await startNpmRegistry();
  const versions = publishAll(registry);
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  const headSha = await makeDepsRepo(`${root}/${REPO_OWNER}/${REPO_NAME}.git`, registry, versions);
  const fake = await startFakeAnthropic(() => ({ text: "## Summary\nForty dependency updates; see the dependency facts." }));
  const reviews: Array<{ at: number; body: string; pull: number }> = [];
  const completed: number[] = [];
  mockDepsGitHub(reviews, completed);
  const { started, post } = await boot(true, fake.url, { CREWBOT_NPM_REGISTRY: registry.url });
  try {
    const review = async (pull: number) => {
      const requests = registry.tarballRequests().length;
      const t0 = performance.now();
      const status = await post(pullRequestEvent("opened", { headSha, number: pull, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME) }), "pull_request");
      if (status !== 200) throw new Error(`pull_request webhook answered ${status}`);
      const posted = await until(`the review of PR #${pull}`, () => reviews.find((r) => r.pull === pull));
      return { ms: posted.at - t0, body: posted.body, tarballs: registry.tarballRequests().length - requests };
    };
    const cold = await review(1);
    // The first job's check run completes; the installation's writes are spaced a second apart, so the next pull request comes after that spacing, as Renovate's would.
    await until("the first check run completed", () => completed[0]);
    await new Promise((r) => setTimeout(r, 1500));
    const warm = await review(2);
    const rows = (warm.body.split("### Dependencies")[1] ?? "").split("\n").filter((l) => /^\| `bench-dep-/.test(l)).length;
    const inspected = /(\d+) inspected/.exec(warm.body)?.[1] ?? "?";
    return (
      `dependency review of a ${PACKAGES}-package bump, instant model: webhook → review posted ${warm.ms.toFixed(0)} ms warm (goal < ${GOAL_MS} ms) ${warm.ms < GOAL_MS && rows === PACKAGES ? "✓" : "✗"}, ` +
      `${cold.ms.toFixed(0)} ms cold; ${rows} packages in the table (${inspected} inspected), tarballs fetched ${cold.tarballs} cold, ${warm.tarballs} warm`
    );
  } finally {
    await started.stop();
    nock.cleanAll();
    await git.close();
    await fake.close().catch(() => undefined);
    await registry.close();
  }
}
