/**
 * Making model text safe to embed in a comment crewbot posts: no pings, no HTML that could hide
 * or fake parts of the comment (the job marker, the approval box), no fence that swallows the
 * rest, and a size that fits GitHub's limit.
 */

const ZWSP = "\u200B";

/** GitHub rejects comment bodies over 65,536 characters; the margin covers fix-ups after a cut. */
export const GITHUB_BODY_LIMIT = 65_536;
export const COMMENT_LIMIT = 65_000;

/**
 * `@name` → `@\u200Bname`, everywhere, code included: GitHub mentions at `@` after a non-word
 * character, and an invisible break is cheaper than being wrong about what is code. HTML entities
 * for `@` are broken the same way (GitHub decodes them before it looks for mentions).
 */
export function neutraliseMentions(text: string): string {
  return text
    .replace(/&(?:#0*64|#x0*40|commat);/gi, `@${ZWSP}`)
    .replace(/(?<!\w)@(?=[A-Za-z0-9])/g, `@${ZWSP}`);
}

/** Splits one line into code spans and plain text, per CommonMark's backtick-run rule. */
export function splitCodeSpans(line: string): Array<{ code: boolean; text: string }> {
  const parts: Array<{ code: boolean; text: string }> = [];
  let plain = "";
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === "\\" && i + 1 < line.length) {
      plain += line.slice(i, i + 2); // an escaped backtick opens nothing
      i += 2;
      continue;
    }
    if (ch !== "`") {
      plain += ch;
      i += 1;
      continue;
    }
    let run = 1;
    while (line[i + run] === "`") run += 1;
    const closer = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, "g");
    closer.lastIndex = i + run;
    const close = closer.exec(line);
    if (!close) {
      plain += line.slice(i, i + run);
      i += run;
      continue;
    }
    if (plain) parts.push({ code: false, text: plain });
    plain = "";
    parts.push({ code: true, text: line.slice(i, close.index + run) });
    i = close.index + run;
  }
  if (plain) parts.push({ code: false, text: plain });
  return parts;
}

/** Outside code, `<tag`, `</tag`, `<!--`, `<?` become literal text; autolinks stay. */
function escapeHtml(plain: string): string {
  return plain.replace(/<(?=[A-Za-z!?/])(?!https?:\/\/)/g, "&lt;");
}

/** A comment opener inside code is still raw text in the body: break it so no marker can be faked. */
const breakCommentOpeners = (text: string) => text.replace(/<!--/g, `<!-${ZWSP}-`);

/** One line of model text, outside any fence. */
export function safeLine(line: string): string {
  const out = splitCodeSpans(line)
    .map((part) => (part.code ? breakCommentOpeners(part.text) : escapeHtml(part.text)))
    .join("");
  return neutraliseMentions(out);
}

/** Text for a single-line slot (a reason, a tool summary): whitespace collapsed, capped. */
export function safeInline(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return safeLine(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** `text` as inline code whatever backticks it holds (the delimiter is longer than any run inside). */
export function codeSpan(text: string, max = 200): string {
  let flat = text.replace(/\s+/g, " ").trim();
  if (flat.length > max) flat = `${flat.slice(0, max - 1)}…`;
  flat = neutraliseMentions(breakCommentOpeners(flat));
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** A task-list box, also in a quote or a nested list on the same line (`> - [ ]`, `- * [x]`). */
const TASK_BOX = /^((?:[ \t]*(?:>[ \t]?|(?:[-+*]|\d{1,9}[.)])[ \t]+))+)\[([ xX])\]/;

/**
 * Which lines are fence markers or inside a fence. An opener that never closes is escaped
 * (mutating `lines`) instead of swallowing everything after it: appending a closer could open a
 * new fence when the unclosed one sat inside a list item. One pass: the longest closer of each
 * character still to come says at once whether an opener closes.
 */
function settleFences(lines: string[]): boolean[] {
  const fences = lines.map((line) => FENCE.exec(line));
  // From line i on, the longest closer (a fence with no info) of backticks and of tildes.
  const closers: Array<{ "`": number; "~": number }> = new Array(lines.length + 1);
  closers[lines.length] = { "`": 0, "~": 0 };
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = fences[i];
    const longest = { ...closers[i + 1]! };
    if (m && m[3]!.trim() === "") longest[m[2]![0] as "`" | "~"] = Math.max(longest[m[2]![0] as "`" | "~"], m[2]!.length);
    closers[i] = longest;
  }
  const inFence: boolean[] = [];
  let open: { char: string; len: number } | undefined;
  for (const [index, m] of fences.entries()) {
    if (open) {
      inFence.push(true);
      if (m && m[2]![0] === open.char && m[2]!.length >= open.len && m[3]!.trim() === "") open = undefined;
    } else if (m && !(m[2]![0] === "`" && m[3]!.includes("`"))) {
      const char = m[2]![0] as "`" | "~";
      if (closers[index + 1]![char] >= m[2]!.length) {
        inFence.push(true);
        open = { char, len: m[2]!.length };
      } else {
        lines[index] = lines[index]!.replace(/^( {0,3})([`~])/, "$1\\$2");
        inFence.push(false);
      }
    } else inFence.push(false);
  }
  return inFence;
}

/**
 * A block of model markdown (goal, risks, notes): mentions and HTML neutralised outside code,
 * task-list boxes made plain text (only crewbot's own boxes may be ticked), unclosed fences escaped.
 */
export function safeBlock(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const inFence = settleFences(lines);
  return lines
    .map((line, i) =>
      inFence[i] ? neutraliseMentions(breakCommentOpeners(line)) : safeLine(line.replace(TASK_BOX, "$1\\[$2]")),
    )
    .join("\n");
}

/** Keeps a surrogate pair whole at a cut. */
function cleanCut(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

/**
 * Shortens `text` to at most `max` characters by removing its middle (whole lines when it can)
 * and putting `note(cut)` there as a paragraph of its own.
 */
export function cutMiddle(text: string, max: number, note: (cutChars: number) => string): string {
  if (text.length <= max) return text;
  const noteText = note(text.length); // the longest the note gets
  const budget = Math.max(0, max - noteText.length - 4);
  const headBudget = Math.ceil(budget / 2);
  const tailBudget = budget - headBudget;
  let head = text.slice(0, cleanCut(text, headBudget));
  let tail = tailBudget > 0 ? text.slice(text.length - tailBudget) : "";
  // Back off to line boundaries when that loses little: a cut inside a line can break markdown.
  const headNl = head.lastIndexOf("\n");
  if (headNl >= headBudget / 2) head = head.slice(0, headNl);
  const tailNl = tail.indexOf("\n");
  if (tailNl >= 0 && tailNl <= tailBudget / 2) tail = tail.slice(tailNl + 1);
  else if (tail && (tail.charCodeAt(0) & 0xfc00) === 0xdc00) tail = tail.slice(1);
  // Half an HTML comment would hide everything after it, the note included.
  const opened = head.lastIndexOf("<!--");
  if (opened > head.lastIndexOf("-->")) head = head.slice(0, opened);
  const cut = text.length - head.length - tail.length;
  // Blank lines around the note: its own paragraph, not a lazy continuation of a list item.
  const lines = [head, note(cut), tail].filter((part) => part !== "").join("\n\n").split("\n");
  settleFences(lines); // the cut may have removed a closer or an opener
  return lines.join("\n");
}

/** `text` as a fenced code block that nothing inside can close early; pings and markers broken. */
export function codeBlock(text: string): string {
  const body = neutraliseMentions(breakCommentOpeners(text.replace(/\r\n?/g, "\n")));
  // A loop, not Math.max(...fences): a long text has more fence lines than a call's arguments can hold.
  let longest = 0;
  for (const run of body.matchAll(/^ {0,3}`{3,}/gm)) longest = Math.max(longest, run[0].trim().length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body}\n${fence}`;
}
