// The dunning run: every open invoice whose next reminder has fallen due is reminded, one notice
// per account per run (an agent with five overdue invoices gets one letter, at the highest level
// among them). The invoices are updated first; the event goes out after.

import { BILLING_EVENTS } from "../events.js";

export function createDunningRun(ctx, stores, { queries, accounts, policy, notices, watch }) {
  /** Open invoices due a reminder at `now`, grouped by account, oldest first within each. */
  function dueByAccount(now) {
    const groups = new Map();
    for (const invoice of queries.allOpen()) {
      if (!policy.isDue(invoice, now)) continue;
      const list = groups.get(invoice.accountId) ?? [];
      list.push(invoice);
      groups.set(invoice.accountId, list);
    }
    return groups;
  }

  function remind(account, invoices, now) {
    const level = Math.max(...invoices.map((i) => i.reminderLevel + 1));
    const notice = notices.noticeFor(account, invoices, level, now);
    for (const invoice of invoices) {
      stores.invoices.update(invoice.id, (inv) => ({ ...inv, remindedAt: now, reminderLevel: inv.reminderLevel + 1 }), invoice.version);
    }
    const invoiceIds = invoices.map((i) => i.id);
    watch.add(invoiceIds);
    ctx.events.publish(BILLING_EVENTS.reminderSent, { accountId: account.id, invoiceIds, level, notice });
    return { accountId: account.id, invoiceIds, level };
  }

  /** One pass; returns what was sent. A failure on one account is logged and the rest still go. */
  function runOnce() {
    const now = ctx.clock.now();
    const sent = [];
    for (const [accountId, invoices] of dueByAccount(now)) {
      try {
        sent.push(remind(accounts.getAccount(accountId), invoices, now));
      } catch (error) {
        ctx.log("error", "billing: reminder failed", { accountId, error: error.message });
      }
    }
    ctx.log("info", "billing: dunning run", { reminders: sent.length });
    return sent;
  }

  /** What the next run would send, without sending it (for the credit controller's screen). */
  function preview(at = ctx.clock.now()) {
    return [...dueByAccount(at)].map(([accountId, invoices]) => ({
      accountId,
      invoiceIds: invoices.map((i) => i.id),
      level: Math.max(...invoices.map((i) => i.reminderLevel + 1)),
    }));
  }

  return { runOnce, preview };
}
