// The port's settings. Every module reads its defaults from here; a deployment passes overrides
// to loadConfig and hands the result down (never import DEFAULTS directly in a module).

export const DEFAULTS = Object.freeze({
  port: Object.freeze({ code: "PTALV", name: "Port of Alvarim", currency: "EUR" }),
  paging: Object.freeze({ defaultLimit: 50, maxLimit: 200 }),
  cache: Object.freeze({ ttlMs: 60_000, maxEntries: 500 }),
  berthing: Object.freeze({
    ukcMinCm: 60, // under-keel clearance at the lowest tide of the stay
    fenderGapCm: 500, // between two vessels on one quay
    minStayMinutes: 60,
    bookingHorizonDays: 90,
  }),
  billing: Object.freeze({
    vatRatePermille: 230,
    paymentTermsDays: 30,
    dunningGraceDays: 7,
    minimumChargeMinor: 2_500,
  }),
  cargo: Object.freeze({ maxStackTiers: 6, reeferPlugsPerBlock: 40, dwellFreeDays: 5 }),
  workforce: Object.freeze({ maxShiftMinutes: 720, minRestMinutes: 660, gangSize: 5 }),
  scheduler: Object.freeze({ tickMs: 1_000 }),
});

function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function merge(base, over, at) {
  const out = {};
  for (const key of Object.keys(base)) out[key] = base[key];
  for (const [key, value] of Object.entries(over ?? {})) {
    if (!(key in base)) throw new Error(`config: unknown setting ${at}${key}`);
    if (isPlainObject(base[key])) out[key] = merge(base[key], value, `${at}${key}.`);
    else if (typeof value !== typeof base[key]) throw new Error(`config: ${at}${key} must be a ${typeof base[key]}`);
    else out[key] = value;
  }
  return Object.freeze(out);
}

/** The defaults with a deployment's overrides on top; unknown keys and wrong types are errors. */
export function loadConfig(overrides = {}) {
  return merge(DEFAULTS, overrides, "");
}
