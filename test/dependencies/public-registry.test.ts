/**
 * One check against the real public registry (skipped when it cannot be reached; CI reaches it):
 * two real upgrades, pinned by the integrity the registry itself publishes, and their real
 * differences. is-number 6.0.0 → 7.0.0 changes only its code (a clean bump); uuid 8.3.2 → 9.0.0
 * adds a `prepare` script (husky). Facts from the registry's people (publisher, maintainers) and a
 * deprecation are left out of the comparison: mirrors strip them, a deprecation may come any day,
 * and they are covered on loopback.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectDependencies } from "../../src/dependencies/inspect.js";
import { DEFAULT_REGISTRY } from "../../src/dependencies/registry.js";
import type { PackageChange } from "../../src/dependencies/types.js";

const reachable = await fetch(`${DEFAULT_REGISTRY}is-number`, { method: "HEAD", signal: AbortSignal.timeout(5_000) }).then(
  (response) => response.ok,
  () => false,
);

const cacheDir = await mkdtemp(path.join(tmpdir(), "crewbot-public-npm-"));
afterAll(() => rm(cacheDir, { recursive: true, force: true }));

async function publishedIntegrity(name: string, version: string): Promise<string> {
  const document = (await (await fetch(`${DEFAULT_REGISTRY}${name}`, { signal: AbortSignal.timeout(20_000) })).json()) as { versions: Record<string, { dist: { integrity: string } }> };
  return document.versions[version]!.dist.integrity;
}

async function upgrade(name: string, from: string, to: string): Promise<PackageChange> {
  return {
    name,
    location: `node_modules/${name}`,
    old: { version: from, integrity: await publishedIntegrity(name, from) },
    new: { version: to, integrity: await publishedIntegrity(name, to) },
    direct: true,
    file: "package-lock.json",
    line: 1,
    source: "lockfile",
  };
}

/** What the registry says of people and the present (a deprecation can be added any day): not pinned here. */
const PEOPLE = new Set(["publisher", "maintainer", "deprecated"]);

describe.skipIf(!reachable)("the public npm registry", () => {
  it("reads two real upgrades and reports what they really add", { timeout: 60_000 }, async () => {
    const changes = [await upgrade("is-number", "6.0.0", "7.0.0"), await upgrade("uuid", "8.3.2", "9.0.0")];
    const warnings: string[] = [];
    const review = await inspectDependencies(changes, { registry: { url: DEFAULT_REGISTRY }, cacheDir, maxPackages: 20, log: { warn: (m) => warnings.push(m) } });
    expect(warnings).toEqual([]);
    expect(review.packages.map((p) => [p.change.name, p.notInspected, p.facts.filter((f) => !PEOPLE.has(f.kind))])).toEqual([
      ["is-number", undefined, []],
      ["uuid", undefined, [{ kind: "install-script", severity: "warning", text: "adds a `prepare` script: `cd $( git rev-parse --show-toplevel ) && husky install` (npm runs it only when installing from git or a local folder, not from the registry)", files: ["package.json"] }]],
    ]);
  });
});
