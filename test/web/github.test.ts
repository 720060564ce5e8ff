import nock from "nock";
import { describe, expect, it } from "vitest";
import { apiBaseOf, GitHubWeb, oauthBaseOf } from "../../src/web/github.js";
import { useNock } from "../helpers/github.js";

useNock();

const API = "https://api.github.com";
const TOKEN = `ghu_${"usr".repeat(12)}`;
const user = { login: "octocat", id: 1 };
const env = { GITHUB_CLIENT_ID: "Iv1.abc", GITHUB_CLIENT_SECRET: "client-secret-123" };

describe("GitHub for the transcript pages", () => {
  it("asks with the user's token whether they can read a repository: 200 yes, 404 and 403 no", async () => {
    const gh = new GitHubWeb({ env });
    nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .get("/repos/acme/open").reply(200, { private: false })
      .get("/repos/acme/secret").reply(404, { message: "Not Found" })
      .get("/repos/acme/sso").reply(403, { message: "SAML enforced" });
    expect(await gh.canRead(user, TOKEN, "acme", "open")).toEqual({ read: true, private: false });
    expect(await gh.canRead(user, TOKEN, "acme", "secret")).toEqual({ read: false });
    expect(await gh.canRead(user, TOKEN, "acme", "sso")).toEqual({ read: false });
  });

  it("remembers an answer ~60 s per user and repository, then asks again", async () => {
    let now = 1_000_000;
    const gh = new GitHubWeb({ env, now: () => now });
    nock(API).get("/repos/acme/open").reply(200, {}).get("/repos/acme/open").reply(404, {}).get("/repos/acme/open").reply(200, {});
    expect((await gh.canRead(user, TOKEN, "acme", "open")).read).toBe(true);
    now += 30_000;
    expect((await gh.canRead(user, TOKEN, "ACME", "Open")).read).toBe(true); // cached, case-insensitive
    expect((await gh.canRead({ login: "other", id: 2 }, TOKEN, "acme", "open")).read).toBe(false); // another user asks anew
    now += 31_000;
    expect((await gh.canRead(user, TOKEN, "acme", "open")).read).toBe(true);
  });

  it("does not remember a failure of GitHub itself", async () => {
    const gh = new GitHubWeb({ env });
    nock(API).get("/repos/acme/open").reply(502, {}).get("/repos/acme/open").reply(200, {});
    await expect(gh.canRead(user, TOKEN, "acme", "open")).rejects.toThrow("502");
    expect((await gh.canRead(user, TOKEN, "acme", "open")).read).toBe(true);
  });

  it("exchanges the code at the OAuth host for a token and asks who the user is", async () => {
    const gh = new GitHubWeb({ env });
    nock("https://github.com", { reqheaders: { accept: "application/json" } })
      .post("/login/oauth/access_token", (b) => b.client_id === "Iv1.abc" && b.client_secret === "client-secret-123" && b.code === "c0de" && b.redirect_uri === "https://bot.example/auth/callback")
      .reply(200, { access_token: TOKEN, token_type: "bearer" })
      .post("/login/oauth/access_token")
      .reply(200, { error: "bad_verification_code" });
    nock(API).get("/user").reply(200, { login: "octocat", id: 1, email: "x" });
    const token = await gh.exchange("c0de", "https://bot.example/auth/callback");
    expect(token).toBe(TOKEN);
    expect(await gh.user(token)).toEqual(user);
    await expect(gh.exchange("old", "https://bot.example/auth/callback")).rejects.toThrow("bad_verification_code");
    const authorize = new URL(gh.authorizeUrl("st4te", "https://bot.example/auth/callback"));
    expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ client_id: "Iv1.abc", state: "st4te", redirect_uri: "https://bot.example/auth/callback" });
  });

  it("uses GitHub Enterprise Server hosts when GHE_HOST is set", () => {
    expect(oauthBaseOf({})).toBe("https://github.com");
    expect(apiBaseOf({})).toBe("https://api.github.com");
    expect(oauthBaseOf({ GHE_HOST: "ghe.corp" })).toBe("https://ghe.corp");
    expect(apiBaseOf({ GHE_HOST: "127.0.0.1:9999", GHE_PROTOCOL: "http" })).toBe("http://127.0.0.1:9999/api/v3");
    expect(new GitHubWeb({ env: {} }).configured).toBe(false);
  });
});
