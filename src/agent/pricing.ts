import { OperatorRows } from "./operator-rows.js";

/** Token counts of one model reply, as the Messages API reports them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}

/** USD per million tokens. Cache writes are the 5-minute kind (1.25 × input), reads 0.1 × input. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

interface ModelInfo {
  price: Price;
  /** Context window in tokens. */
  window: number;
}

const model = (input: number, output: number, window = 200_000): ModelInfo => ({
  price: { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 },
  window,
});

/**
 * Known models by family id (dated snapshots like `claude-sonnet-4-5-20250929` are their family),
 * as Anthropic's model pages list them. A model missing here is priced at the highest known
 * rate and marked as an estimate.
 */
export const MODELS: Record<string, ModelInfo> = {
  "claude-fable-5-2": model(8, 40, 1_000_000),
  "claude-fable-5-1": model(10, 50, 1_000_000),
  "claude-opus-5-5": model(4, 20, 1_000_000),
  "claude-opus-5": model(5, 25, 1_000_000),
  "claude-opus-4-6": model(5, 25, 1_000_000),
  "claude-opus-4-5": model(5, 25),
  "claude-opus-4-1": model(15, 75),
  "claude-opus-4": model(15, 75),
  "claude-opus-4-0": model(15, 75),
  "claude-3-opus": model(15, 75),
  "claude-sonnet-5-5": model(2, 10, 1_000_000),
  "claude-sonnet-5": model(2, 10, 1_000_000),
  "claude-sonnet-4-6": model(3, 15, 1_000_000),
  "claude-sonnet-4-5": model(3, 15),
  "claude-sonnet-4": model(3, 15),
  "claude-sonnet-4-0": model(3, 15),
  "claude-3-7-sonnet": model(3, 15),
  "claude-3-5-sonnet": model(3, 15),
  "claude-haiku-4-5": model(1, 5),
  "claude-3-5-haiku": model(0.8, 4),
  "claude-3-haiku": model(0.25, 1.25),
};

/** The operator's prices (`CREWBOT_PRICES`, prices-file.ts), by model id as written there. */
const operatorPrices = new OperatorRows<Price>();

/**
 * Adds the operator's prices to the table, overriding built-in ones of the same model (a dated
 * id overrides only itself; a family id its snapshots too). Process-wide, set once at start;
 * returns the previous table so tests can put it back.
 */
export function setOperatorPrices(prices: Record<string, Price>): Map<string, Price> {
  return operatorPrices.set(prices);
}

export function restoreOperatorPrices(previous: Map<string, Price>): void {
  operatorPrices.restore(previous);
}

/**
 * The provider's factor on the built-in prices, by model (1 where it charges what Anthropic does;
 * 1.1 on a regional endpoint of the models with a regional premium: providers.ts). Process-wide,
 * set once at start like the operator's prices, which it never changes: those are what the operator pays.
 */
let providerFactor: (model: string) => number = () => 1;

export function setProviderPricing(factor: (model: string) => number): (model: string) => number {
  const previous = providerFactor;
  providerFactor = factor;
  return previous;
}

const scaled = (p: Price, factor: number): Price =>
  factor === 1 ? p : { input: p.input * factor, output: p.output * factor, cacheWrite: p.cacheWrite * factor, cacheRead: p.cacheRead * factor };

/** The dearest known rate, field by field (the operator's included): an unknown model never makes a budget fail open. */
function highest(): Price {
  return [...Object.values(MODELS).map((m) => m.price), ...operatorPrices.values()].reduce((a, b) => ({
    input: Math.max(a.input, b.input),
    output: Math.max(a.output, b.output),
    cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
  }));
}

/** `claude-sonnet-4-5-20250929`, `claude-sonnet-4-5@20250929`, `claude-sonnet-4-5-latest` → the family id. */
export function modelFamily(model: string): string {
  return model
    .toLowerCase()
    .trim()
    .replace(/\[1m\]$/, "")
    .replace(/(?:-\d{8}|@\d{8}|-latest)$/, "");
}

export function priceOf(model: string): { price: Price; estimate: boolean } {
  const family = modelFamily(model);
  const operator = operatorPrices.get(model) ?? operatorPrices.get(family);
  if (operator) return { price: operator, estimate: false };
  const builtIn = MODELS[family]?.price;
  return builtIn ? { price: scaled(builtIn, providerFactor(model)), estimate: false } : { price: scaled(highest(), providerFactor(model)), estimate: true };
}

/** True when the model has a price (built in or the operator's). */
export const isPriced = (model: string): boolean => !priceOf(model).estimate;

export function costOf(model: string, usage: Usage): { usd: number; estimate: boolean } {
  const { price: p, estimate } = priceOf(model);
  const usd =
    (usage.input * p.input +
      usage.output * p.output +
      usage.cacheWrite * p.cacheWrite +
      usage.cacheRead * p.cacheRead) /
    1_000_000;
  return { usd, estimate };
}

/** Context window per model; an unknown model is assumed to have the common 200k. */
export function contextWindowOf(model: string): number {
  return MODELS[modelFamily(model)]?.window ?? 200_000;
}
