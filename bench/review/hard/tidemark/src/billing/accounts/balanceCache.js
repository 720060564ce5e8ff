// The counter screen asks for an account's balance on every keystroke; the ledger walk is cached
// per account and dropped on every event that moves the account's money.

import { createCache } from "../../core/cache.js";
import { BALANCE_EVENTS } from "../events.js";

export function createBalanceCache(ctx, balances) {
  const cache = createCache({ clock: ctx.clock, ttlMs: ctx.config.cache.ttlMs, maxEntries: ctx.config.cache.maxEntries });
  const offs = BALANCE_EVENTS.map((type) => ctx.events.subscribe(type, (event) => cache.delete(event.accountId)));

  function balanceOf(accountId) {
    const hit = cache.get(accountId);
    if (hit !== undefined) return hit;
    return cache.set(accountId, balances.balanceOf(accountId));
  }

  return {
    balanceOf,
    size: () => cache.size,
    stop() {
      for (const off of offs.splice(0)) off();
      cache.clear();
    },
  };
}
