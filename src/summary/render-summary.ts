/**
 * The summary block crewbot keeps in a pull request's description (DESIGN §2): rendered from the
 * describer's `submit_summary`, model text made safe, the sequence diagram written by crewbot from
 * participants and messages so that it always parses. The block carries a hash of what crewbot
 * wrote inside it, so a later run can tell a hand edit (summary/body-block.ts).
 */
import { createHash } from "node:crypto";
import { safeBlock, safeInline } from "../text/github-markdown.js";
import type { SummaryDiagram, SummarySubmission } from "../tools/submit-summary.js";

export const SUMMARY_START = "<!-- crewbot:summary:start -->";
export const SUMMARY_END = "<!-- crewbot:summary:end -->";
const HASH_LINE = /^<!-- crewbot:summary:sha256=([0-9a-f]{64}) -->$/;

/** What the hash covers: the block's content, line endings and outer blank lines aside (a browser edit turns \n into \r\n). */
export const normaliseContent = (content: string): string => content.replace(/\r\n?/g, "\n").trim();

export const contentHash = (content: string): string => createHash("sha256").update(normaliseContent(content)).digest("hex");

/** The hash line written inside a block, when `line` is one. */
export const hashOfLine = (line: string): string | undefined => HASH_LINE.exec(line.trim())?.[1];

/** A walkthrough cell: one line, no pipe that would end the cell. */
const cell = (text: string, max: number) => safeInline(text.replace(/\s*\n\s*/g, " "), max).replace(/\|/g, "\\|");

/** A diagram label: letters, digits and punctuation Mermaid's sequence grammar reads as text (not `;`, `#`, `%`, `:`, `<`, `>`, nor a hyphen that is not inside a word, which could start an arrow). */
export function diagramLabel(text: string, max = 60): string {
  const plain = text.replace(/[^\p{L}\p{N} .,_()/'+*=?!@[\]-]/gu, " ").replace(/(?<![\p{L}\p{N}])-|-(?![\p{L}\p{N}])/gu, " ").replace(/\s+/g, " ").trim();
  return plain.slice(0, max).trim();
}

/**
 * The diagram as Mermaid, or undefined when it is not a sequence crewbot can draw: fewer than two
 * participants with a label left, or a message from or to one not listed. Participants get
 * ids of crewbot's own (`p1`…) and the model's names only as aliases.
 */
export function renderDiagram(diagram: SummaryDiagram): string | undefined {
  const ids = new Map<string, string>();
  const lines = ["sequenceDiagram"];
  for (const name of diagram.participants) {
    const label = diagramLabel(name);
    if (label === "" || ids.has(name)) continue;
    const id = `p${ids.size + 1}`;
    ids.set(name, id);
    lines.push(`  participant ${id} as ${label}`);
  }
  if (ids.size < 2 || diagram.messages.length === 0) return undefined;
  for (const m of diagram.messages) {
    const from = ids.get(m.from);
    const to = ids.get(m.to);
    if (!from || !to) return undefined;
    lines.push(`  ${from}${m.reply ? "-->>" : "->>"}${to}: ${diagramLabel(m.text, 120) || "…"}`);
  }
  return lines.join("\n");
}

export interface SummaryFacts {
  /** The head the summary describes. */
  headSha: string;
  /**
   * The writer's redaction (`GitHubWriter.redacted`), applied before the hash is taken: the block
   * is sent as hashed, so crewbot knows it as its own next time.
   */
  clean?: (text: string) => string;
}

/** The content between the hash line and the end marker. */
export function renderSummaryContent(summary: SummarySubmission, facts: SummaryFacts): string {
  const parts = ["### Summary", safeBlock(summary.what.trim())];
  const rows = summary.walkthrough.map((r) => `| ${cell(r.files, 200)} | ${cell(r.change, 400)} |`);
  parts.push(["| Files | What changed |", "|---|---|", ...rows].join("\n"));
  parts.push(`**Effort:** ${summary.effort}/5 · ${cell(summary.effortReason, 200)}`);
  const risks = summary.risks.map((r) => `- ${cell(r, 400)}`);
  parts.push(risks.length > 0 ? `**Risks worth a reviewer's look**\n${risks.join("\n")}` : "**Risks worth a reviewer's look:** none stands out.");
  const diagram = summary.diagram && renderDiagram(summary.diagram);
  if (diagram) parts.push(["```mermaid", diagram, "```"].join("\n"));
  parts.push(`<sub>Written by crewbot for ${facts.headSha.slice(0, 7)}; refreshed by \`/describe\`. Edit inside this block and crewbot leaves it as it is.</sub>`);
  return parts.join("\n\n");
}

/** The whole block, markers and hash included. */
export function renderSummaryBlock(summary: SummarySubmission, facts: SummaryFacts): string {
  const content = (facts.clean ?? ((text: string) => text))(renderSummaryContent(summary, facts));
  return [SUMMARY_START, `<!-- crewbot:summary:sha256=${contentHash(content)} -->`, content, SUMMARY_END].join("\n");
}
