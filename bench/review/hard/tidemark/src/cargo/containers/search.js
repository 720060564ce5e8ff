// Container search: filters, then cursor paging over id order (core paging), so a page boundary
// never skips or repeats a box while the yard changes underneath.

import { paginate } from "../../core/paging.js";
import { matches, normaliseFilters } from "./filters.js";

export function createSearch(ctx, stores) {
  function searchContainers(query = {}) {
    const { limit, cursor, ...rest } = query;
    const filters = normaliseFilters(rest);
    return paginate(stores.containers.list((c) => matches(c, filters)), { limit, cursor }, ctx.config);
  }

  /** Walks every page; for exports and batch jobs, not for screens. */
  function searchAll(query = {}) {
    const all = [];
    let cursor = null;
    do {
      const page = searchContainers({ ...query, cursor: cursor ?? undefined, limit: ctx.config.paging.maxLimit });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return all;
  }

  return { searchContainers, searchAll };
}
