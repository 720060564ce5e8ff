/**
 * Stream rules: `.github/crewbot/rules/*.md` of the default branch. A rule's `trigger` is matched
 * against what an agent streams (text and tool input); on a match the reply is dropped and the
 * rule's body is put before the model as a `<system-interrupt>`. Triggers run on RE2 (linear
 * time), so no trigger can backtrack for long; what RE2 cannot compile is refused by name.
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { RE2 } from "re2-wasm";
import { z } from "zod";
import { listConfined } from "../workspace/confined-read.js";
import { issueToError, readFrontmatter, readSmallFile } from "./definition-files.js";
import type { StreamRules } from "../agent/types.js";
import { DefinitionError } from "./types.js";

export const REPO_RULES_DIR = ".github/crewbot/rules";

/** A trigger is a short pattern; a longer one is refused (RE2 also caps the compiled program). */
export const MAX_TRIGGER_CHARS = 1000;
/** How much of a block's streamed text a trigger sees at once: a match spanning more is not found. */
export const RULE_WINDOW_CHARS = 2048;

export interface StreamRule {
  name: string;
  /** The trigger as written. */
  trigger: string;
  /** Only these agents are watched; undefined: all. */
  agents?: string[];
  repeat: "once" | "after-gap";
  /** `after-gap`: completed turns (of the job) after a firing before the rule may fire again. */
  gap: number;
  body: string;
  file: string;
  matcher: RE2;
}

const KEYS = ["name", "trigger", "agents", "repeat", "gap"];
const text = (what: string) => z.string({ error: (i) => (i.input === undefined ? "is required" : `must be ${what}`) });
const RuleFrontmatter = z
  .strictObject({
    name: text("a string").trim().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { error: "must be letters, digits, '.', '_' or '-', at most 64 characters" }),
    trigger: text("a regular expression (a string)").min(1, { error: "must not be empty" }),
    agents: z.union([z.array(z.string()), z.string()], { error: "must be a list of agent names" }).optional(),
    repeat: z.enum(["once", "after-gap"], { error: 'must be "once" or "after-gap"' }).default("once"),
    gap: z.number({ error: "must be a whole number of turns" }).int({ error: "must be a whole number of turns" }).min(1, { error: "must be at least 1" }).optional(),
  })
  .superRefine((data, ctx) => {
    if (data.repeat === "after-gap" && data.gap === undefined) ctx.addIssue({ code: "custom", path: ["gap"], message: "is required with repeat: after-gap" });
    if (data.repeat === "once" && data.gap !== undefined) ctx.addIssue({ code: "custom", path: ["gap"], message: "only applies to repeat: after-gap" });
  });

// RE2's compiled programs live in WASM memory that JavaScript's GC may never free, so the triggers
// jobs compile again and again are kept, a bounded number of them (a stateless matcher: no `g` flag).
const compiled = new Map<string, RE2>();
const MAX_COMPILED = 512;

/** Compiles a trigger with RE2, or throws a DefinitionError on `trigger` saying why not. */
export function compileTrigger(trigger: string, file: string): RE2 {
  if (trigger.length > MAX_TRIGGER_CHARS) {
    throw new DefinitionError(file, "trigger", `too long (${trigger.length} characters; at most ${MAX_TRIGGER_CHARS})`);
  }
  const known = compiled.get(trigger);
  if (known) return known;
  try {
    const matcher = new RE2(trigger, "u");
    if (compiled.size < MAX_COMPILED) compiled.set(trigger, matcher);
    return matcher;
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/u: /s, "");
    const hint = /invalid perl operator|invalid escape sequence: \\[1-9]/.test(reason)
      ? " (lookarounds and backreferences are not supported: they can make matching run for too long)"
      : /repetition|too large|program size/i.test(reason) ? " (it could run for too long)" : "";
    throw new DefinitionError(file, "trigger", `not a usable regular expression: ${reason}${hint}`);
  }
}

/** Parses one rule file; every problem is a DefinitionError naming `file` and the field. */
export function parseRule(source: string, file: string): StreamRule {
  const { data, body } = readFrontmatter(source, file);
  const parsed = RuleFrontmatter.safeParse(data);
  if (!parsed.success) throw issueToError(file, parsed.error.issues, KEYS);
  const { name, trigger, repeat, gap } = parsed.data;
  const agents = typeof parsed.data.agents === "string" ? parsed.data.agents.split(",") : parsed.data.agents;
  const names = agents?.map((a) => a.trim()).filter((a) => a !== "");
  if (names !== undefined && names.length === 0) throw new DefinitionError(file, "agents", "must name at least one agent (leave it out for all)");
  const instructions = body.trim();
  if (instructions === "") throw new DefinitionError(file, "body", "is empty: the body is what the agent is told when the rule fires");
  return { name, trigger, agents: names, repeat, gap: gap ?? 0, body: instructions, file, matcher: compileTrigger(trigger, file) };
}

/**
 * The rules below `root` (a default-branch copy or a local repository). A symlink, an oversized
 * or a broken file, or two rules of one name, throw a DefinitionError naming the file.
 */
export async function loadRules(root: string): Promise<StreamRule[]> {
  const realRoot = await realpath(root);
  const dir = path.join(realRoot, ...REPO_RULES_DIR.split("/"));
  const st = await lstat(dir).catch(() => undefined);
  if (st === undefined) return [];
  if (st.isSymbolicLink()) throw new DefinitionError(REPO_RULES_DIR, "dir", "is a symlink");
  if (!st.isDirectory()) throw new DefinitionError(REPO_RULES_DIR, "dir", "is not a directory");
  const listed = await listConfined(realRoot, REPO_RULES_DIR, { noSymlinks: true });
  if (!listed.ok) throw new DefinitionError(REPO_RULES_DIR, "dir", `not read: ${listed.reason}`);
  const entries = listed.entries
    .filter((e) => e.name.endsWith(".md") && e.name.toLowerCase() !== "readme.md")
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rules: StreamRule[] = [];
  for (const entry of entries) {
    const file = `${REPO_RULES_DIR}/${entry.name}`;
    if (entry.isSymbolicLink()) throw new DefinitionError(file, "file", "is a symlink");
    if (!entry.isFile()) throw new DefinitionError(file, "file", "is not a regular file");
    const rule = parseRule(await readSmallFile(realRoot, file, file), file);
    const earlier = rules.find((r) => r.name === rule.name);
    if (earlier) throw new DefinitionError(file, "name", `"${rule.name}" is already the name of ${earlier.file}`);
    rules.push(rule);
  }
  return rules;
}

/** The user message a firing adds: the rule's body, marked as an interrupt by that rule. */
export const interruptMessage = (rule: Pick<StreamRule, "name" | "body">) =>
  `<system-interrupt reason="rule" rule="${rule.name}">\n${rule.body}\n</system-interrupt>`;

/**
 * A job's rules and when each last fired: shared by every agent of the job, since `once` means
 * once per job and `after-gap` counts the job's completed turns.
 */
export class RuleBook implements StreamRules {
  private completedTurns = 0;
  private readonly firedAt = new Map<string, number>();

  constructor(readonly rules: readonly StreamRule[]) {}

  /** A reply arrived whole (not dropped by a rule, not cut by an error). */
  turnCompleted(): void {
    this.completedTurns += 1;
  }

  /** The rules that may fire now for `agent`. */
  armed(agent: string): StreamRule[] {
    return this.rules.filter((rule) => {
      if (rule.agents && !rule.agents.includes(agent)) return false;
      const last = this.firedAt.get(rule.name);
      if (last === undefined) return true;
      return rule.repeat === "after-gap" && this.completedTurns - last >= rule.gap;
    });
  }

  /** Records the firing of a rule a watcher returned; gives the message that replaces the reply. */
  fire(rule: unknown): { name: string; message: string } {
    const fired = rule as StreamRule;
    this.firedAt.set(fired.name, this.completedTurns);
    return { name: fired.name, message: interruptMessage(fired) };
  }

  /** A watcher for one streamed reply of `agent`, or undefined when no rule is armed for it. */
  watch(agent: string): StreamWatch | undefined {
    const armed = this.armed(agent);
    return armed.length > 0 ? new StreamWatch(armed) : undefined;
  }
}

/**
 * Matches the armed rules against one reply as it streams. Each content block has its own window
 * of its last RULE_WINDOW_CHARS characters, so a match split across deltas is found while every
 * check stays bounded.
 */
export class StreamWatch {
  private window = "";
  private block = -1;

  constructor(private readonly rules: readonly StreamRule[]) {}

  /** A retried attempt starts over: nothing of the dropped one may complete a match. */
  reset(): void {
    this.window = "";
    this.block = -1;
  }

  /** The first armed rule matching the block's window after `delta`, if any. */
  see(block: number, delta: string): StreamRule | undefined {
    if (block !== this.block) {
      this.block = block;
      this.window = "";
    }
    if (delta === "") return undefined;
    this.window = (this.window + delta).slice(-RULE_WINDOW_CHARS);
    return this.rules.find((rule) => rule.matcher.test(this.window));
  }
}
