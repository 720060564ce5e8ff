// ?cursor=…&limit=… from a request. The cursor is the last id of the previous page; the limit is
// a positive whole number, cut to paging.maxLimit.

import { ValidationError } from "../../core/errors.js";
import { formatQuery } from "./query-string.js";

const ID = /^[A-Z]{3}-[0-9]{6}$/;

export function parsePaging(query, config) {
  const cursor = query.cursor ? String(query.cursor) : undefined;
  if (cursor !== undefined && !ID.test(cursor)) throw new ValidationError("cursor", "is not a record id");
  if (query.limit === undefined || query.limit === "") return { cursor, limit: undefined };
  const limit = Number(query.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new ValidationError("limit", "must be a positive integer");
  return { cursor, limit: Math.min(limit, config.paging.maxLimit) };
}

/** The body of a paged answer: the page and the cursor for the next one. */
export const pageBody = (page, present = (x) => x) => ({ items: page.items.map(present), nextCursor: page.nextCursor });

/** The URL of the next page, keeping the request's other parameters; null on the last page. */
export function nextLink(path, query, nextCursor) {
  if (!nextCursor) return null;
  return path + formatQuery({ ...query, cursor: nextCursor });
}
