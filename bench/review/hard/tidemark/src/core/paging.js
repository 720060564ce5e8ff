// Cursor paging over records in id order: the cursor is the last id of the previous page. A limit
// above paging.maxLimit is cut to it; none means paging.defaultLimit.

import { ValidationError } from "./errors.js";

export function pageLimit(config, limit) {
  if (limit === undefined || limit === null) return config.paging.defaultLimit;
  if (!Number.isInteger(limit) || limit <= 0) throw new ValidationError("limit", "must be a positive integer");
  return Math.min(limit, config.paging.maxLimit);
}

/** `items` must be in id order (store.list gives them so). */
export function paginate(items, { limit, cursor } = {}, config) {
  const size = pageLimit(config, limit);
  const from = cursor ? items.findIndex((item) => item.id > cursor) : 0;
  const page = from === -1 ? [] : items.slice(from, from + size);
  const more = from !== -1 && from + size < items.length;
  return { items: page, nextCursor: more ? page[page.length - 1].id : null };
}
