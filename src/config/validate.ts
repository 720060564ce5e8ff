/** Checking a parsed `.github/crewbot.yml`: each problem names the key, what was expected and what was found. */
import type { z } from "zod";
import { ConfigSchema, CONFIG_PATH, keysAt, type CrewbotConfig } from "./schema.js";

/** A config that must not be run on a guess: which file, and every problem found in it. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    /** Where the config came from, e.g. `.github/crewbot.yml` or `acme/.github: .github/crewbot.yml`. */
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is invalid: ${problems.join("; ")}`);
  }
}

export type Validation = { ok: true; config: CrewbotConfig } | { ok: false; problems: string[] };

/** `implement.setup[1]`; the whole file is `(top level)`. */
export function keyName(path: readonly PropertyKey[]): string {
  let name = "";
  for (const part of path) name += typeof part === "number" ? `[${part}]` : name === "" ? String(part) : `.${String(part)}`;
  return name === "" ? "(top level)" : name;
}

/** A short, safe description of what the file holds at a key. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing (an empty value)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return `the number ${value}`;
  const text = String(value);
  // JSON quoting keeps a multi-line value on one line (`"npm ci\nnpm test"`).
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  if (issue.code === "unrecognized_keys") {
    const allowed = keysAt(issue.path);
    const hint = allowed ? `; expected one of ${allowed.join(", ")}` : "";
    return issue.keys.map((key) => `\`${keyName([...issue.path, key])}\`: unknown key${hint}`);
  }
  if (issue.code === "invalid_key") {
    // A map's name that breaks its rule (`mcp.servers.my_docs`): the rule, not the map's shape.
    return [`\`${keyName(issue.path)}\`: not an allowed name: ${issue.issues.map((inner) => inner.message).join("; ")}`];
  }
  const expected = issue.path.length === 0 ? "a map of settings (see DESIGN.md §5)" : issue.message;
  return [`\`${keyName(issue.path)}\`: expected ${expected}, got ${describeValue(valueAt(input, issue.path))}`];
}

/**
 * A key written with nothing after it (`implement:` whose lines are all commented out, `setup:`)
 * is YAML null: it means "the default", as it reads, not an error.
 */
function withoutEmptyValues(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const kept = Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutEmptyValues(v)]);
  return Object.fromEntries(kept);
}

/**
 * Checks one file's contents (as YAML parsed it): the effective config with defaults, or the
 * problems. An empty file (`null`) is the default config.
 */
export function validateConfig(input: unknown): Validation {
  const result = ConfigSchema.safeParse(withoutEmptyValues(input ?? {}));
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => describeIssue(issue, input)) };
}

/** The config, or a ConfigError naming `file` and every problem. */
export function parseConfig(input: unknown, file: string = CONFIG_PATH): CrewbotConfig {
  const checked = validateConfig(input);
  if (!checked.ok) throw new ConfigError(file, checked.problems);
  return checked.config;
}
