// Billing accounts. An account is closed, never removed, so every invoice, payment and credit
// note keeps naming an account that exists; closing needs nothing owed and no credit left.

import { ConflictError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { accountKey, BILLING_EVENTS } from "../events.js";
import { ACCOUNT_STATUS, newAccount, validateAccount } from "../records/account.js";

export function createAccountService(ctx, stores, { ids, balances }) {
  const findByCode = (code) => stores.accounts.list((a) => a.code === code)[0] ?? null;

  function openAccount(input) {
    const fields = validateAccount(input);
    if (findByCode(fields.code)) throw new ConflictError(`account code ${fields.code} is taken`);
    const row = stores.accounts.insert(newAccount(ids.account.next(), fields, ctx.clock.now()));
    ctx.events.publish(BILLING_EVENTS.accountOpened, { accountId: row.id, code: row.code });
    return row;
  }

  const findAccount = (id) => stores.accounts.find(id);
  const getAccount = (id) => stores.accounts.get(id);

  /** Changes the agreed terms; invoices already posted keep their due dates. */
  function setPaymentTerms(id, paymentTermsDays) {
    const current = getAccount(id);
    const fields = validateAccount({ ...current, paymentTermsDays });
    return stores.accounts.update(id, (a) => ({ ...a, paymentTermsDays: fields.paymentTermsDays }), current.version);
  }

  async function closeAccount(id) {
    return ctx.locks.withLock(accountKey(id), async () => {
      const account = getAccount(id);
      if (account.status === ACCOUNT_STATUS.CLOSED) return account;
      const { outstandingMinor, creditMinor } = balances.balanceOf(id);
      if (outstandingMinor !== 0) throw new ConflictError(`account ${account.code} still owes ${outstandingMinor}`);
      if (creditMinor !== 0) throw new ConflictError(`account ${account.code} holds ${creditMinor} in credit`);
      const row = stores.accounts.update(id, (a) => ({ ...a, status: ACCOUNT_STATUS.CLOSED, closedAt: ctx.clock.now() }));
      ctx.events.publish(BILLING_EVENTS.accountClosed, { accountId: id });
      return row;
    });
  }

  function listAccounts({ status, limit, cursor } = {}) {
    const rows = stores.accounts.list((a) => status === undefined || a.status === status);
    return paginate(rows, { limit, cursor }, ctx.config);
  }

  return { openAccount, findAccount, getAccount, findByCode, setPaymentTerms, closeAccount, listAccounts };
}
