import nock from "nock";
import { describe, expect, it } from "vitest";
import { PermissionCache } from "../../src/github/permission-cache.js";
import { canWrite, effectivePermission, permissionOf } from "../../src/github/permission.js";
import { API, newOctokit, useNock } from "../helpers/github.js";

useNock();

describe("effectivePermission", () => {
  // GitHub's answers: `permission` folds maintain into write, triage into read, a custom role into its base role.
  it.each([
    [{ permission: "admin", role_name: "admin" }, "admin", true],
    [{ permission: "write", role_name: "maintain" }, "maintain", true],
    [{ permission: "write", role_name: "write" }, "write", true],
    [{ permission: "read", role_name: "triage" }, "triage", false],
    [{ permission: "read", role_name: "read" }, "read", false],
    [{ permission: "none", role_name: "none" }, "none", false],
    [{ permission: "write", role_name: "deployer" }, "write", true],
    [{ permission: "read", role_name: "deployer" }, "read", false],
    [{ permission: "admin", role_name: "Release Managers" }, "admin", true],
    [{ permission: "none", role_name: "write-ish" }, "none", false], // a custom role named like a grant grants nothing by its name
    [{ permission: "write" }, "write", true], // older Enterprise Servers send no role_name
    [{ role_name: "deployer" }, "none", false], // nothing granted that we can read: refused
    [{}, "none", false],
  ])("%j → %s", (answer, permission, writes) => {
    expect(effectivePermission(answer)).toBe(permission);
    expect(canWrite(effectivePermission(answer))).toBe(writes);
  });
});

describe("a custom repository role", () => {
  const answer = (login: string, permission: string) =>
    nock(API).get(`/repos/o/r/collaborators/${login}/permission`).reply(200, { permission, role_name: "deployer", user: { login } });

  it("that grants write may start jobs; one that grants read may not", async () => {
    answer("dana", "write");
    answer("rick", "read");
    const cache = new PermissionCache();
    expect(canWrite(await cache.get(newOctokit(), "o", "r", "dana"))).toBe(true);
    expect(await permissionOf(newOctokit(), "o", "r", "rick")).toBe("read");
  });
});
