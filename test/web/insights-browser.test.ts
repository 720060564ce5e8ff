/**
 * The insights pages in a real browser (Debian's Chromium, headless, driven by playwright-core, as
 * browser.test.ts): sign in, find the repository in the list, open its charts — drawn, with no
 * console error and no CSP refusal — and be refused a repository the person cannot read. Saves
 * test-results/insights-list.png, insights.png and insights-phone.png; `UPDATE_SCREENSHOTS=1` also writes docs/images/insights.png, the
 * picture docs/usage.md shows.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeInsights } from "../helpers/fake-insights.js";
import { startWebFixture, type WebFixture } from "./fixture.js";
import { CHROMIUM, haveChromium, launchChromium, type Chromium } from "../helpers/chromium.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCS_PICTURE = path.join(ROOT, "docs/images/insights.png");
const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
if (!haveChromium) console.warn(`insights browser test skipped: ${CHROMIUM} is missing (.ci/run installs it with apt-get)`);

/** Sunday 6 December 2026: the picture shows the same weeks whenever it is taken. */
const NOW = Date.UTC(2026, 11, 6, 21);

/** What the page complained of: console errors (a CSP refusal is one) and uncaught exceptions. */
function complaints(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (msg) => {
    // The browser's own favicon request is the stand-in server's 404, not the page's.
    if (msg.location().url.endsWith("/favicon.ico")) return;
    if (msg.type() === "error" || msg.type() === "warning") seen.push(`${msg.type()}: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => seen.push(`pageerror: ${err.message}`));
  return seen;
}

describe.skipIf(!haveChromium)("the insights pages in Chromium", () => {
  let fx: WebFixture;
  let context: BrowserContext;
  let browser: Chromium | undefined;

  beforeAll(async () => {
    fx = await startWebFixture({ readable: ["acme/widgets", "acme/gadgets"], insights: new FakeInsights(["acme/widgets", "acme/gadgets", "acme/secret"]), now: () => NOW });
    browser = await launchChromium();
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("signs in, lists the readable repositories and draws one's charts, with nothing refused by the page's CSP", async () => {
    const page = await context.newPage();
    const problems = complaints(page);
    await page.goto(`${fx.url}/insights`);
    await page.waitForURL(`${fx.url}/insights`);
    expect(await page.locator("tr[data-repo]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-repo")))).toEqual(["acme/gadgets", "acme/widgets"]);
    expect(await page.textContent("body")).not.toContain("secret");
    await mkdir(path.resolve("test-results"), { recursive: true });
    await page.screenshot({ path: path.resolve("test-results/insights-list.png"), fullPage: true });

    await page.getByRole("link", { name: "acme/widgets" }).click();
    await page.waitForURL(`${fx.url}/insights/acme/widgets`);
    const plots = page.locator("figure.chart svg.plot");
    expect(await plots.count()).toBe(6);
    for (const box of await plots.evaluateAll((svgs) => svgs.map((s) => { const r = s.getBoundingClientRect(); return { width: r.width, height: r.height }; }))) {
      expect(box.width).toBeGreaterThan(300);
      expect(box.height).toBeGreaterThan(120);
    }
    // Lines and bars are drawn with a size of their own, not merely present in the markup.
    const drawn = await page.evaluate(`(() => {
      const size = (sel) => [...document.querySelectorAll(sel)].map((el) => el.getBBox()).filter((b) => b.width > 0 || b.height > 0).length;
      return { lines: size("path.line"), bars: size("rect.bar"), dots: size("circle") };
    })()`) as { lines: number; bars: number; dots: number };
    expect(drawn.lines).toBeGreaterThanOrEqual(5);
    expect(drawn.bars).toBeGreaterThan(30);
    expect(drawn.dots).toBeGreaterThan(20);
    expect(await page.locator("figure.chart h2").allTextContents()).toEqual(["Resolution rate", "Dismissal rate", "Reviews and findings", "Cost by job kind", "Time to first review (median)", "Jobs by outcome"]);

    // The numbers behind a chart, one click away.
    const table = page.locator('figure[data-chart="cost"] details table');
    expect(await table.isVisible()).toBe(false);
    await page.locator('figure[data-chart="cost"] details summary').click();
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator("tbody tr").count()).toBe(12);
    await page.locator('figure[data-chart="cost"] details summary').click();

    await page.screenshot({ path: path.resolve("test-results/insights.png"), fullPage: true });
    if (UPDATE) await page.screenshot({ path: DOCS_PICTURE, fullPage: true });

    // Readable on a phone: the charts shrink to the screen, nothing wider than it.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")).toBe(true);
    await page.screenshot({ path: path.resolve("test-results/insights-phone.png") });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows nothing of a repository the person cannot read", async () => {
    const page = await context.newPage();
    const res = await page.goto(`${fx.url}/insights/acme/secret`);
    expect(res?.status()).toBe(404);
    const text = (await page.textContent("body"))!;
    expect(text).toContain("Not found");
    expect(text).not.toContain("secret");
    expect(await page.locator("svg.plot").count()).toBe(0);
    await page.close();
  });
});

describe("the insights picture", () => {
  it("is in docs/images and shown by docs/usage.md", async () => {
    const usage = await readFile(path.join(ROOT, "docs/usage.md"), "utf8");
    expect(usage).toContain("images/insights.png");
    expect(existsSync(DOCS_PICTURE), "docs/images/insights.png is missing: UPDATE_SCREENSHOTS=1 npx vitest run test/web/insights-browser.test.ts").toBe(true);
  });
});
