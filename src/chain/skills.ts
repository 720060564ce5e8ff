/**
 * Skills (the Agent Skills format): `<dir>/<skill>/SKILL.md` with frontmatter `name` and
 * `description`, the body being the skill's instructions, beside any other files of the skill.
 * Read from the default branch's copy like the other definitions. Agents see only names and
 * descriptions; the `skill` tool hands out a body when asked (progressive disclosure).
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { listConfined } from "../workspace/confined-read.js";
import { MAX_DEFINITION_BYTES, readFrontmatter, readSmallFile } from "./definition-files.js";
import { DefinitionError } from "./types.js";
import type { Skill } from "../tools/types.js";

/** Where a repository keeps skills, in priority order: the first skill of a name wins. */
export const SKILL_DIRS = [".github/skills", ".claude/skills", ".agents/skills"] as const;

/** A skill's other files listed for the model; a skill is a few files, not a tree to crawl. */
export const MAX_SKILL_FILES = 100;

export interface SkillSet {
  skills: Skill[];
  /** Skills skipped and why, each naming its file. */
  notes: string[];
}

// The Agent Skills spec: lowercase letters, digits and hyphens, at most 64; description at most 1024.
const SkillFrontmatter = z.looseObject({
  name: z
    .string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") })
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { error: "must be lowercase letters, digits and '-', at most 64 characters" }),
  description: z
    .string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(1024, { error: "must be at most 1024 characters" }),
});

/** Loads the skills below `root` (a default-branch copy); a broken skill is skipped with a note, never fatal. */
export async function loadSkills(root: string): Promise<SkillSet> {
  const realRoot = await realpath(root);
  const result: SkillSet = { skills: [], notes: [] };
  const seen = new Set<string>();
  for (const base of SKILL_DIRS) {
    const dir = path.join(realRoot, ...base.split("/"));
    // A symlinked skills folder could lead anywhere on the host: not followed.
    if ((await lstat(dir).catch(() => undefined))?.isSymbolicLink()) {
      result.notes.push(`${base}: skipped: is a symlink`);
      continue;
    }
    const listed = await listConfined(realRoot, base, { noSymlinks: true });
    const entries = listed.ok ? listed.entries : [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!entry.isDirectory()) continue;
      const file = `${base}/${entry.name}/SKILL.md`;
      try {
        const skill = await readSkill(realRoot, `${base}/${entry.name}`, file);
        if (skill === undefined) continue;
        if (seen.has(skill.name)) {
          result.notes.push(`${file}: skipped: a skill named "${skill.name}" was found earlier`);
          continue;
        }
        seen.add(skill.name);
        result.skills.push(skill);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        result.notes.push(`${error.message} (skill skipped)`);
      }
    }
  }
  return result;
}

/** The skill in `rel` (a folder below `root`, the default branch's copy). */
async function readSkill(root: string, rel: string, file: string): Promise<Skill | undefined> {
  const dir = path.join(root, ...rel.split("/"));
  const full = path.join(dir, "SKILL.md");
  const st = await lstat(full).catch(() => undefined);
  if (st === undefined) return undefined;
  if (st.isSymbolicLink()) throw new DefinitionError(file, "file", "is a symlink");
  if (!st.isFile()) throw new DefinitionError(file, "file", "is not a regular file");
  if (st.size > MAX_DEFINITION_BYTES) throw new DefinitionError(file, "file", `too large (${st.size} bytes; at most ${MAX_DEFINITION_BYTES})`);
  const { data, body } = readFrontmatter(await readSmallFile(root, `${rel}/SKILL.md`, file), file);
  const parsed = SkillFrontmatter.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DefinitionError(file, issue.path.map(String).join(".") || "frontmatter", issue.message);
  }
  return { name: parsed.data.name, description: parsed.data.description, body: body.trim(), dir, file, files: await otherFiles(root, rel) };
}

/** Regular files below the skill's dir except SKILL.md; symlinks are neither followed nor listed. */
async function otherFiles(root: string, rel: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string): Promise<void> => {
    const listed = await listConfined(root, at, { noSymlinks: true });
    if (!listed.ok) return;
    for (const e of listed.entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (found.length >= MAX_SKILL_FILES) return;
      const child = `${at}/${e.name}`;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile() && child !== `${rel}/SKILL.md`) found.push(path.join(root, ...child.split("/")));
    }
  };
  await walk(rel);
  return found;
}

/** What every agent reads about the skills: names and descriptions only, bodies on request. */
export function skillsContext(skills: readonly Skill[]): { source: string; text: string } | undefined {
  if (skills.length === 0) return undefined;
  const lines = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, " ")}`);
  return {
    source: "skills of this repository (default branch)",
    text: `The repository offers these skills. When one fits your task, call the skill tool with its name to read its instructions.\n${lines.join("\n")}`,
  };
}
