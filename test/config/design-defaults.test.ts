/**
 * DESIGN.md §5 shows every key with its default in one YAML block; the schema is where crewbot's
 * defaults live. This reads the block and holds the two together, so neither drifts unseen.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML, { isMap, isPair, isScalar, isSeq, type Node } from "yaml";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";

const DESIGN = readFileSync(path.resolve(import.meta.dirname, "../../docs/DESIGN.md"), "utf8");

/**
 * Keys DESIGN §5 lists (marked new there) that crewbot does not read yet. Each leaves this list
 * when the schema gains it; from then on its default is checked like any other.
 */
const DESIGN_ONLY = new Set<string>([]);

/** Keys the schema has beyond §5's list, each with its reason in docs/decisions.md. */
const SCHEMA_ONLY = new Set<string>([]);

/** The YAML block of §5 ("The keys (all optional; defaults shown)"). */
function designConfigBlock(markdown: string): string {
  const section = /^## 5\. Configuration\n([\s\S]*?)^## 6\./m.exec(markdown)?.[1];
  if (!section) throw new Error("DESIGN.md has no section “## 5. Configuration” followed by “## 6.”");
  const block = /^```yaml\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error("DESIGN.md §5 has no ```yaml block");
  return block;
}

/**
 * Every key of the block with its value, `a.b.c → value`. A map's keys are followed down (an empty
 * map is a value); a key written twice (§5 writes `commands:` twice, the second adding new
 * commands) adds its keys to the first's.
 */
function designDefaults(block: string): Map<string, unknown> {
  const doc = YAML.parseDocument(block, { uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(`DESIGN.md §5's block is not YAML: ${doc.errors[0]!.message}`);
  const found = new Map<string, unknown>();
  const walk = (node: Node | null, prefix: string): void => {
    if (!isMap(node)) throw new Error(`${prefix || "the block"}: expected a map`);
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) throw new Error(`${prefix}: a key that is not a plain name`);
      const at = prefix === "" ? String(pair.key.value) : `${prefix}.${String(pair.key.value)}`;
      const value = pair.value as Node | null;
      if (isMap(value) && value.items.length > 0) walk(value, at);
      else if (found.has(at)) throw new Error(`${at}: written twice`);
      else found.set(at, isScalar(value) || isSeq(value) || isMap(value) ? value.toJSON() : null);
    }
  };
  walk(doc.contents as Node | null, "");
  return found;
}

/** The schema's defaults the same way: every key down to the values, empty maps as values. */
function schemaDefaults(value: unknown, prefix = "", found = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const at = prefix === "" ? key : `${prefix}.${key}`;
    const isFilledMap = inner !== null && typeof inner === "object" && !Array.isArray(inner) && Object.keys(inner).length > 0;
    if (isFilledMap) schemaDefaults(inner, at, found);
    else found.set(at, inner);
  }
  return found;
}

describe("designDefaults", () => {
  it("reads flow and block maps, lists, comments and a key written twice", () => {
    const block = 'a: { x: true, y: "q" }\na: { z: 1 }   # (new)\nb:\n  c: []      # note\n  d: { e: ["**"], f: {} }\n  g: off\n';
    expect([...designDefaults(block)]).toEqual([
      ["a.x", true],
      ["a.y", "q"],
      ["a.z", 1],
      ["b.c", []],
      ["b.d.e", ["**"]],
      ["b.d.f", {}],
      ["b.g", "off"],
    ]);
  });

  it("refuses one key with two values rather than pick one", () => {
    expect(() => designDefaults("a: { x: 1 }\na: { x: 2 }\n")).toThrow("a.x: written twice");
  });

  it("finds §5's block and nothing of §6", () => {
    const block = designConfigBlock(DESIGN);
    expect(block).toMatch(/^commands: /);
    expect(block).toContain("transcripts: { public: false }");
    expect(block).not.toContain("Operator environment");
  });
});

describe("DESIGN.md §5's defaults and the schema's", () => {
  const design = designDefaults(designConfigBlock(DESIGN));
  const schema = schemaDefaults(DEFAULT_CONFIG);

  it("reads enough of §5 that the checks below mean something", () => {
    expect(design.size).toBeGreaterThan(40);
    expect(design.get("budgets.maxTurns")).toBe(200);
    expect(design.get("review.paths.include")).toEqual(["**"]);
  });

  it("agree on every key both have", () => {
    const shared = [...design.keys()].filter((key) => schema.has(key));
    expect(shared.length).toBeGreaterThan(35);
    expect(Object.fromEntries(shared.map((key) => [key, schema.get(key)]))).toEqual(Object.fromEntries(shared.map((key) => [key, design.get(key)])));
  });

  it("every key of §5 is in the schema, or listed as not read yet", () => {
    const missing = [...design.keys()].filter((key) => !schema.has(key) && !DESIGN_ONLY.has(key));
    expect(missing, "keys of DESIGN §5 the schema lacks: add them to schema.ts, or to DESIGN_ONLY while they are not built").toEqual([]);
  });

  it("DESIGN_ONLY names only keys of §5 the schema lacks", () => {
    const stale = [...DESIGN_ONLY].filter((key) => schema.has(key) || !design.has(key));
    expect(stale, "these are in the schema now (or no longer in DESIGN §5): remove them from DESIGN_ONLY").toEqual([]);
  });

  it("every key of the schema is in §5, or listed as the schema's own", () => {
    const extra = [...schema.keys()].filter((key) => !design.has(key) && !SCHEMA_ONLY.has(key));
    expect(extra, "keys DESIGN §5 does not show: list them in SCHEMA_ONLY with a line in docs/decisions.md").toEqual([]);
    expect([...SCHEMA_ONLY].filter((key) => !schema.has(key) || design.has(key))).toEqual([]);
  });
});
