/**
 * Loading `.github/crewbot.yml` the way Probot's `context.config` does (the same
 * `@probot/octokit-plugin-config`): the default branch's file, else the organisation's `.github`
 * repository's, following `_extends`. Unlike `context.config`, lists replace rather than
 * concatenate, so a repository can shorten `check` or `ignoreAuthors` that it inherits.
 */
import { readFile } from "node:fs/promises";
import YAML from "yaml";
import type { InstallationOctokit } from "../github/types.js";
import { configTextProblem } from "./config-text.js";
import { CONFIG_PATH, type CrewbotConfig } from "./schema.js";
import { ConfigError, parseConfig, validateConfig } from "./validate.js";

export interface LoadedConfig {
  config: CrewbotConfig;
  /** The files that made it, most specific first (`acme/app: .github/crewbot.yml`); empty for defaults. */
  sources: string[];
}

type Plain = Record<string, unknown>;
const isMap = (value: unknown): value is Plain => value !== null && typeof value === "object" && !Array.isArray(value);

/** Maps merge key by key; lists and scalars of `over` replace those of `base`. */
export function mergeConfig(base: unknown, over: unknown): unknown {
  if (!isMap(base) || !isMap(over)) return over === undefined ? base : over;
  const merged: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = mergeConfig(base[key], value);
  return merged;
}

const PLUGIN_PREFIX = /^\[@probot\/octokit-plugin-config\]\s*/;

/** `.github/crewbot.yml` for the repository's own file, `acme/.github: .github/crewbot.yml` for another's. */
function labelOf(target: { owner: string; repo: string }, file: { owner: string; repo: string; path: string }): string {
  return file.owner === target.owner && file.repo === target.repo ? file.path : `${file.owner}/${file.repo}: ${file.path}`;
}

interface ConfigFile {
  owner: string;
  repo: string;
  path: string;
  config: unknown;
}

/** A config file refused before it was parsed (config-text.ts), and which file it was. */
class UnreadConfig extends Error {
  constructor(
    readonly file: { owner: string; repo: string; path: string },
    readonly problem: string,
  ) {
    super(problem);
  }
}

const CONTENTS = "/repos/{owner}/{repo}/contents/{path}";
const guarded = new WeakSet<object>();

/**
 * The plugin reads each config file (the repository's, the organisation's, each `_extends`) as
 * raw contents and parses it at once; this client's raw contents reads — crewbot asks for no
 * other — are checked first, so a file too long, wide or deep for YAML's slow checks is refused.
 */
function checkConfigTexts(octokit: InstallationOctokit): void {
  if (guarded.has(octokit)) return;
  guarded.add(octokit);
  octokit.hook.after("request", (response, options) => {
    if (options.url !== CONTENTS || (options.mediaType as { format?: string } | undefined)?.format !== "raw" || typeof response.data !== "string") return;
    const problem = configTextProblem(response.data);
    if (problem) throw new UnreadConfig({ owner: String(options.owner), repo: String(options.repo), path: String(options.path) }, problem);
  });
}

/**
 * The repository's effective config. Each file is checked on its own first, so a problem names
 * the file it is in; a file that is not valid YAML, a bad `_extends` or a loop is a ConfigError
 * too. Any other failure (GitHub unreachable) is thrown as is: the job fails rather than guess.
 */
export async function loadRepoConfig(octokit: InstallationOctokit, target: { owner: string; repo: string }): Promise<LoadedConfig> {
  let files: ConfigFile[];
  checkConfigTexts(octokit);
  try {
    ({ files } = await octokit.config.get({ owner: target.owner, repo: target.repo, path: CONFIG_PATH }));
  } catch (error) {
    if (error instanceof UnreadConfig) throw new ConfigError(labelOf(target, error.file), [error.problem]);
    const message = error instanceof Error ? error.message : String(error);
    if (!PLUGIN_PREFIX.test(message)) throw error;
    // The plugin names the file by its API URL: name it as the other problems do.
    const [, owner = target.owner, repo = target.repo, file = CONFIG_PATH] = /\/repos\/([^/]+)\/([^/]+)\/contents\/([^?\s]+)/.exec(message) ?? [];
    const label = labelOf(target, { owner, repo, path: decodeURIComponent(file) });
    throw new ConfigError(label, [message.replace(PLUGIN_PREFIX, "")]);
  }
  const found = files.filter((file) => file.config !== null);
  const label = (file: ConfigFile) => labelOf(target, file);
  for (const file of found) {
    const checked = validateConfig(file.config);
    if (!checked.ok) throw new ConfigError(label(file), checked.problems);
  }
  const merged = [...found].reverse().reduce<unknown>((base, file) => mergeConfig(base, file.config), {});
  return { config: parseConfig(merged, found.map(label).join(" + ") || CONFIG_PATH), sources: found.map(label) };
}

/** A local file for `crewbot config validate|print`: its config, and what could not be checked here. */
export async function loadConfigFile(file: string): Promise<{ config: CrewbotConfig; notes: string[] }> {
  const text = await readFile(file, "utf8");
  const problem = configTextProblem(text);
  if (problem) throw new ConfigError(file, [problem]);
  let data: unknown;
  try {
    // `|| {}` as the plugin does on GitHub: an empty file, `false` or `0` is the default config.
    data = YAML.parse(text, { logLevel: "error" }) || {};
  } catch (error) {
    throw new ConfigError(file, [`not valid YAML: ${(error as Error).message.split("\n")[0]}`]);
  }
  const notes: string[] = [];
  if (isMap(data) && "_extends" in data) {
    const { _extends: extendsValue, ...rest } = data;
    if (typeof extendsValue !== "string") throw new ConfigError(file, ["`_extends`: expected a repository name such as .github or acme/settings"]);
    notes.push(`_extends: ${extendsValue} is followed on GitHub; only this file was checked here.`);
    data = rest;
  }
  return { config: parseConfig(data, file), notes };
}
