/**
 * What may import what, by dependency-cruiser with the repository's `.dependency-cruiser.cjs`: no
 * import cycle in src/ or bench/ (type-only imports too), each folder of src/ imports only the
 * folders of the layers below its own, and only store/ opens SQLite or Redis. A failure lists each
 * import that breaks a rule, with the rule's name.
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { cruise, type IConfiguration, type ICruiseResult } from "dependency-cruiser";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const config = createRequire(import.meta.url)(path.join(ROOT, ".dependency-cruiser.cjs")) as IConfiguration & { LAYERS: string[][] };

describe("the layers (dependency-cruiser)", () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    const cwd = process.cwd();
    process.chdir(ROOT); // the config's paths are relative to the repository's root
    try {
      const { forbidden, allowed, allowedSeverity, options } = config;
      const cruised = await cruise(["src", "bench"], { ...options, validate: true, ruleSet: { forbidden, allowed, allowedSeverity } });
      result = cruised.output as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);

  it("cruises the sources (the rules are not vacuous)", () => {
    const files = result.modules.map((m) => m.source);
    expect(files.length).toBeGreaterThan(300);
    expect(files).toEqual(expect.arrayContaining(["src/secrets/redact.ts", "src/jobs/run-job.ts", "bench/run.ts"]));
    expect(result.modules.find((m) => m.source === "src/jobs/run-job.ts")?.dependencies.length).toBeGreaterThan(0);
  });

  it("gives every folder of src/ a layer, once", () => {
    const folders = readdirSync(path.join(ROOT, "src"), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== "app").map((d) => d.name);
    const layered = config.LAYERS.flat();
    expect(new Set(layered).size).toBe(layered.length);
    expect([...layered].sort()).toEqual([...folders].sort());
  });

  it("has no cycle and no import against the layers", () => {
    const broken = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(" → ")})` : ""}`);
    expect(broken, "see .dependency-cruiser.cjs and docs/ARCHITECTURE.md's layers").toEqual([]);
  });
});
