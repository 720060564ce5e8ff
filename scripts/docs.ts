/**
 * `npm run docs`: writes the files generated from src/config/schema.ts (the config's JSON Schema
 * and docs/configuration.md). A test fails while a committed one is older than the schema.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EXAMPLE_PATH, generatedDocs } from "../src/config/reference.js";

const root = path.resolve(import.meta.dirname, "..");
const example = readFileSync(path.join(root, EXAMPLE_PATH), "utf8");
for (const file of generatedDocs(example)) {
  const target = path.join(root, file.path);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file.text);
  console.log(`wrote ${file.path}`);
}
