/**
 * Run by github-openapi.test.ts in a vitest of its own (the name keeps it out of the suite): one
 * test makes a call GitHub would refuse and must fail for it; the other makes a correct call.
 */
import nock from "nock";
import { it } from "vitest";
import { API, newOctokit, useNock } from "./github.js";

useNock();

it("sends a check run with a conclusion GitHub does not have", async () => {
  nock(API).post("/repos/o/r/check-runs").reply(201, { id: 1 });
  await newOctokit().request("POST /repos/{owner}/{repo}/check-runs", { owner: "o", repo: "r", name: "crewbot/review", head_sha: "abc", conclusion: "passed" as "success" });
});

it("sends a correct check run", async () => {
  nock(API).post("/repos/o/r/check-runs").reply(201, { id: 2 });
  await newOctokit().request("POST /repos/{owner}/{repo}/check-runs", { owner: "o", repo: "r", name: "crewbot/review", head_sha: "abc", conclusion: "success" });
});
