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

const price = (input: number, output: number): Price => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input * 0.1,
});

/** Known models by name prefix (dated ids like `claude-sonnet-4-5-20250929` match their family). */
export const PRICES: Record<string, Price> = {
  "claude-opus-4-5": price(5, 25),
  "claude-opus-4-1": price(15, 75),
  "claude-opus-4": price(15, 75),
  "claude-3-opus": price(15, 75),
  "claude-sonnet-4-5": price(3, 15),
  "claude-sonnet-4": price(3, 15),
  "claude-3-7-sonnet": price(3, 15),
  "claude-3-5-sonnet": price(3, 15),
  "claude-haiku-4-5": price(1, 5),
  "claude-3-5-haiku": price(0.8, 4),
  "claude-3-haiku": price(0.25, 1.25),
};

/** The dearest known rate, field by field: an unknown model never makes a budget fail open. */
const HIGHEST: Price = Object.values(PRICES).reduce((a, b) => ({
  input: Math.max(a.input, b.input),
  output: Math.max(a.output, b.output),
  cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
  cacheRead: Math.max(a.cacheRead, b.cacheRead),
}));

export function priceOf(model: string): { price: Price; estimate: boolean } {
  const name = model.toLowerCase();
  const key = Object.keys(PRICES)
    .filter((k) => name === k || name.startsWith(`${k}-`) || name.startsWith(`${k}@`))
    .sort((a, b) => b.length - a.length)[0];
  return key ? { price: PRICES[key]!, estimate: false } : { price: HIGHEST, estimate: true };
}

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

/** Context window per model; every current Claude model has 200k unless told otherwise. */
export function contextWindowOf(_model: string): number {
  return 200_000;
}
