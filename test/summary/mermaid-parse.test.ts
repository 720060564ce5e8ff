/**
 * The sequence diagrams crewbot writes parse with Mermaid itself: its browser bundle (the
 * `mermaid` devDependency) loaded into Debian's Chromium, headless, and `mermaid.parse` called on
 * each diagram renderDiagram makes — labels with every character that could break the grammar,
 * keywords, arrows, comments, entity codes and random text among them.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDiagram } from "../../src/summary/render-summary.js";
import type { SummaryDiagram } from "../../src/tools/submit-summary.js";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`mermaid test skipped: ${CHROMIUM} is missing (.ci/run installs it with apt-get)`);

const NASTY = [
  "end", "loop", "alt", "else", "opt", "par", "note over", "participant", "actor", "activate", "autonumber", "sequenceDiagram",
  "a;b", "a#35;b", "%% comment", "a:b", "A->>B", "A-->>B", "A-xB", "A--)B", "<b>bold</b>", "x<br/>y", "{curly}", "\"quoted\"",
  "back`tick", "pipe|pipe", "new\nline", "tab\there", "über Straße", "日本語", "emoji 🚀", "trailing -", "- leading", "a - b", "a--b",
  "(x)/[y] 'z' +*=?!@.,_", "  spaces  ", "+", "-", "#", "&amp;", "\\backslash", "$dollar", "^caret", "~tilde",
];

function randomText(seed: number): string {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x);
  const pool = " abcXYZ019;:#%-<>>()[]{}\"'`|\\/&*+=!?@^~.,_\n\té日🚀";
  const chars = [...pool];
  return Array.from({ length: 1 + (next() % 40) }, () => chars[next() % chars.length]).join("");
}

function diagrams(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (name: string, d: SummaryDiagram) => {
    const text = renderDiagram(d);
    if (text) out.push([name, text]);
  };
  add("a plain flow", { participants: ["Webhook handler", "Queue", "Runner"], messages: [{ from: "Webhook handler", to: "Queue", text: "enqueue job" }, { from: "Queue", to: "Runner", text: "claim" }, { from: "Runner", to: "Webhook handler", text: "done", reply: true }] });
  for (const [i, label] of NASTY.entries()) {
    add(`label ${JSON.stringify(label)}`, { participants: [`P ${label}`, label, "Other"], messages: [{ from: label, to: "Other", text: label }, { from: "Other", to: `P ${label}`, text: label, reply: i % 2 === 0 }] });
  }
  for (let seed = 1; seed <= 60; seed += 1) {
    const a = randomText(seed);
    const b = randomText(seed + 1000);
    add(`random ${seed}`, { participants: [`A${a}`, `B${b}`], messages: [{ from: `A${a}`, to: `B${b}`, text: randomText(seed + 2000) }, { from: `B${b}`, to: `A${a}`, text: randomText(seed + 3000), reply: true }] });
  }
  return out;
}

describe.skipIf(!haveChromium)("crewbot's sequence diagrams parse with Mermaid", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    let bundle: string;
    try {
      bundle = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
    } catch {
      throw new Error("mermaid (a devDependency, pinned in package.json) is not installed: run `npm ci`");
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: readFileSync(bundle, "utf8") });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const parse = (texts: string[]) =>
    page.evaluate(async (all) => {
      const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid;
      const results: string[] = [];
      for (const t of all) {
        try {
          await m.parse(t);
          results.push("ok");
        } catch (e) {
          results.push(String((e as Error).message ?? e).slice(0, 200));
        }
      }
      return results;
    }, texts);

  it("the parser itself refuses a broken diagram (so the test can fail)", async () => {
    expect(await parse(["sequenceDiagram\n  participant p1 as a;b\n  p1->>p1: x", "sequenceDiagram\n  p1->>"])).not.toContain("ok");
  });

  it("parses every diagram renderDiagram writes", async () => {
    const all = diagrams();
    expect(all.length).toBeGreaterThan(90);
    const results = await parse(all.map(([, text]) => text));
    const broken = all.flatMap(([name, text], i) => (results[i] === "ok" ? [] : [`${name}: ${results[i]}\n${text}`]));
    expect(broken).toEqual([]);
  });
});
