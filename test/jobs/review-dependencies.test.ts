import { describe, expect, it } from "vitest";
import { dependencyPassSkipped, dependencyPaths } from "../../src/jobs/review-dependencies.js";
import { ConfigSchema } from "../../src/config/schema.js";
import type { DiffFile } from "../../src/review/diff-lines.js";
import { stubServices } from "../helpers/stub-services.js";

const target = { owner: "octo", repo: "hello", isPullRequest: true };
const run = (registry: { url: string; token?: string } | undefined, yml: Record<string, unknown> = {}) => ({
  config: ConfigSchema.parse(yml),
  job: { target } as never,
  services: stubServices({ runtime: registry ? { npmRegistry: registry } : { npmRegistry: undefined } }),
});
const PUBLIC = { url: "https://registry.npmjs.org/" };
const INTERNAL = { url: "https://npm.internal.example/", token: "npm_x" };

describe("dependencyPassSkipped", () => {
  it.each([
    ["a same-repository PR, public registry", run(PUBLIC), "octo/hello", null],
    ["a same-repository PR, the operator's own registry", run(INTERNAL), "octo/hello", null],
    ["a fork's PR, public registry without a token", run(PUBLIC), "stranger/hello", null],
    ["a fork's PR, the operator's own registry", run(INTERNAL), "stranger/hello", "a fork's pull request is not checked against the operator's own npm registry"],
    ["a fork's PR, the public registry with a token", run({ ...PUBLIC, token: "npm_x" }), "stranger/hello", "a fork's pull request is not checked against the operator's own npm registry"],
    ["a fork gone", run(INTERNAL), null, "a fork's pull request is not checked against the operator's own npm registry"],
    ["turned off", run(PUBLIC, { review: { dependencies: { enabled: false } } }), "octo/hello", "review.dependencies.enabled: false"],
    ["no registry in the services", run(undefined), "octo/hello", "no npm registry is configured"],
  ])("%s", (_what, r, headRepo, why) => {
    expect(dependencyPassSkipped(r, headRepo)).toBe(why);
  });
});

describe("dependencyPaths", () => {
  it("takes lockfiles and manifests at any depth, old paths of renames too", () => {
    const file = (path: string, oldPath?: string) => ({ path, ...(oldPath ? { oldPath } : {}) }) as DiffFile;
    expect(dependencyPaths([file("README.md"), file("package-lock.json"), file("packages/web/package.json"), file("lib/x.js", "package.json"), file("src/package.json.ts")])).toEqual([
      "package-lock.json",
      "packages/web/package.json",
      "package.json",
    ]);
  });
});
