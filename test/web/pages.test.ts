import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cookiesOf, get, OPERATOR_SECRET, startWebFixture, USER_TOKEN, type WebFixture } from "./fixture.js";

let fx: WebFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** The whole web flow by hand: page → login → (stand-in) authorize → callback → page. */
async function signIn(f: WebFixture, next = "/jobs"): Promise<{ cookie: string; landed: string }> {
  const login = await get(`${f.url}/auth/login?next=${encodeURIComponent(next)}`);
  expect(login.status).toBe(302);
  const stateCookie = cookiesOf(login).join("; ");
  const authorize = await get(login.headers.get("location")!);
  expect(authorize.status).toBe(302);
  const callback = await get(authorize.headers.get("location")!, stateCookie);
  expect(callback.status).toBe(302);
  const cookie = cookiesOf(callback).filter((c) => c.startsWith("crewbot_session=")).join("; ");
  return { cookie, landed: callback.headers.get("location")! };
}

describe("transcript pages over HTTP", () => {
  it("sends a visitor without a session to sign in, through GitHub's web flow, and back to the page", async () => {
    fx = await startWebFixture();
    fx.jobs.add("job-1", "acme/open", "succeeded");
    const page = await get(`${fx.url}/jobs/job-1`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/auth/login?next=%2Fjobs%2Fjob-1");

    const login = await get(`${fx.url}/auth/login?next=%2Fjobs%2Fjob-1`);
    const authorize = new URL(login.headers.get("location")!);
    expect(authorize.origin).toBe(fx.github.url);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${fx.url}/auth/callback`);
    const setCookie = login.headers.getSetCookie()[0]!;
    expect(setCookie).toMatch(/^crewbot_oauth=.*; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/);

    const { cookie, landed } = await signIn(fx, "/jobs/job-1");
    expect(landed).toBe("/jobs/job-1");
    const signed = await get(`${fx.url}${landed}`, cookie);
    expect(signed.status).toBe(200);
    const html = await signed.text();
    expect(html).toContain("octocat");
    expect(html).not.toContain(USER_TOKEN);
    expect(cookie).not.toContain(USER_TOKEN);
  });

  it("lands on the job list, never off-site, whatever `next` the sign-in link carries", async () => {
    fx = await startWebFixture();
    // Raw query strings, as an attacker would write the link.
    const links = ["/%09/evil.example", "%2F%2Fevil.example", "/%5Cevil.example", "/%5C/evil.example", "%5C%5Cevil.example", "/%0A/evil.example", "/%252F/evil.example", "/%2509/evil.example", "javascript:alert(1)", "https://evil.example/", "//evil.example", "/.//evil.example"];
    for (const raw of links) {
      const login = await get(`${fx.url}/auth/login?next=${raw}`);
      const authorize = await get(login.headers.get("location")!);
      const callback = await get(authorize.headers.get("location")!, cookiesOf(login).join("; "));
      expect([raw, callback.status, callback.headers.get("location")]).toEqual([raw, 302, "/jobs"]);
    }
    expect((await signIn(fx, "/jobs/job-1?step=2")).landed).toBe("/jobs/job-1?step=2");
  });

  it("refuses a callback whose state does not match the cookie's, or comes without the cookie", async () => {
    fx = await startWebFixture();
    const login = await get(`${fx.url}/auth/login?next=%2Fjobs`);
    const stateCookie = cookiesOf(login).join("; ");
    const authorize = await get(login.headers.get("location")!);
    const back = new URL(authorize.headers.get("location")!);
    const tampered = new URL(back);
    tampered.searchParams.set("state", "someone-elses-state");
    expect((await get(tampered.toString(), stateCookie)).status).toBe(400);
    expect((await get(back.toString())).status).toBe(400);
    // Nothing was exchanged for a token.
    expect(fx.github.requests.filter((r) => r.includes("access_token"))).toEqual([]);
  });

  it("shows a job only to someone who can read its repository; anyone else gets 404, like a job that does not exist", async () => {
    fx = await startWebFixture({ readable: ["acme/open"] });
    fx.jobs.add("job-open", "acme/open", "succeeded");
    fx.jobs.add("job-secret", "acme/secret", "succeeded");
    const { cookie } = await signIn(fx);
    expect((await get(`${fx.url}/jobs/job-open`, cookie)).status).toBe(200);
    const refused = await get(`${fx.url}/jobs/job-secret`, cookie);
    const missing = await get(`${fx.url}/jobs/job-nope`, cookie);
    expect(refused.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await refused.text()).toBe(await missing.text());
    expect((await get(`${fx.url}/jobs/job-secret/events`, cookie)).status).toBe(404);
    expect((await get(`${fx.url}/jobs/job-secret/artifacts/a.log`, cookie)).status).toBe(404);
    // The answer is remembered: the page again asks GitHub no more.
    const asked = fx.github.requests.filter((r) => r === "GET /api/v3/repos/acme/open").length;
    await get(`${fx.url}/jobs/job-open`, cookie);
    expect(fx.github.requests.filter((r) => r === "GET /api/v3/repos/acme/open").length).toBe(asked);
  });

  it("escapes every piece of text and redacts what is shown", async () => {
    fx = await startWebFixture();
    fx.jobs.add("job-1", "acme/open", "succeeded", { trigger: { sender: "octocat", request: `<script>alert(1)</script> ${OPERATOR_SECRET}` } });
    fx.recorder.append("job-1", { type: "tool_start", agent: "scout", id: "t1", name: "bash", args: `echo "<img src=x onerror=alert(2)>"` });
    fx.recorder.append("job-1", { type: "tool_end", agent: "scout", id: "t1", name: "bash", ok: true, ms: 3, output: "</pre><script>alert(3)</script>" });
    await fx.recorder.end("job-1", { kind: "done" }, "✅ Done");
    const { cookie } = await signIn(fx);
    const res = await get(`${fx.url}/jobs/job-1`, cookie);
    const html = await res.text();
    expect(html).not.toMatch(/<script>alert|<img src=x/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;alert(3)");
    expect(html).not.toContain(OPERATOR_SECRET);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    // A finished job's page has no script.
    expect(html).not.toContain("<script");
  });

  it("serves a job's artifact redacted, confined to its artifacts directory", async () => {
    fx = await startWebFixture();
    fx.jobs.add("job-1", "acme/open", "succeeded");
    const dir = path.join(fx.dataDir, "jobs", "job-1", "artifacts");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "bash-1.log"), `all of it\nsecret ${OPERATOR_SECRET} and ghs_${"x".repeat(36)}\n`);
    await writeFile(path.join(fx.dataDir, "outside.txt"), "not yours");
    await symlink(path.join(fx.dataDir, "outside.txt"), path.join(dir, "link.log"));
    const { cookie } = await signIn(fx);
    const res = await get(`${fx.url}/jobs/job-1/artifacts/bash-1.log`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("all of it\nsecret [redacted] and [redacted]\n");
    for (const bad of ["link.log", "..%2F..%2Foutside.txt", "%2E%2E", "nope.log"]) {
      expect((await get(`${fx.url}/jobs/job-1/artifacts/${bad}`, cookie)).status, bad).toBe(404);
    }
  });

  it("lists the recent jobs of repositories the user can read, newest first, filterable by repository", async () => {
    fx = await startWebFixture({ readable: ["acme/open", "acme/other"] });
    fx.jobs.add("job-a", "acme/open", "succeeded");
    fx.jobs.add("job-b", "acme/secret", "failed");
    fx.jobs.add("job-c", "acme/other", "running");
    const { cookie } = await signIn(fx);
    const all = await (await get(`${fx.url}/jobs`, cookie)).text();
    const ids = [...all.matchAll(/data-job="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["job-c", "job-a"]);
    expect(all).toContain("$0.0123");
    expect(all).not.toContain("acme/secret");
    const one = await (await get(`${fx.url}/jobs?repo=acme%2Fopen`, cookie)).text();
    expect([...one.matchAll(/data-job="([^"]+)"/g)].map((m) => m[1])).toEqual(["job-a"]);
  });

  it("streams a running job's new entries as server-sent events until it ends", async () => {
    fx = await startWebFixture();
    fx.jobs.add("job-live", "acme/open", "running");
    fx.recorder.append("job-live", { type: "step_start", index: 0, agent: "scout" });
    await fx.recorder.flush("job-live");
    const { cookie } = await signIn(fx);
    const res = await fetch(`${fx.url}/jobs/job-live/events?after=1`, { headers: { cookie } });
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    fx.recorder.append("job-live", { type: "tool_start", agent: "scout", id: "t1", name: "grep", args: "needle" });
    fx.recorder.append("job-live", { type: "tool_end", agent: "scout", id: "t1", name: "grep", ok: true, ms: 4, output: "found" });
    await fx.recorder.end("job-live", { kind: "done" }, "✅ Done · 1s");
    const text = await res.text(); // the server ends the stream after the job's end
    expect(text).not.toContain("Step 1"); // entries up to `after` are not sent again
    expect(text).toContain("event: ops");
    expect(text).toContain("grep");
    expect(text).toMatch(/event: end\n/);
    expect(text).toMatch(/^id: \d+$/m);
  });
});
