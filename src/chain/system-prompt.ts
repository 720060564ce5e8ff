/**
 * An agent's system prompt as a step sends it. A part written for an agent that lacks a tool —
 * `<!-- without submit_review -->` … `<!-- end without -->`, e.g. the text form of a result — is
 * kept only when that tool is not offered: an agent that has the tool would re-read, every turn,
 * a fallback it never uses. The markers themselves never reach the model.
 */
const WITHOUT_BLOCK = /<!--\s*without ([a-z_]+)\s*-->\n?([\s\S]*?)<!--\s*end without\s*-->\n?/g;

export function systemPromptFor(prompt: string, offered: readonly string[]): string {
  if (!prompt.includes("<!--")) return prompt;
  return prompt.replace(WITHOUT_BLOCK, (_block, tool: string, body: string) => (offered.includes(tool) ? "" : body)).trim();
}
