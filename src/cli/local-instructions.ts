/**
 * `crewbot run`'s repository instructions: those of the local checkout itself (the operator's own
 * files, committed or not at the root; nested ones as git tracks them), chosen as in a job — for a
 * review the files of `git diff HEAD`, else all of them when they fit, else a listing.
 */
import type { ContextSection } from "../text/prompt.js";
import { INSTRUCTION_PATHSPECS } from "../context/instruction-files.js";
import { repoInstructions, ROOT_INSTRUCTION_FILES } from "../context/repo-instructions.js";
import { git } from "../workspace/git.js";

const names = (out: string) => out.split("\0").filter((p) => p !== "");

export async function localInstructions(root: string, review: boolean): Promise<ContextSection[]> {
  const tracked = await git(["ls-files", "-z", "--", ...INSTRUCTION_PATHSPECS], { cwd: root }).then(names, () => []);
  const files = [...new Set([...ROOT_INSTRUCTION_FILES, ...tracked])];
  const paths = review ? await git(["diff", "HEAD", "--name-only", "-z", "--no-renames", "--"], { cwd: root }).then(names, () => undefined) : undefined;
  return (await repoInstructions(root, files, { review, ...(paths ? { paths } : {}) })).sections;
}
