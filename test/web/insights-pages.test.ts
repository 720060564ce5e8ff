import { afterEach, describe, expect, it } from "vitest";
import { FakeInsights } from "../helpers/fake-insights.js";
import { get, signIn, startWebFixture, type WebFixture } from "./fixture.js";

/** Sunday 6 December 2026, 21:00 UTC: the week of Monday 30 November is "this one so far". */
const NOW = Date.UTC(2026, 11, 6, 21);
const now = () => NOW;

let fx: WebFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const repoRows = (html: string) => [...html.matchAll(/data-repo="([^"]+)"/g)].map((m) => m[1]);
const weekRows = (html: string) => [...html.matchAll(/data-chart="volume"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/g)].flatMap((m) => [...m[1]!.matchAll(/<th scope="row">([^<]+)</g)].map((r) => r[1]));
const asked = (f: WebFixture) => f.github.requests.filter((r) => r.startsWith("GET /api/v3/repos/"));

describe("the insights pages over HTTP", () => {
  it("sends a visitor without a session to sign in, as the job pages do", async () => {
    const insights = new FakeInsights(["acme/open"]);
    fx = await startWebFixture({ insights, now });
    for (const [path, next] of [["/insights", "%2Finsights"], ["/insights/acme/open?weeks=4", "%2Finsights%2Facme%2Fopen%3Fweeks%3D4"]]) {
      const res = await get(`${fx.url}${path}`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/auth/login?next=${next}`);
    }
    expect(insights.calls).toEqual([]);
  });

  it("lists the repositories with figures the person can read, and nothing of the others, not even a name", async () => {
    const insights = new FakeInsights(["acme/open", "acme/secret", "Acme/Other"]);
    fx = await startWebFixture({ readable: ["acme/open", "acme/other"], insights, now });
    const cookie = await signIn(fx);
    const res = await get(`${fx.url}/insights`, cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(repoRows(html)).toEqual(["acme/open", "Acme/Other"]);
    expect(html).not.toMatch(/secret/i);
    expect(html).toContain('href="/insights/acme/open"');
    // The secret repository's figures were never read, only its name checked with GitHub.
    expect(insights.calls.filter((c) => c.includes("secret"))).toEqual([]);
    expect(asked(fx)).toContain("GET /api/v3/repos/acme/secret");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(html).not.toContain("<script");
  });

  it("shows a readable repository's weeks as charts; any other is 404, the same as one that does not exist", async () => {
    const insights = new FakeInsights(["acme/open", "acme/secret"]);
    fx = await startWebFixture({ readable: ["acme/open"], insights, now });
    const cookie = await signIn(fx);
    const res = await get(`${fx.url}/insights/acme/open`, cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect([...html.matchAll(/data-chart="([^"]+)"/g)].map((m) => m[1])).toEqual(["resolution", "dismissal", "volume", "cost", "first-review", "outcomes"]);
    expect(html.match(/<svg class="plot"/g)).toHaveLength(6);
    const weeks = weekRows(html);
    expect(weeks).toHaveLength(12);
    expect([weeks[0], weeks.at(-1)]).toEqual(["2026-09-14", "2026-11-30"]);

    const refused = await get(`${fx.url}/insights/acme/secret`, cookie);
    const missing = await get(`${fx.url}/insights/acme/nope`, cookie);
    expect([refused.status, missing.status]).toEqual([404, 404]);
    expect(await refused.text()).toBe(await missing.text());
    expect(insights.calls.filter((c) => c.includes("secret") || c.includes("nope"))).toEqual([]);
    // GitHub spells names in any case; so may the link.
    expect((await get(`${fx.url}/insights/ACME/Open`, cookie)).status).toBe(200);
  });

  it("answers 404 for a path that names no repository, without asking GitHub", async () => {
    fx = await startWebFixture({ insights: new FakeInsights(["acme/open"]), now });
    const cookie = await signIn(fx);
    const before = asked(fx).length;
    for (const path of ["/insights/acme", "/insights/acme/open/more", "/insights/-acme/open", "/insights/acme/%2E%2E%2Fx", "/insights/acme/open%00"]) {
      expect((await get(`${fx.url}${path}`, cookie)).status, path).toBe(404);
    }
    expect(asked(fx).length).toBe(before);
  });

  it("offers 4, 12, 26 or 52 weeks and takes 12 for anything else", async () => {
    fx = await startWebFixture({ insights: new FakeInsights(["acme/open"]), now });
    const cookie = await signIn(fx);
    expect(weekRows(await (await get(`${fx.url}/insights/acme/open?weeks=4`, cookie)).text())).toEqual(["2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30"]);
    expect(weekRows(await (await get(`${fx.url}/insights/acme/open?weeks=52`, cookie)).text())).toHaveLength(52);
    expect(weekRows(await (await get(`${fx.url}/insights/acme/open?weeks=100000`, cookie)).text())).toHaveLength(12);
  });

  it("lists every repository the app's installations give the person, however many, without asking for each", async () => {
    const names = Array.from({ length: 130 }, (_, i) => `acme/repo-${String(i).padStart(3, "0")}`);
    fx = await startWebFixture({ readable: names, insights: new FakeInsights([...names, "other/secret"]), now });
    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/insights`, cookie)).text();
    expect(repoRows(html)).toEqual(names);
    expect(asked(fx)).toEqual(["GET /api/v3/repos/other/secret"]);
    expect(fx.github.requests.filter((r) => r.includes("/user/installations"))).toEqual(["GET /api/v3/user/installations", "GET /api/v3/user/installations/7/repositories", "GET /api/v3/user/installations/7/repositories"]);
    expect(html).not.toContain("other/secret");
  });

  it("a token GitHub lists no installations for: each repository is asked instead", async () => {
    fx = await startWebFixture({ readable: ["acme/open"], installationRepos: "refuse", insights: new FakeInsights(["acme/open", "acme/secret"]), now });
    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/insights`, cookie)).text();
    expect(repoRows(html)).toEqual(["acme/open"]);
    expect(asked(fx).sort()).toEqual(["GET /api/v3/repos/acme/open", "GET /api/v3/repos/acme/secret"]);
  });

  it("asks GitHub about at most 100 repositories the installations do not list, and says the list may be partial", async () => {
    const names = Array.from({ length: 130 }, (_, i) => `acme/repo-${String(i).padStart(3, "0")}`);
    fx = await startWebFixture({ readable: names, installationRepos: [], insights: new FakeInsights(names), now });
    const cookie = await signIn(fx);
    const html = await (await get(`${fx.url}/insights`, cookie)).text();
    expect(repoRows(html)).toEqual(names.slice(0, 100));
    expect(html).toContain("Of the repositories with figures that the app's installations do not list for you, only the first 100 (by name) were looked at");
    expect(asked(fx)).toHaveLength(100);
    // Asked again within the minute, GitHub's answers are remembered.
    await get(`${fx.url}/insights`, cookie);
    expect(asked(fx)).toHaveLength(100);
  });

  it("leaves out a repository GitHub did not answer for, and says so; its page is 502, not 404", async () => {
    fx = await startWebFixture({ readable: ["acme/open"], insights: new FakeInsights(["acme/open"]), now });
    const cookie = await signIn(fx);
    await fx.github.close();
    const list = await get(`${fx.url}/insights`, cookie);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(repoRows(html)).toEqual([]);
    expect(html).toContain("GitHub did not answer whether you can read some repositories");
    const one = await get(`${fx.url}/insights/acme/open`, cookie);
    expect(one.status).toBe(502);
    expect(await one.text()).toContain("Could not ask GitHub who may read acme/open");
  });

  it("says insights are not kept when the server has no source of figures", async () => {
    fx = await startWebFixture({ now });
    const res = await get(`${fx.url}/insights`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Insights are not kept by this server.");
  });
});
