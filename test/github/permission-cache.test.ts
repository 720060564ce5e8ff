import nock from "nock";
import { describe, expect, it } from "vitest";
import { PermissionCache } from "../../src/github/permission-cache.js";
import { API, newOctokit, useNock } from "../helpers/github.js";

useNock();

const mock = (login: string, role: string) =>
  nock(API).get(`/repos/o/r/collaborators/${login}/permission`).reply(200, { permission: "write", role_name: role });

describe("PermissionCache", () => {
  it("asks GitHub once per person within the TTL, and again after it", async () => {
    let now = 0;
    const cache = new PermissionCache(30_000, 100, () => now);
    const octokit = newOctokit();
    mock("alice", "maintain");
    expect(await cache.get(octokit, "o", "r", "alice")).toBe("maintain");
    expect(await cache.get(octokit, "O", "R", "Alice")).toBe("maintain"); // GitHub names are case-insensitive
    now = 30_001;
    mock("alice", "read");
    expect(await cache.get(octokit, "o", "r", "alice")).toBe("read");
  });

  it("counts a 404 (not a collaborator) as no permission", async () => {
    const cache = new PermissionCache();
    nock(API).get("/repos/o/r/collaborators/eve/permission").reply(404, { message: "Not Found" });
    expect(await cache.get(newOctokit(), "o", "r", "eve")).toBe("none");
  });
});

describe("PermissionCache: lookups under way", () => {
  it("asks GitHub once for comments arriving together, and again after a failed lookup", async () => {
    let calls = 0;
    let fail = true;
    const octokit = {
      request: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 20));
        if (fail) throw Object.assign(new Error("boom"), { status: 500 });
        return { data: { permission: "write", role_name: "write" } };
      },
    } as never;
    const cache = new PermissionCache();
    const failed = await Promise.allSettled([cache.get(octokit, "o", "r", "u"), cache.get(octokit, "o", "r", "U")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toBe(1);
    fail = false;
    expect(await Promise.all([cache.get(octokit, "o", "r", "u"), cache.get(octokit, "o", "r", "u")])).toEqual(["write", "write"]);
    expect(calls).toBe(2);
  });
});
