/** The pages are served by the app's own (Probot) server, next to the webhook endpoint. */
import { afterEach, describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import { freePort } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";
import { stackEnv, TestOctokit } from "../app/harness.js";

let started: Started | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

describe("the transcript pages on the app's server", () => {
  it("answers /jobs and /auth/* and leaves every other path to Probot", async () => {
    const port = await freePort();
    const env = {
      ...stackEnv(await tempDir("crewbot-data-"), "http://127.0.0.1:9"),
      PORT: String(port),
      HOST: "127.0.0.1",
      CREWBOT_PUBLIC_URL: "https://crewbot.example.com",
      GITHUB_CLIENT_ID: "Iv1.mounted",
      GITHUB_CLIENT_SECRET: "mounted-client-secret",
    };
    started = await start({ env, Octokit: TestOctokit, worker: false });
    const base = `http://127.0.0.1:${port}`;
    const jobs = await fetch(`${base}/jobs/job-1`, { redirect: "manual" });
    expect(jobs.status).toBe(302);
    expect(jobs.headers.get("location")).toBe("/auth/login?next=%2Fjobs%2Fjob-1");
    const login = await fetch(`${base}/auth/login?next=%2Fjobs%2Fjob-1`, { redirect: "manual" });
    const authorize = new URL(login.headers.get("location")!);
    expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(authorize.searchParams.get("redirect_uri")).toBe("https://crewbot.example.com/auth/callback");
    expect(login.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    expect((await fetch(`${base}/ping`)).status).toBe(200);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
