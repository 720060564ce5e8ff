/**
 * The triggers' one typed read of a repository's config: remembered a minute per repository (any
 * case), shared by reads at the same time, read afresh when asked, and the defaults (with a
 * warning) when the config cannot be read — the job the event starts then says why.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { TriggerConfigCache } from "../../src/config/trigger-config.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";
import { API, TOKEN, useNock } from "../helpers/github.js";

useNock();

const REPO_CONFIG = "/repos/acme/app/contents/.github%2Fcrewbot.yml";
const RAW = { "content-type": "text/plain; charset=utf-8" };
const octokit = new TestOctokit({ auth: TOKEN });

function cache() {
  const warnings: string[] = [];
  const clock = { now: 1_000_000 };
  const triggers = new TriggerConfigCache({ warn: (m) => void warnings.push(m) }, () => clock.now);
  return { read: triggers.repoConfig, warnings, clock };
}

describe("TriggerConfigCache.repoConfig", () => {
  it("gives the parsed, typed config, read once a minute per repository in any case", async () => {
    const { read, clock } = cache();
    nock(API).get(REPO_CONFIG).reply(200, "review:\n  auto: false\ntriggers:\n  mention: false\n", RAW);
    const config = await read(octokit, "acme", "app");
    expect(config.review.auto).toBe(false);
    expect(config.triggers).toEqual({ ...DEFAULT_CONFIG.triggers, mention: false });
    expect(config.implement.ciFix.branches).toEqual(DEFAULT_CONFIG.implement.ciFix.branches);
    clock.now += 59_999;
    expect(await read(octokit, "ACME", "App")).toBe(config); // nock refuses a second request

    clock.now += 1;
    nock(API).get(REPO_CONFIG).reply(200, "review:\n  auto: true\n", RAW);
    expect((await read(octokit, "acme", "app")).review.auto).toBe(true);
  });

  it("shares one read between reads at the same time", async () => {
    const { read } = cache();
    nock(API).get(REPO_CONFIG).reply(200, "triggers:\n  labels: { plan: go }\n", RAW);
    const [a, b] = await Promise.all([read(octokit, "acme", "app"), read(octokit, "acme", "app")]);
    expect(a).toBe(b);
    expect(a.triggers.labels).toEqual({ ...DEFAULT_CONFIG.triggers.labels, plan: "go" });
  });

  it("reads afresh when asked, and remembers that answer for the next reads", async () => {
    const { read } = cache();
    nock(API).get(REPO_CONFIG).reply(200, "review:\n  auto: false\n", RAW).get(REPO_CONFIG).reply(200, "review:\n  auto: true\n", RAW);
    expect((await read(octokit, "acme", "app")).review.auto).toBe(false);
    expect((await read(octokit, "acme", "app", { fresh: true })).review.auto).toBe(true);
    expect((await read(octokit, "acme", "app")).review.auto).toBe(true);
  });

  it("gives the defaults and a warning for a config it cannot read, remembered like any answer", async () => {
    const { read, warnings } = cache();
    nock(API).get(REPO_CONFIG).reply(200, "review:\n  auto: sometimes\n", RAW);
    expect(await read(octokit, "acme", "app")).toBe(DEFAULT_CONFIG);
    expect(await read(octokit, "acme", "app")).toBe(DEFAULT_CONFIG);
    expect(warnings).toEqual([expect.stringMatching(/^acme\/app: config not read for the triggers \(.+\); the defaults apply$/)]);
  });
});
