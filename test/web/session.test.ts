import { describe, expect, it } from "vitest";
import { CookieSigner, parseCookies, safeNext, sameString, sessionSecret, setCookie } from "../../src/web/session.js";

const TOKEN = `ghu_${"s3cr3t".repeat(6)}`;

describe("signed cookies", () => {
  it("round-trips a value and refuses any change to it or its signature", () => {
    const signer = new CookieSigner("secret-one");
    const cookie = signer.sign({ s: "state", n: "/jobs/x" });
    expect(signer.verify(cookie)).toEqual({ s: "state", n: "/jobs/x" });
    const [payload, mac] = cookie.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ s: "state", n: "https://evil" })).toString("base64url");
    expect(signer.verify(`${forged}.${mac}`)).toBeUndefined();
    expect(signer.verify(`${payload}.${mac.slice(0, -2)}AA`)).toBeUndefined();
    expect(signer.verify(payload)).toBeUndefined();
    expect(signer.verify(undefined)).toBeUndefined();
    expect(new CookieSigner("secret-two").verify(cookie)).toBeUndefined();
  });

  it("seals a session: the token cannot be read from the cookie, and the session expires", () => {
    let now = 1_700_000_000_000;
    const signer = new CookieSigner("secret", () => now);
    const cookie = signer.sealSession({ login: "octocat", id: 1, token: TOKEN, exp: now / 1000 + 60 });
    expect(cookie).not.toContain(TOKEN);
    expect(Buffer.from(cookie.split(".")[0]!, "base64url").toString()).not.toContain(TOKEN.slice(4, 16));
    expect(signer.openSession(cookie)).toEqual({ login: "octocat", id: 1, token: TOKEN, exp: now / 1000 + 60 });
    now += 61_000;
    expect(signer.openSession(cookie)).toBeUndefined();
  });

  it("takes CREWBOT_SESSION_SECRET, else derives one from WEBHOOK_SECRET (not the webhook secret itself)", () => {
    expect(sessionSecret({ CREWBOT_SESSION_SECRET: "s", WEBHOOK_SECRET: "w" }).toString()).toBe("s");
    const derived = sessionSecret({ WEBHOOK_SECRET: "webhook" });
    expect(derived.equals(sessionSecret({ WEBHOOK_SECRET: "webhook" }))).toBe(true);
    expect(derived.toString()).not.toContain("webhook");
    expect(sessionSecret({}).length).toBe(32);
  });

  it("sets HttpOnly, SameSite=Lax, Path=/ cookies, Secure on https", () => {
    expect(setCookie("a", "b c", { maxAge: 10, secure: false })).toBe("a=b%20c; Path=/; HttpOnly; SameSite=Lax; Max-Age=10");
    expect(setCookie("a", "", { maxAge: 0, secure: true })).toBe("a=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    expect(parseCookies("x=1; crewbot_session=a.b%3D; bad")).toEqual({ x: "1", crewbot_session: "a.b=" });
  });

  // Each as `safeNext` receives it, i.e. after the query string's own decoding.
  it.each([
    ["//evil.example", "protocol-relative"],
    ["/\\evil.example", "backslash"],
    ["/\\/evil.example", "slash backslash"],
    ["\\\\evil.example", "two backslashes"],
    ["/\t/evil.example", "tab (from /%09/evil.example)"],
    ["/\n/evil.example", "newline"],
    ["/\r\n/evil.example", "CR LF"],
    ["/a\r\nSet-Cookie: x", "header injection"],
    ["/\u0000/evil.example", "NUL"],
    ["/%09/evil.example", "encoded tab (%2509 in the query)"],
    ["/%2F/evil.example", "encoded slash after a slash"],
    ["/%2f%2fevil.example", "encoded slashes, lower case"],
    ["%2F%2Fevil.example", "encoded slashes without a leading slash"],
    ["/%5Cevil.example", "encoded backslash"],
    ["/%5C%5Cevil.example", "encoded backslashes"],
    ["/.//evil.example", "dot segment that normalises to //"],
    ["/%2E//evil.example", "encoded dot segment"],
    ["javascript:alert(1)", "javascript: URL"],
    ["JaVaScRiPt:alert(1)", "javascript: URL, mixed case"],
    ["https://evil.example/jobs", "absolute URL"],
    ["http:/evil.example", "scheme with one slash"],
    ["jobs", "relative path"],
    ["/%E0%A4%A", "broken percent-escape"],
    ["", "empty"],
  ])("refuses %j (%s): back to the job list", (next) => {
    expect(safeNext(next)).toBe("/jobs");
  });

  it.each([
    ["/jobs", "/jobs"],
    ["/jobs/job-1", "/jobs/job-1"],
    ["/jobs/job-1?x=1#step-2", "/jobs/job-1?x=1#step-2"],
    ["/jobs?next=%2F%2Fx", "/jobs?next=%2F%2Fx"],
    ["/jobs/a b", "/jobs/a%20b"],
  ])("keeps the same-origin path %j as %j", (next, kept) => {
    expect(safeNext(next)).toBe(kept);
  });

  it("only comes back to a path on this host, and compares states exactly", () => {
    expect(safeNext("/jobs/job-1?x=1")).toBe("/jobs/job-1?x=1");
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "jobs", "", null, "/a\r\nSet-Cookie: x"]) expect(safeNext(bad)).toBe("/jobs");
    expect(sameString("abc", "abc")).toBe(true);
    expect(sameString("abc", "abd")).toBe(false);
    expect(sameString("abc", "abcd")).toBe(false);
  });
});
