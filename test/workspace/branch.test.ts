import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstFreeName, issueBranchName, slugify, uniqueIssueBranch } from "../../src/workspace/branch.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { validateBranch } from "../../src/workspace/refs.js";
import { gitSync } from "../helpers/git-repo.js";
import { filesContaining, serve, TOKEN } from "./fixture.js";

describe("slugify", () => {
  const table: [string, string][] = [
    ["Add login page", "add-login-page"],
    ["  Fix: crash when `config.yml` is empty!!  ", "fix-crash-when-config-yml-is-empty"],
    ["Café déjà vu — naïve façade", "cafe-deja-vu-naive-facade"],
    ["Ünïcödé ÅÇÊ", "unicode-ace"],
    ["İstanbul straße, Øresund, Łódź, Æon", "istanbul-strasse-oresund-lodz-aeon"],
    ["ﬁle ＡＢＣ １２３", "file-abc-123"],
    ["🚀 Launch 🎉 v2.0 🚀", "launch-v2-0"],
    ["日本語のタイトル", "issue"],
    ["Доработать модуль", "issue"],
    ["!!! ??? ### ***", "issue"],
    ["", "issue"],
    ["🔥🔥🔥", "issue"],
    ["---leading and trailing---", "leading-and-trailing"],
    ["UPPER_case__and..dots", "upper-case-and-dots"],
    ["a\u202eb\u200bc\nd\te", "a-b-c-d-e"],
    ["../../etc/passwd", "etc-passwd"],
    ["refs/heads/main.lock", "refs-heads-main-lock"],
    // Long titles: at most 40, cut at a word boundary when it keeps at least half.
    ["Refactor the authentication middleware so that tokens are refreshed", "refactor-the-authentication-middleware"],
    ["Make the frobnicator handle everything", "make-the-frobnicator-handle-everything"],
    ["x".repeat(100), "x".repeat(40)],
    ["abc " + "y".repeat(60), "abc-" + "y".repeat(36)],
    ["exactly-forty-characters-long-slug-here1", "exactly-forty-characters-long-slug-here1"],
    ["exactly forty characters long slug here1 and more", "exactly-forty-characters-long-slug-here1"],
  ];
  it.each(table)("%j → %s", (title, slug) => {
    const got = slugify(title);
    expect(got).toBe(slug);
    expect(got).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(got.length).toBeLessThanOrEqual(40);
  });

  it("always gives a branch name git accepts", async () => {
    for (const [title] of table) await validateBranch(issueBranchName(4, title));
    expect(issueBranchName(4, "Add login page")).toBe("crewbot/issue-4-add-login-page");
    expect(issueBranchName(12, "🎉")).toBe("crewbot/issue-12-issue");
    expect(() => issueBranchName(0, "x")).toThrow(/issue number/);
    expect(() => issueBranchName(1.5, "x")).toThrow(/issue number/);
  });
});

describe("firstFreeName", () => {
  it("adds -2, -3 … past names in use, and past names that would clash as directories", () => {
    const base = "crewbot/issue-4-add-login";
    expect(firstFreeName(base, ["main", "crewbot/issue-4-add-login-page"])).toBe(base);
    expect(firstFreeName(base, [base])).toBe(`${base}-2`);
    expect(firstFreeName(base, [base, `${base}-2`])).toBe(`${base}-3`);
    expect(firstFreeName(base, [`${base}/old`])).toBe(`${base}-2`); // refs/heads/<base>/old blocks <base>
    expect(firstFreeName(base, ["crewbot/issue-4-add-login-2"])).toBe(base);
    expect(() => firstFreeName(base, [base, `${base}-2`], 2)).toThrow(/no free branch/);
  });
});

describe("uniqueIssueBranch", () => {
  it("asks the remote (with the token as a header) and skips branches that exist there", async () => {
    const { server, repo, dataDir } = await serve();
    const src = await repo("octo", "demo", { "a.txt": "a\n" });
    const lease = await new MirrorStore({ dataDir }).sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: TOKEN });
    const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(dataDir, "co"), cloneUrl: src.cloneUrl });
    await lease.release();
    const remote = { checkout: co.path, cloneUrl: src.cloneUrl, token: async () => TOKEN };

    expect(await uniqueIssueBranch({ ...remote, issue: 4, title: "Add login" })).toBe("crewbot/issue-4-add-login");
    // Made on the remote after the mirror was synced: only the remote knows it.
    gitSync(src.dir, "branch", "crewbot/issue-4-add-login");
    expect(await uniqueIssueBranch({ ...remote, issue: 4, title: "Add login" })).toBe("crewbot/issue-4-add-login-2");
    gitSync(src.dir, "branch", "crewbot/issue-4-add-login-2");
    expect(await uniqueIssueBranch({ ...remote, issue: 4, title: "Add  LOGIN!" })).toBe("crewbot/issue-4-add-login-3");
    expect(await uniqueIssueBranch({ ...remote, issue: 5, title: "Add login" })).toBe("crewbot/issue-5-add-login");

    expect(server.requests.every((r) => r.authorized)).toBe(true);
    expect(await filesContaining(dataDir, TOKEN)).toEqual([]);
    await expect(uniqueIssueBranch({ ...remote, token: async () => "ghs_wrong", issue: 4, title: "x" })).rejects.toThrow();
  });
});
