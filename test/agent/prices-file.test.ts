/** CREWBOT_PRICES: the operator's price file, its errors, and what it does to pricing. */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyModelSettings } from "../../src/agent/model-settings.js";
import { loadPrices, parsePrices } from "../../src/agent/prices-file.js";
import { costOf, priceOf, restoreOperatorPrices, setOperatorPrices } from "../../src/agent/pricing.js";

let restore: ReturnType<typeof setOperatorPrices> | undefined;
afterEach(() => {
  if (restore) restoreOperatorPrices(restore);
  restore = undefined;
});

async function file(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-prices-"));
  const at = path.join(dir, name);
  await writeFile(at, text);
  return at;
}

describe("parsePrices", () => {
  it("reads YAML, defaulting cache prices to 1.25× and 0.1× input", () => {
    expect(parsePrices("my-model: { input: 3, output: 15 }\nother: { input: 1, output: 2, cacheWrite: 9, cacheRead: 0 }\n", "p.yml")).toEqual({
      "my-model": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
      other: { input: 1, output: 2, cacheWrite: 9, cacheRead: 0 },
    });
  });

  it("reads JSON", () => {
    expect(parsePrices('{"m": {"input": 2, "output": 10}}', "p.json")).toEqual({ m: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 } });
  });

  it("an empty file adds nothing", () => expect(parsePrices("", "p.yml")).toEqual({}));

  it.each([
    ["a missing output", "m: { input: 3 }", "CREWBOT_PRICES (p.yml): m.output: must be a number of USD per million tokens"],
    ["a negative price", "m: { input: -1, output: 2 }", "CREWBOT_PRICES (p.yml): m.input: must not be negative"],
    ["a price as text", "m: { input: '3', output: 2 }", "CREWBOT_PRICES (p.yml): m.input: must be a number of USD per million tokens"],
    ["an unknown key", "m: { input: 1, output: 2, cache_read: 0.1 }", "CREWBOT_PRICES (p.yml): m.cache_read: unknown key (known: input, output, cacheWrite, cacheRead)"],
    ["a model that is not a mapping", "m: 3", "CREWBOT_PRICES (p.yml): m: must be a mapping with input and output"],
    ["a list at the top", "- m", "CREWBOT_PRICES (p.yml): (top level): must be a mapping of model ids to prices"],
    ["broken YAML", "m: { input: 1", "CREWBOT_PRICES (p.yml): not valid YAML or JSON"],
  ])("refuses %s, naming the file and the key", (_name, text, message) => {
    expect(() => parsePrices(text, "p.yml")).toThrow(message);
  });
});

describe("loadPrices / applyModelSettings", () => {
  it("is nothing when unset", () => expect(loadPrices({})).toBeUndefined());

  it("reads the first look's model, and stops on one that is no model id, naming the variable", () => {
    expect(applyModelSettings({ CREWBOT_FIRST_LOOK_MODEL: " claude-haiku-4-5 " })).toMatchObject({ firstLookModel: "claude-haiku-4-5" });
    expect(applyModelSettings({ CREWBOT_FIRST_LOOK_MODEL: "" })).not.toHaveProperty("firstLookModel");
    expect(() => applyModelSettings({ CREWBOT_FIRST_LOOK_MODEL: "haiku please; rm -rf /" })).toThrow('CREWBOT_FIRST_LOOK_MODEL must be a model id such as claude-haiku-4-5; got "haiku please; rm -rf /"');
  });

  it("names a file that cannot be read", () => {
    expect(() => loadPrices({ CREWBOT_PRICES: "/nonexistent/prices.yml" })).toThrow("CREWBOT_PRICES (/nonexistent/prices.yml): cannot be read (ENOENT)");
  });

  it("installs a good file: an added model is priced, a built-in one overridden, the fallback stays the dearest", async () => {
    restore = setOperatorPrices({});
    const at = await file("prices.yml", "proxy-model: { input: 100, output: 500 }\nclaude-haiku-4-5: { input: 2, output: 6 }\n");
    const settings = applyModelSettings({ CREWBOT_PRICES: at, CREWBOT_MODEL_RETRY_MINUTES: "3" });
    expect(settings).toEqual({ provider: "anthropic", retry: { maxMs: 180_000 }, pricedModels: 2 });

    expect(priceOf("proxy-model")).toEqual({ price: { input: 100, output: 500, cacheWrite: 125, cacheRead: 10 }, estimate: false });
    expect(priceOf("claude-haiku-4-5-20251001").price.input).toBe(2); // a family override covers its snapshots
    expect(costOf("claude-haiku-4-5", { input: 1_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0 }).usd).toBe(8);
    // An unknown model is priced at the dearest rate, the operator's included: a budget never fails open.
    expect(priceOf("mystery-model")).toMatchObject({ price: { input: 100, output: 500 }, estimate: true });
  });

  it("stops on a bad file, naming the file and the key", async () => {
    const at = await file("prices.json", '{"m": {"input": 1, "ouput": 2}}');
    expect(() => applyModelSettings({ CREWBOT_PRICES: at })).toThrow(`CREWBOT_PRICES (${at}): m.ouput: unknown key`);
  });

  it("stops on a bad CREWBOT_MODEL_RETRY_MINUTES", () => {
    expect(() => applyModelSettings({ CREWBOT_MODEL_RETRY_MINUTES: "soon" })).toThrow('CREWBOT_MODEL_RETRY_MINUTES must be a number of minutes, 0 or more, got "soon"');
  });
});
