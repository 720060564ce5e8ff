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
