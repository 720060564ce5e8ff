/**
 * What a new published version adds over the old, from both tarballs' contents and the registry's
 * document: pure, no I/O. A brand-new package is compared against nothing, so everything it has
 * counts as added. Only additions are facts; what a version drops is not a risk.
 */
import { CAPABILITY_WORDS, capabilitiesOf, obfuscationMarks, type Capability } from "./code-signals.js";
import type { PackageContents } from "./tarball.js";
import type { DependencyFact } from "./types.js";

/** What the registry document says of one version. */
export interface VersionMeta {
  /** `_npmUser.name`: who published it. */
  publisher?: string;
  maintainers: string[];
  deprecated?: string;
  /** `time[version]`, ms since epoch. */
  publishedAt?: number;
}

export interface CompareInput {
  name: string;
  old?: PackageContents;
  new: PackageContents;
  oldMeta?: VersionMeta;
  newMeta?: VersionMeta;
  /** ms since epoch, for the age of the release. */
  now: number;
}

/**
 * The lifecycle scripts a new or changed one of which is a finding, and how severe. npm runs
 * `prepare` only for git and local installs; a registry tarball's is a warning. A git dependency is
 * never fetched (it is named as not inspected), so the tarballs compared here are all the registry's.
 */
export const LIFECYCLE_SCRIPTS = [
  { script: "preinstall", severity: "critical" },
  { script: "install", severity: "critical" },
  { script: "postinstall", severity: "critical" },
  { script: "prepare", severity: "warning", note: "npm runs it only when installing from git or a local folder, not from the registry" },
] as const satisfies readonly { script: string; severity: "critical" | "warning"; note?: string }[];
export const FRESH_HOURS = 72;
const CAPABILITIES: Capability[] = ["child-process", "network", "eval"];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const strings = (value: unknown): Record<string, string> =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/** Markdown code span that survives backticks inside; long text cut. */
export function code(text: string): string {
  const cut = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return cut.includes("`") ? `\`\` ${cut} \`\`` : `\`${cut}\``;
}

const listed = (items: string[]) => items.map(code).join(", ");

/** `Name <email> (url)` → `Name`: cut at the first `<` (a scan, where a pattern would start over at every space). */
function personName(person: string): string {
  const at = person.indexOf("<");
  return at === -1 ? person : person.slice(0, at).trimEnd();
}

/** What the registry document says of `version`. */
export function versionMeta(document: unknown, version: string): VersionMeta | undefined {
  if (!isRecord(document) || !isRecord(document["versions"])) return undefined;
  const entry = document["versions"][version];
  if (!isRecord(entry)) return undefined;
  const user = entry["_npmUser"];
  const maintainers = Array.isArray(entry["maintainers"]) ? entry["maintainers"] : [];
  const published = isRecord(document["time"]) ? document["time"][version] : undefined;
  const at = typeof published === "string" ? Date.parse(published) : NaN;
  return {
    ...(isRecord(user) && typeof user["name"] === "string" ? { publisher: user["name"] } : {}),
    maintainers: maintainers.map((m) => (isRecord(m) ? m["name"] : typeof m === "string" ? personName(m) : undefined)).filter((m): m is string => typeof m === "string"),
    ...(typeof entry["deprecated"] === "string" && entry["deprecated"] !== "" ? { deprecated: entry["deprecated"] } : {}),
    ...(Number.isFinite(at) ? { publishedAt: at } : {}),
  };
}

function scriptFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const before = strings(old?.packageJson["scripts"]);
  const after = strings(now.packageJson["scripts"]);
  return LIFECYCLE_SCRIPTS.flatMap((row): DependencyFact[] => {
    const { script, severity } = row;
    const command = after[script];
    if (command === undefined || command === before[script]) return [];
    const said = before[script] === undefined ? `adds a ${code(script)} script: ${code(command)}` : `changes its ${code(script)} script from ${code(before[script])} to ${code(command)}`;
    const text = "note" in row ? `${said} (${row.note})` : said;
    return [{ kind: "install-script", severity, text, files: ["package.json"] }];
  });
}

/** Executable name → file: `bin` as a string (named after the package) or a map, and `directories.bin`. */
function binsOf(name: string, contents: PackageContents): Record<string, string> {
  const bin = contents.packageJson["bin"];
  if (typeof bin === "string") return { [name.slice(name.lastIndexOf("/") + 1)]: bin };
  const bins = strings(bin);
  const folder = isRecord(contents.packageJson["directories"]) ? contents.packageJson["directories"]["bin"] : undefined;
  if (typeof folder === "string" && Object.keys(bins).length === 0) {
    const prefix = `${folder.replace(/^\.\/|\/$/g, "")}/`;
    for (const file of contents.files) if (file.startsWith(prefix)) bins[file.slice(file.lastIndexOf("/") + 1)] = file;
  }
  return bins;
}

function binFacts(name: string, old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const before = old ? binsOf(name, old) : {};
  const added = Object.entries(binsOf(name, now)).filter(([bin]) => !(bin in before));
  if (added.length === 0) return [];
  const words = added.map(([bin, file]) => `${code(bin)} (${code(file)})`).join(", ");
  return [{ kind: "bin", severity: "warning", text: `adds ${added.length === 1 ? "an executable" : "executables"} ${words}`, files: added.slice(0, 3).map(([, file]) => file.replace(/^\.\//, "")) }];
}

function nativeFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const parts: string[] = [];
  const files: string[] = [];
  if (now.bindingGyp && !old?.bindingGyp) {
    parts.push("`binding.gyp` (npm compiles it with node-gyp on install)");
    files.push("binding.gyp");
  } else if (now.packageJson["gypfile"] === true && old?.packageJson["gypfile"] !== true) parts.push("`gypfile: true` (npm compiles it with node-gyp on install)");
  const compiled = now.nativeFiles.filter((file) => !old?.nativeFiles.includes(file));
  if (compiled.length > 0) parts.push(`compiled ${compiled.length === 1 ? "addon" : "addons"} ${listed(compiled.slice(0, 3))}${compiled.length > 3 ? ` and ${compiled.length - 3} more` : ""}`);
  files.push(...compiled);
  return parts.length === 0 ? [] : [{ kind: "native-addon", severity: "warning", text: `adds native code: ${parts.join("; ")}`, files: files.slice(0, 3) }];
}

function filesUsing(contents: PackageContents | undefined): Map<Capability, string[]> {
  const using = new Map<Capability, string[]>(CAPABILITIES.map((c) => [c, []]));
  for (const [file, text] of contents?.code ?? []) for (const capability of capabilitiesOf(text)) using.get(capability)!.push(file);
  return using;
}

function capabilityFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const before = filesUsing(old);
  const after = filesUsing(now);
  return CAPABILITIES.flatMap((kind): DependencyFact[] => {
    const files = after.get(kind)!.sort();
    if (files.length === 0 || before.get(kind)!.length > 0) return [];
    const text = old ? `now ${CAPABILITY_WORDS[kind]}; the old version did not` : CAPABILITY_WORDS[kind];
    return [{ kind, severity: "warning", text: `${text}, in ${listed(files.slice(0, 3))}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`, files: files.slice(0, 3) }];
  });
}

/** Files whose obfuscation marks are new (the same path in the old version had none). */
function obfuscationFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const marked: [string, string[]][] = [];
  for (const [file, text] of [...now.code].sort(([a], [b]) => a.localeCompare(b))) {
    const marks = obfuscationMarks(file, text);
    const before = old?.code.get(file);
    if (marks.length > 0 && (before === undefined || obfuscationMarks(file, before).length === 0)) marked.push([file, marks]);
  }
  if (marked.length === 0) return [];
  const [first, marks] = marked[0]!;
  const more = marked.length > 1 ? ` (and ${marked.length - 1} more ${marked.length === 2 ? "file" : "files"})` : "";
  return [{ kind: "obfuscation", severity: "warning", text: `has marks of obfuscated code: ${marks.join(" and ")} in ${code(first)}${more}`, files: marked.slice(0, 3).map(([file]) => file) }];
}

const dependenciesOf = (contents: PackageContents | undefined) => ({
  ...strings(contents?.packageJson["peerDependencies"]),
  ...strings(contents?.packageJson["optionalDependencies"]),
  ...strings(contents?.packageJson["dependencies"]),
});

function dependencyFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  const before = dependenciesOf(old);
  const added = Object.entries(dependenciesOf(now)).filter(([name]) => !(name in before));
  if (added.length === 0) return [];
  const words = added.map(([name, range]) => `${code(name)} ${range}`).join(", ");
  return [{ kind: "new-dependency", severity: null, text: `adds ${added.length === 1 ? "a dependency" : `${added.length} dependencies`}: ${words}` }];
}

function licenceOf(contents: PackageContents): string | undefined {
  const licence = contents.packageJson["license"] ?? contents.packageJson["licence"];
  if (typeof licence === "string") return licence;
  if (isRecord(licence) && typeof licence["type"] === "string") return licence["type"];
  const legacy = contents.packageJson["licenses"];
  if (Array.isArray(legacy)) return legacy.map((l) => (isRecord(l) && typeof l["type"] === "string" ? l["type"] : "?")).join(" OR ");
  return undefined;
}

function licenceFacts(old: PackageContents | undefined, now: PackageContents): DependencyFact[] {
  if (!old) return [];
  const before = licenceOf(old);
  const after = licenceOf(now);
  if (before === after) return [];
  const word = (l: string | undefined) => (l === undefined ? "none" : code(l));
  return [{ kind: "licence", severity: "warning", text: `changes its licence from ${word(before)} to ${word(after)}`, files: ["package.json"] }];
}

function registryFacts(input: CompareInput): DependencyFact[] {
  const facts: DependencyFact[] = [];
  const { oldMeta, newMeta } = input;
  if (!newMeta) return facts;
  if (oldMeta?.publisher && newMeta.publisher && oldMeta.publisher !== newMeta.publisher) {
    facts.push({ kind: "publisher", severity: "warning", text: `is published by ${code(newMeta.publisher)}; the old version was published by ${code(oldMeta.publisher)}` });
  }
  const addedMaintainers = oldMeta && oldMeta.maintainers.length > 0 ? newMeta.maintainers.filter((m) => !oldMeta.maintainers.includes(m)) : [];
  if (addedMaintainers.length > 0) facts.push({ kind: "maintainer", severity: "warning", text: `adds ${addedMaintainers.length === 1 ? "a maintainer" : "maintainers"} ${listed(addedMaintainers)}` });
  if (newMeta.deprecated) facts.push({ kind: "deprecated", severity: "warning", text: `is deprecated: “${newMeta.deprecated.slice(0, 300)}”` });
  if (newMeta.publishedAt !== undefined && input.now - newMeta.publishedAt < FRESH_HOURS * 3_600_000) {
    const hours = Math.max(0, Math.floor((input.now - newMeta.publishedAt) / 3_600_000));
    facts.push({ kind: "fresh-release", severity: "warning", text: `was published ${hours === 1 ? "1 hour" : `${hours} hours`} before this review (under ${FRESH_HOURS} hours: hijacked releases are usually caught within days)` });
  }
  return facts;
}

/** Every fact of what the new version adds over the old (none: a clean bump). */
export function compareVersions(input: CompareInput): DependencyFact[] {
  const { old, new: now } = input;
  return [
    ...scriptFacts(old, now),
    ...binFacts(input.name, old, now),
    ...nativeFacts(old, now),
    ...capabilityFacts(old, now),
    ...obfuscationFacts(old, now),
    ...dependencyFacts(old, now),
    ...licenceFacts(old, now),
    ...registryFacts(input),
  ];
}
