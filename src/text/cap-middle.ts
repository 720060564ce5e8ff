/**
 * Plain text cut to a length from its middle, for what crewbot stores and what agents read (a
 * description, a comment, a check's output): its start and its end both say the most. Markdown
 * that GitHub renders is cut by `text/github-markdown.ts`'s `cutMiddle`, which keeps fences, comments
 * and lines whole. Imports nothing of crewbot's.
 */

/** Text over `max` keeps its start and end, with a note for what was left out in between. */
export function capMiddle(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 100) / 2);
  return `${text.slice(0, half)}\n\n[… ${(text.length - 2 * half).toLocaleString("en")} characters ${what} left out for length …]\n\n${text.slice(-half)}`;
}
