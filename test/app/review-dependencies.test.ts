/**
 * The dependency pass of automatic reviews, end to end: a Renovate-style pull request against a
 * registry stand-in on loopback → the review's Dependencies section, a finding on the lockfile line
 * of the package that adds an install script, the facts in the reviewer's context; a lockfile-only
 * change reviewed with no model call; an integrity mismatch; the operator's token only ever sent
 * to the operator's registry.
 */
import { afterEach, describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { startNpmRegistry, type NpmRegistryStandIn, type PublishedVersion } from "../helpers/npm-registry.js";
import { startStack, TOKEN, type Stack } from "./harness.js";
import { deliver, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const NPM_TOKEN = "npm_e2eRegistryToken0123456789abcdef";
/** Where the lockfile says the tarballs are: never asked (the operator's registry is). */
const RESOLVED_HOST = "https://registry.attacker.example";

let registry: NpmRegistryStandIn | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

interface Locked {
  name: string;
  version: string;
  integrity: string;
  direct: boolean;
}

function manifest(deps: Record<string, string>): string {
  return `${JSON.stringify({ name: "hello", version: "1.0.0", dependencies: deps }, null, 2)}\n`;
}

/** A lockfile v3 as npm writes it (2-space JSON), its `resolved` pointing elsewhere on purpose. */
function lockfile(packages: Locked[]): string {
  const direct = Object.fromEntries(packages.filter((p) => p.direct).map((p) => [p.name, `^${p.version}`]));
  const entries = Object.fromEntries(packages.map((p) => [`node_modules/${p.name}`, { version: p.version, resolved: `${RESOLVED_HOST}/${p.name}/-/${p.name}-${p.version}.tgz`, integrity: p.integrity }]));
  return `${JSON.stringify({ name: "hello", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "hello", version: "1.0.0", dependencies: direct }, ...entries } }, null, 2)}\n`;
}

const locked = (name: string, p: PublishedVersion, direct = true, version?: string): Locked => ({ name, version: version ?? p.tarballPath.replace(/^.*-(\d+\.\d+\.\d+)\.tgz$/, "$1"), integrity: p.integrity, direct });

/** The line (1-based) of the lockfile that holds `needle` after the line holding `after`. */
function lineOf(text: string, after: string, needle: string): number {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.includes(after));
  return lines.findIndex((l, i) => i > start && l.includes(needle)) + 1;
}

/** The registry stand-in with what `publish` puts there, then the app with the files `publish` returns on `main`. */
async function stackWith(publish: (r: NpmRegistryStandIn) => Record<string, string>, script: { text: string }[], env: NodeJS.ProcessEnv = {}): Promise<Stack> {
  registry = await startNpmRegistry();
  const files = publish(registry);
  const stack = await startStack(script, { files, env: { CREWBOT_NPM_REGISTRY: registry.url, CREWBOT_NPM_TOKEN: NPM_TOKEN, ...env } });
  gitSync(stack.remoteDir, "branch", "feature");
  return stack;
}

function publishPair(r: NpmRegistryStandIn) {
  const pad = [r.publish({ name: "left-pad", version: "1.0.0", files: { "index.js": "module.exports = (s) => s;\n" } }), r.publish({ name: "left-pad", version: "1.1.0", files: { "index.js": "module.exports = (s) => ' ' + s;\n" } })];
  const lib = [
    r.publish({ name: "tiny-lib", version: "2.0.0", files: { "index.js": "exports.x = 1;\n" } }),
    r.publish({ name: "tiny-lib", version: "2.1.0", manifest: { scripts: { postinstall: "node setup.js" } }, files: { "index.js": "exports.x = 2;\n", "setup.js": "console.log('hi');\n" } }),
  ];
  return { pad, lib };
}

/** Everything the app sent GitHub and the model, as one string to search for secrets. */
const sent = (stack: Stack, t: Traffic) => JSON.stringify([t.reviews, t.checks, stack.fake.requests.map((r) => r.body)]);

describe("the dependency pass of a review", () => {
  it("reviews a Renovate-style bump: the Dependencies table, the install script as a critical finding on its lockfile line, the facts in the reviewer's context", async () => {
    registry = await startNpmRegistry();
    const { pad, lib } = publishPair(registry);
    const before = lockfile([locked("left-pad", pad[0]!), locked("tiny-lib", lib[0]!)]);
    const after = lockfile([locked("left-pad", pad[1]!), locked("tiny-lib", lib[1]!)]);
    const stand = registry;
    const stack = await startStack([{ text: "## Summary\nThe bump of two dependencies; see the dependency facts." }], {
      files: { "package.json": manifest({ "left-pad": "^1.0.0", "tiny-lib": "^2.0.0" }), "package-lock.json": before },
      env: { CREWBOT_NPM_REGISTRY: stand.url, CREWBOT_NPM_TOKEN: NPM_TOKEN },
    });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "package.json": manifest({ "left-pad": "^1.1.0", "tiny-lib": "^2.1.0" }), "package-lock.json": after }, "chore(deps): update left-pad and tiny-lib");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 901, review: true });

    const job = await deliver(stack, "opened", head, "deps-renovate");

    expect(job.outcome).toBe("✅ Done · 1 critical · 0 warnings · 0 suggestions");
    expect(t.rejected).toEqual([]);
    const review = t.reviews[0];
    const versionLine = lineOf(after, '"node_modules/tiny-lib"', '"version"');
    expect(review.comments.map((c: any) => [c.path, c.line, c.side])).toEqual([["package-lock.json", versionLine, "RIGHT"]]);
    // A fact crewbot read itself: no "unverified" line, which is for the reviewer's claims.
    expect(review.comments[0].body).toMatch(/^\*\*Critical\*\* — Dependency `tiny-lib` `2\.0\.0` → `2\.1\.0` \(direct\): adds a `postinstall` script: `node setup\.js`\.\n\n<!-- crewbot:finding:[0-9a-f]{16} -->$/);
    expect(review.body).toBe(
      [
        "## crewbot review",
        "",
        "**1 critical · 0 warnings · 0 suggestions** — 1 inline comment",
        "",
        "Reviewed 1 of 2 changed files.",
        "",
        "The bump of two dependencies; see the dependency facts.",
        "",
        "### Dependencies",
        "",
        "2 npm packages changed, 2 inspected: what each new version adds over the old, read from both published tarballs (nothing of them ran).",
        "",
        "| package | old → new | kind | what the new version adds | risk |",
        "|---|---|---|---|---|",
        "| `tiny-lib` | `2.0.0` → `2.1.0` | direct | adds a `postinstall` script: `node setup.js` | critical |",
        "| `left-pad` | `1.0.0` → `1.1.0` | direct | nothing of note | — |",
        "",
        "### Not reviewed",
        "",
        "1 of 2 changed files were not reviewed (1 lockfile):",
        "",
        "- `package-lock.json` — lockfile",
      ].join("\n"),
    );
    expect(t.checks.at(-1)!.body.output.summary).toContain("- Dependencies: 2 changed, 2 inspected, 1 with risky additions.");
    // The reviewer got the facts as data, beside the diff.
    const context = JSON.stringify(stack.fake.requests[0]!.body.messages);
    expect(context).toContain("facts crewbot read from the changed npm packages");
    expect(context).toContain("tiny-lib 2.0.0 → 2.1.0 (direct, package-lock.json:");
    // Every registry request went to the operator's registry, with its token; none to the lockfile's `resolved`.
    expect(stand.tarballRequests().map((r) => r.url).sort()).toEqual([pad[0]!, pad[1]!, lib[0]!, lib[1]!].map((p) => p.tarballPath).sort());
    expect(stand.requests.every((r) => r.authorization === `Bearer ${NPM_TOKEN}`)).toBe(true);
    expect(sent(stack, t)).not.toContain(NPM_TOKEN);
    expect(sent(stack, t)).not.toContain(TOKEN);
  });

  it("posts a lockfile-only transitive bump without asking the model, and does not post its finding twice", async () => {
    let fresh!: PublishedVersion;
    const stack = await stackWith((r) => {
      const old = r.publish({ name: "deep-dep", version: "3.0.0", files: { "index.js": "module.exports = 1;\n" } });
      fresh = r.publish({ name: "deep-dep", version: "3.0.1", files: { "index.js": "require('child_process').exec('id');\n" } });
      return { "package-lock.json": lockfile([locked("deep-dep", old, false)]) };
    }, []);
    const head = await push(stack, { "package-lock.json": lockfile([locked("deep-dep", fresh, false)]) }, "bump a transitive dependency");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 902, review: true });

    const job = await deliver(stack, "opened", head, "deps-lockfile-only");

    expect(job.state).toBe("succeeded");
    expect(stack.fake.requests).toHaveLength(0);
    expect(t.rejected).toEqual([]);
    const review = t.reviews[0];
    expect(review.body).toContain("Only dependency files changed: this review is what the changed npm packages bring in, read from their published tarballs; no model was asked.");
    expect(review.body).toContain("| `deep-dep` | `3.0.0` → `3.0.1` | transitive |");
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "package-lock.json", line: lineOf(lockfile([locked("deep-dep", fresh, false)]), '"node_modules/deep-dep"', '"version"') });
    expect(review.comments[0].body).toMatch(/^\*\*Warning\*\* — Dependency `deep-dep` `3\.0\.0` → `3\.0\.1` \(transitive\): /);
    expect(t.checks.at(-1)!.body.output.summary).toContain("- Dependencies: 1 changed, 1 inspected, 1 with risky additions.");

    // A push that changes the lockfile again: merge base → head is inspected again, the finding is not posted twice.
    const extra = registry!.publish({ name: "extra-dep", version: "1.0.0", files: { "index.js": "1;\n" } });
    const second = await push(stack, { "package-lock.json": lockfile([locked("deep-dep", fresh, false), { ...locked("extra-dep", extra, false) }]) }, "add a transitive dependency");
    t.checks.length = 0;
    mockReviewJob(stack, t, { checkId: 905, review: true, cached: true, config: "review:\n  debounceSeconds: 0\n", graphql: 1 });
    await deliver(stack, "synchronize", second, "deps-lockfile-only-2");
    expect(stack.fake.requests).toHaveLength(0);
    expect(t.reviews[1].comments).toEqual([]);
    expect(t.reviews[1].body).toContain("1 finding already posted on an earlier review is not repeated.");
    expect(t.reviews[1].body).toContain("| `extra-dep` | (added) → `1.0.0` | transitive | nothing of note | — |");
  });

  it("refuses a tarball that does not match the lockfile's integrity as a critical finding", async () => {
    let forged!: Locked;
    const stack = await stackWith((r) => {
      const old = r.publish({ name: "swapped", version: "1.0.0", files: { "index.js": "1;\n" } });
      r.publish({ name: "swapped", version: "1.0.1", files: { "index.js": "2;\n" } });
      // The old version's integrity claimed for the new one: what a tampered mirror or lockfile looks like.
      forged = { name: "swapped", version: "1.0.1", integrity: old.integrity, direct: false };
      return { "package-lock.json": lockfile([locked("swapped", old, false)]) };
    }, []);
    const head = await push(stack, { "package-lock.json": lockfile([forged]) }, "a lockfile whose integrity is not the tarball's");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 903, review: true });

    await deliver(stack, "opened", head, "deps-integrity");

    const review = t.reviews[0];
    expect(review.comments.map((c: any) => [c.path, c.body.split(" — ")[0]])).toEqual([["package-lock.json", "**Critical**"]]);
    expect(review.comments[0].body).toMatch(/Dependency `swapped` `1\.0\.0` → `1\.0\.1` \(transitive\): .*integrity/i);
    expect(review.body).toMatch(/\| `swapped` \| `1\.0\.0` → `1\.0\.1` \| transitive \| .*\| critical \|/);
  });

  it("asks no registry anything with review.dependencies.enabled: false", async () => {
    let b!: PublishedVersion;
    const stack = await stackWith((r) => {
      const a = r.publish({ name: "left-pad", version: "1.0.0" });
      b = r.publish({ name: "left-pad", version: "1.1.0" });
      return { "README.md": "# Hello\n", "package-lock.json": lockfile([locked("left-pad", a, false)]) };
    }, [{ text: "## Summary\nFine." }]);
    const r = registry!;
    const head = await push(stack, { "package-lock.json": lockfile([locked("left-pad", b, false)]), "README.md": "# Hello again\n" }, "bump");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 904, config: "review:\n  dependencies:\n    enabled: false\n" });

    const job = await deliver(stack, "opened", head, "deps-off");

    expect(job.outcome).toBe("✅ Done · no findings");
    expect(r.requests).toEqual([]);
    expect(t.checks.at(-1)!.body.output.summary).toContain("- Dependencies: not inspected (review.dependencies.enabled: false).");
  });
});
