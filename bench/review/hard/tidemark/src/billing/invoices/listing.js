// The invoice list of the back office: filtered, then paged by cursor over id order.

import { ValidationError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { contains } from "../../core/time.js";
import { INVOICE_STATUS } from "../records/invoice.js";

const STATUSES = Object.values(INVOICE_STATUS);

export function createInvoiceListing(ctx, stores) {
  function filterOf({ accountId, status, issuedIn }) {
    if (status !== undefined && !STATUSES.includes(status)) throw new ValidationError("status", `must be one of ${STATUSES.join(", ")}`);
    return (i) =>
      (accountId === undefined || i.accountId === accountId) &&
      (status === undefined || i.status === status) &&
      (issuedIn === undefined || (i.issuedAt !== null && contains(issuedIn, i.issuedAt)));
  }

  /** { items, nextCursor }; pass nextCursor back as cursor for the next page. */
  function listInvoices({ limit, cursor, ...filter } = {}) {
    return paginate(stores.invoices.list(filterOf(filter)), { limit, cursor }, ctx.config);
  }

  /** Every page, for exports that want all rows. */
  function* allInvoices(filter = {}) {
    let cursor;
    do {
      const page = listInvoices({ ...filter, cursor, limit: ctx.config.paging.maxLimit });
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** Summary rows for the list screen. */
  const summaryOf = (invoice) => ({
    id: invoice.id,
    number: invoice.number,
    accountId: invoice.accountId,
    status: invoice.status,
    grossMinor: invoice.grossMinor,
    dueAt: invoice.dueAt,
  });

  return { listInvoices, allInvoices, summaryOf };
}
