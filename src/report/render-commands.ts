/** The repository's setup and check commands as the final comment and the PR body show them. */
import { formatDuration } from "./format.js";
import { codeBlock, codeSpan, safeInline } from "../text/github-markdown.js";

export interface CommandSummary {
  phase: "setup" | "check";
  command: string;
  ok: boolean;
  status: string;
  tail: string;
  durationMs: number;
}

/**
 * `## Setup` and `## Checks`: one line per command (pass/fail, status, time), its output's tail
 * folded below it. The verdict is the commands' exit status, never the model's opinion.
 */
export function renderCommands(results: readonly CommandSummary[]): string[] {
  const sections: string[] = [];
  for (const [phase, title] of [["setup", "## Setup"], ["check", "## Checks"]] as const) {
    const mine = results.filter((r) => r.phase === phase);
    if (mine.length === 0) continue;
    const lines = mine.map((r) => {
      const head = `${r.ok ? "✅" : "❌"} ${codeSpan(r.command, 200)} · ${safeInline(r.status, 120)} · ${formatDuration(r.durationMs)}`;
      if (r.tail.trim() === "") return `${head} · no output`;
      return `${head}\n<details><summary>Output (last lines)</summary>\n\n${codeBlock(r.tail)}\n\n</details>`;
    });
    sections.push(`${title}\n${lines.join("\n\n")}`);
  }
  return sections;
}

/** The first command that failed, as a terminal reason: `check failed: npm test (exit code 1)`. */
export function commandFailure(results: readonly CommandSummary[]): string | undefined {
  const failed = results.find((r) => !r.ok);
  if (!failed) return undefined;
  const command = failed.command.length > 80 ? `${failed.command.slice(0, 79)}…` : failed.command;
  return `${failed.phase} failed: ${command} (${failed.status})`;
}
