/**
 * GitHub-flavoured markdown → HTML for the README's screenshots: the subset crewbot's bodies use
 * (headings, paragraphs with GitHub's hard line breaks, lists with task boxes and indented
 * continuations, fences — a review's ```suggestion shown as GitHub shows it — code spans, bold,
 * italics, links, entities, backslash escapes, `<details>`/`<summary>`, hidden `<!-- -->`). No
 * markdown library is among the project's dependencies, and this renders only our own bodies.
 * Anything else it cannot render throws, so a new construct in a body is seen, not mis-drawn.
 */

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])( +)(.*)$/;
const ALLOWED_TAGS = /^<\/?(details|summary|br|sub|sup|kbd)>/i;

export interface RenderOptions {
  /** A ```suggestion block's original lines (GitHub shows them struck out above the new ones). */
  suggestionOriginal?: readonly string[];
}

/** The matching `]` of the `[` at `start`, skipping code spans and nested brackets; -1 if none. */
function closingBracket(s: string, start: number): number {
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") i++;
    else if (c === "`") {
      const run = /^`+/.exec(s.slice(i))![0];
      const close = s.indexOf(run, i + run.length);
      if (close !== -1) i = close + run.length - 1;
    } else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  return -1;
}

export function inline(s: string): string {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    const rest = s.slice(i);
    if (c === "\\" && /^[!-/:-@[-`{-~]$/.test(s[i + 1] ?? "")) {
      out += esc(s[i + 1]!);
      i += 2;
    } else if (c === "`") {
      const run = /^`+/.exec(rest)![0];
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, "g");
      close.lastIndex = i + run.length;
      const m = close.exec(s);
      if (!m) {
        out += esc(run);
        i += run.length;
        continue;
      }
      let code = s.slice(i + run.length, m.index);
      if (/^ .*[^ ].* $/.test(code)) code = code.slice(1, -1);
      out += `<code>${esc(code)}</code>`;
      i = m.index + run.length;
    } else if (c === "[") {
      const end = closingBracket(s, i);
      const target = end === -1 ? null : /^\(([^()\s]+)\)/.exec(s.slice(end + 1));
      if (!target) {
        out += "[";
        i++;
        continue;
      }
      out += `<a href="${esc(target[1]!)}">${inline(s.slice(i + 1, end))}</a>`;
      i = end + 1 + target[0].length;
    } else if (rest.startsWith("**") && rest.indexOf("**", 2) > 2) {
      const end = rest.indexOf("**", 2);
      out += `<strong>${inline(rest.slice(2, end))}</strong>`;
      i += end + 2;
    } else if (c === "_" && !/\w/.test(s[i - 1] ?? "") && /^_[^_\s][^_]*?_(?!\w)/.test(rest)) {
      const m = /^_([^_\s][^_]*?)_(?!\w)/.exec(rest)!;
      out += `<em>${inline(m[1]!)}</em>`;
      i += m[0].length;
    } else if (c === "&" && /^&(#\d+|#x[\da-f]+|[a-z]+);/i.test(rest)) {
      const entity = /^&(#\d+|#x[\da-f]+|[a-z]+);/i.exec(rest)![0];
      out += entity;
      i += entity.length;
    } else if (rest.startsWith("<!--")) {
      const end = s.indexOf("-->", i);
      i = end === -1 ? s.length : end + 3;
    } else if (c === "<" && ALLOWED_TAGS.test(rest)) {
      const tag = ALLOWED_TAGS.exec(rest)![0];
      out += tag;
      i += tag.length;
    } else {
      out += esc(c);
      i++;
    }
  }
  return out;
}

function fenced(info: string, body: string[], options: RenderOptions): string {
  if (info !== "suggestion") return `<pre><code>${esc(body.join("\n"))}</code></pre>`;
  const old = (options.suggestionOriginal ?? []).map((l) => `<div class="del">${esc(l) || " "}</div>`);
  const added = body.map((l) => `<div class="add">${esc(l) || " "}</div>`);
  return `<div class="suggestion"><div class="suggestion-head">Suggested change</div><pre>${[...old, ...added].join("")}</pre><div class="suggestion-foot"><button>Commit suggestion</button><button>Add suggestion to batch</button></div></div>`;
}

/** The lines of one list item: its first line's text, then continuations less its indent. */
function itemLines(lines: string[], at: number, contentIndent: number): { body: string[]; next: number } {
  const body = [ITEM.exec(lines[at]!)![4]!];
  let i = at + 1;
  while (i < lines.length) {
    const line = lines[i]!;
    const indent = /^ */.exec(line)![0].length;
    if (line.trim() === "") {
      const following = lines.slice(i + 1).find((l) => l.trim() !== "");
      if (following === undefined || /^ */.exec(following)![0].length < contentIndent) break;
      body.push("");
    } else if (indent >= contentIndent) body.push(line.slice(contentIndent));
    else if (ITEM.test(line) || FENCE.test(line) || HEADING.test(line) || body.at(-1) === "") break;
    else body.push(line); // a lazy continuation of the item's paragraph
    i++;
  }
  return { body, next: i };
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if (line.trim() === "") i++;
    else if (/^\s*<!--/.test(line)) {
      while (i < lines.length && !lines[i]!.includes("-->")) i++;
      i++;
    } else if ((m = FENCE.exec(line))) {
      const fence = m[2]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[i]!)) body.push(lines[i++]!);
      i++;
      out.push(fenced(m[3]!, body, options));
    } else if ((m = HEADING.exec(line))) {
      out.push(`<h${m[1]!.length}>${inline(m[2]!)}</h${m[1]!.length}>`);
      i++;
    } else if ((m = /^<details>(?:<summary>(.*)<\/summary>)?$/.exec(line.trim()))) {
      out.push(`<details>${m[1] !== undefined ? `<summary>${inline(m[1])}</summary>` : ""}`);
      i++;
    } else if (line.trim() === "</details>") {
      out.push("</details>");
      i++;
    } else if ((m = ITEM.exec(line))) {
      const ordered = /\d/.test(m[2]!);
      const items: string[] = [];
      while (i < lines.length && (m = ITEM.exec(lines[i]!)) && m[1]!.length === 0) {
        const { body, next } = itemLines(lines, i, m[1]!.length + m[2]!.length + m[3]!.length);
        const box = /^\[([ xX])\] /.exec(body[0]!);
        if (box) body[0] = body[0]!.slice(4);
        const inner = renderMarkdown(body.join("\n"), options).replace(/^<p>([\s\S]*?)<\/p>$/, "$1");
        items.push(box ? `<li class="task"><input type="checkbox" disabled${box[1] === " " ? "" : " checked"}> ${inner}</li>` : `<li>${inner}</li>`);
        i = next;
        while (i < lines.length && lines[i]!.trim() === "" && ITEM.test(lines[i + 1] ?? "")) i++;
      }
      out.push(ordered ? `<ol>${items.join("")}</ol>` : `<ul>${items.join("")}</ul>`);
    } else if (/^ {0,3}(\||>|={3,}|-{3,}$|\*{3,}$)/.test(line)) {
      throw new Error(`github-markdown: no rendering for this line yet: ${JSON.stringify(line)}`);
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== "" && !FENCE.test(lines[i]!) && !HEADING.test(lines[i]!) && !ITEM.test(lines[i]!) && !/^\s*<(details|\/details|!--)/.test(lines[i]!)) {
        para.push(inline(lines[i++]!.trim()));
      }
      out.push(`<p>${para.join("<br>")}</p>`);
    }
  }
  return out.join("\n");
}

/** GitHub's light theme, as far as these bodies need it. */
export const GITHUB_CSS = `
* { box-sizing: border-box; }
body { margin: 0; padding: 16px; background: #fff; color: #1f2328; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", "Liberation Sans", "DejaVu Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji"; }
.comment { border: 1px solid #d0d7de; border-radius: 6px; margin-bottom: 16px; }
.comment-head { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px; border-radius: 6px 6px 0 0; color: #59636e; display: flex; align-items: center; gap: 8px; }
.comment-head b { color: #1f2328; }
.avatar { width: 20px; height: 20px; border-radius: 4px; background: linear-gradient(135deg, #2da44e, #0969da); display: inline-block; }
.label { border: 1px solid #d0d7de; border-radius: 2em; padding: 0 7px; font-size: 12px; font-weight: 500; }
.markdown { padding: 16px; }
.markdown > :first-child { margin-top: 0; } .markdown > :last-child { margin-bottom: 0; }
h1, h2, h3, h4 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h2 { font-size: 1.5em; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0b3; }
h3 { font-size: 1.25em; } h4 { font-size: 1em; }
p, ul, ol, pre, details { margin: 0 0 16px; }
ul, ol { padding-left: 2em; } li + li { margin-top: .25em; } li > p { margin-top: 16px; }
li.task { list-style: none; margin-left: -1.6em; } li.task input { margin: 0 .2em .25em 0; vertical-align: middle; }
a { color: #0969da; text-decoration: none; }
code { font: 85% ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; background: #818b981f; padding: .2em .4em; border-radius: 6px; }
pre { font: 85% ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; background: #f6f8fa; padding: 16px; border-radius: 6px; overflow: auto; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 100%; }
summary { cursor: pointer; }
.suggestion { border: 1px solid #d0d7de; border-radius: 6px; margin-bottom: 16px; }
.suggestion-head { background: #f6f8fa; padding: 6px 12px; border-bottom: 1px solid #d0d7de; font-size: 12px; font-weight: 600; }
.suggestion pre { margin: 0; padding: 0; border-radius: 0; background: #fff; }
.suggestion-foot { padding: 8px 12px; border-top: 1px solid #d0d7de; display: flex; justify-content: flex-end; gap: 8px; }
button { font: 12px/20px inherit; font-family: inherit; border: 1px solid #d0d7de; border-radius: 6px; background: #f6f8fa; padding: 3px 12px; }
.add, .del, .ctx { padding: 0 10px; white-space: pre; }
.add { background: #dafbe1; } .del { background: #ffebe9; }
.hunk { border: 1px solid #d0d7de; border-radius: 6px 6px 0 0; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
.hunk-path { background: #f6f8fa; padding: 8px 12px; border-bottom: 1px solid #d0d7de; font-weight: 600; }
.hunk .row { display: flex; white-space: pre; line-height: 20px; } .hunk .num { width: 44px; color: #59636e; text-align: right; padding-right: 10px; flex: none; }
.hunk .row.add { background: #dafbe1; } .hunk .row.del { background: #ffebe9; } .hunk .row.ctx { background: #fff; }
.thread { border: 1px solid #d0d7de; border-top: 0; border-radius: 0 0 6px 6px; margin-bottom: 16px; }
.review-event { color: #59636e; margin: 0 0 8px; display: flex; align-items: center; gap: 8px; }
`;
