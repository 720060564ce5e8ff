// When a posted invoice falls due: the account's own terms, or the port's (billing.paymentTermsDays),
// counted in whole days from the moment of issue.

import { DAY } from "../../core/time.js";

export function createTerms(ctx) {
  const termsDaysOf = (account) => account.paymentTermsDays ?? ctx.config.billing.paymentTermsDays;

  return {
    termsDaysOf,
    dueAt: (issuedAt, account) => issuedAt + termsDaysOf(account) * DAY,
  };
}
