import { describe, expect, it } from "vitest";
import { noreplyDomain } from "../../src/github/octokit.js";
import { noreplyIdentity } from "../../src/workspace/commit.js";

describe("the requester's co-author address", () => {
  it.each([
    [{}, 583231, "583231+octocat@users.noreply.github.com"],
    [{}, undefined, "octocat@users.noreply.github.com"],
    [{ GHE_HOST: "GHE.example.com:8443" }, 583231, "583231+octocat@users.noreply.ghe.example.com"],
  ])("with %j and id %s is %s", (env, id, email) => {
    expect(noreplyIdentity("octocat", id, noreplyDomain(env)).email).toBe(email);
  });
});
