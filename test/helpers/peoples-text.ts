/**
 * Text people wrote that crewbot re-sends (a description, a file, a path), shaped to catch a writer
 * that redacts or cuts it: token shapes of every kind the redactor knows, a private-key BEGIN line
 * with no END (the pattern that once ran to the end of the text), and a closing reference after them.
 */

/** Token shapes people may paste (examples, fixtures, docs): theirs, never rewritten. */
export const TOKEN_SHAPES = [
  `ghp_${"A1b2".repeat(9)}`,
  `github_pat_${"Z9y8".repeat(6)}`,
  "AKIAIOSFODNN7EXAMPLE",
  `sk-ant-api03-${"x".repeat(20)}`,
  `npm_${"n".repeat(36)}`,
  `xoxb-${"1".repeat(12)}`,
  "Authorization: Bearer abcdefghijklmnop1234",
];

export const BEGIN_WITHOUT_END = "-----BEGIN OPENSSH PRIVATE KEY-----";

/** A description's or file's lines as a person wrote them. */
export const PEOPLES_LINES = [
  "## Testing",
  `The fixture starts with \`${BEGIN_WITHOUT_END}\` and is cut there on purpose.`,
  ...TOKEN_SHAPES.map((shape) => `- sample: ${shape}`),
  "",
  "Closes #12",
];

export const PEOPLES_TEXT = PEOPLES_LINES.join("\n");

/** `text` after a paragraph of notes that brings it to `size` characters (a body near GitHub's limit); it still ends with `text`. */
export function paddedTo(text: string, size: number): string {
  const room = size - text.length - 2;
  return room <= 0 ? text : `${"Notes: lorem ipsum dolor. ".repeat(Math.ceil(room / 26)).slice(0, room)}\n\n${text}`;
}
