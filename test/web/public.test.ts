import { afterEach, describe, expect, it } from "vitest";
import { startWebFixture, type WebFixture } from "./fixture.js";

let fx: WebFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const get = (url: string) => fetch(url, { redirect: "manual" });

/** A finished job's transcript; `visible` marks it public as `transcripts.public` does. */
async function finished(f: WebFixture, id: string, repo: string, o: { privateRepo: boolean; visible: boolean }) {
  const job = f.jobs.add(id, repo, "succeeded", { repo: { cloneUrl: `https://github.com/${repo}.git`, defaultBranch: "main", private: o.privateRepo } });
  f.recorder.begin(job);
  if (o.visible) f.recorder.makePublic(id);
  f.recorder.append(id, { type: "text", agent: "scout", text: "Read the README." });
  await f.recorder.end(id, { kind: "done" }, "✅ Done");
}

describe("public transcripts (`transcripts.public` in a public repository's config)", () => {
  it("opens without sign-in, the page and its live stream", async () => {
    fx = await startWebFixture({ publicRepos: ["acme/public"] });
    await finished(fx, "job-pub", "acme/public", { privateRepo: false, visible: true });
    const page = await get(`${fx.url}/jobs/job-pub`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Read the README.");
    expect((await get(`${fx.url}/jobs/job-pub/events`)).status).toBe(200);
  });

  it.each([
    ["the config did not make it public", "acme/public", { privateRepo: false, visible: false }],
    ["the repository was private when the job ran", "acme/public", { privateRepo: true, visible: true }],
    ["GitHub no longer shows the repository to anyone", "acme/now-private", { privateRepo: false, visible: true }],
  ] as const)("still asks to sign in when %s", async (_why, repo, o) => {
    fx = await startWebFixture({ publicRepos: ["acme/public"] });
    await finished(fx, "job-x", repo, o);
    const page = await get(`${fx.url}/jobs/job-x`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/auth/login?next=%2Fjobs%2Fjob-x");
    expect((await get(`${fx.url}/jobs/job-x/events`)).status).toBe(401);
  });
});
