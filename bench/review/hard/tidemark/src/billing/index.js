// Billing: tariffs, charges, invoices, payments, credit, dunning and the reports on them.
//
//   createBilling(ctx, deps) — ctx from core/context.js; deps the ports of ./ports.js
//
// Charges are raised from vessel departures once start() has run; the daily dunning run is on the
// scheduler from start() until stop(). stop() also releases every event subscription billing made.

import { createAccountService } from "./accounts/service.js";
import { createBalances } from "./accounts/balance.js";
import { createBalanceCache } from "./accounts/balanceCache.js";
import { createCallChargeFeed } from "./charges/fromEvents.js";
import { createChargeService } from "./charges/service.js";
import { createCreditApplier } from "./credit/apply.js";
import { createCreditNoteService } from "./credit/creditNotes.js";
import { createDiscountLookup } from "./discounts/apply.js";
import { createDiscountService } from "./discounts/service.js";
import { createNotices } from "./dunning/notices.js";
import { createReminderWatch } from "./dunning/paidWatch.js";
import { createDunningPolicy } from "./dunning/policy.js";
import { createDunningRun } from "./dunning/run.js";
import { createDunningScheduler } from "./dunning/scheduler.js";
import { createInvoiceExport } from "./invoices/export.js";
import { createLineBuilder } from "./invoices/lines.js";
import { createInvoiceListing } from "./invoices/listing.js";
import { createNumbering } from "./invoices/numbering.js";
import { createInvoiceQueries } from "./invoices/queries.js";
import { createInvoiceService } from "./invoices/service.js";
import { createTerms } from "./invoices/terms.js";
import { createPaymentService } from "./payments/service.js";
import { checkPorts } from "./ports.js";
import { createQuotes } from "./quotes/proforma.js";
import { createAgingReport } from "./reports/aging.js";
import { createRevenueReport } from "./reports/revenue.js";
import { createStatements } from "./statements/statement.js";
import { createBillingIds, createBillingStores } from "./stores.js";
import { createTariffCache } from "./tariffs/cache.js";
import { createTariffRegistry } from "./tariffs/registry.js";

export function createBilling(ctx, deps) {
  checkPorts(deps);
  const stores = createBillingStores();
  const ids = createBillingIds();

  const registry = createTariffRegistry(ctx, stores, ids);
  const tariffs = createTariffCache(ctx, registry);
  const balances = createBalances(stores);
  const accounts = createAccountService(ctx, stores, { ids, balances });
  const balanceCache = createBalanceCache(ctx, balances);
  const discounts = createDiscountService(ctx, stores, { ids, accounts });
  const lines = createLineBuilder(ctx, { registry, discounts: createDiscountLookup(stores) });
  const charges = createChargeService(ctx, stores, { ids, tariffs });
  const feed = createCallChargeFeed(ctx, { deps, charges });
  const queries = createInvoiceQueries(stores);
  const invoices = createInvoiceService(ctx, stores, {
    ids,
    accounts,
    charges,
    lines,
    terms: createTerms(ctx),
    numbering: createNumbering(ctx.config),
  });
  const payments = createPaymentService(ctx, stores, { ids, accounts, queries });
  const credit = createCreditApplier(ctx, stores, { queries });
  const creditNotes = createCreditNoteService(ctx, stores, { ids });
  const quotes = createQuotes(ctx, stores, { ids, accounts, tariffs, lines });
  const watch = createReminderWatch(ctx, stores);
  const policy = createDunningPolicy({ graceDays: ctx.config.billing.dunningGraceDays });
  const dunning = createDunningRun(ctx, stores, { queries, accounts, policy, notices: createNotices(ctx), watch });
  const dunningScheduler = createDunningScheduler(ctx, dunning);
  const listing = createInvoiceListing(ctx, stores);
  const exporter = createInvoiceExport(ctx, { queries, accounts });
  const statements = createStatements(ctx, stores, { accounts });
  const aging = createAgingReport(ctx, { queries, accounts });
  const revenue = createRevenueReport(ctx, stores, { queries });

  return {
    // tariffs
    addTariff: registry.addVersion,
    effectiveTariff: tariffs.effectiveTariff,
    tariffSheet: registry.tariffSheet,
    // accounts
    openAccount: accounts.openAccount,
    findAccount: accounts.findAccount,
    getAccount: accounts.getAccount,
    findAccountByCode: accounts.findByCode,
    setPaymentTerms: accounts.setPaymentTerms,
    closeAccount: accounts.closeAccount,
    listAccounts: accounts.listAccounts,
    balanceOf: balanceCache.balanceOf,
    debtors: balances.debtors,
    addDiscount: discounts.addDiscount,
    endDiscount: discounts.endDiscount,
    // charges
    raiseCharge: charges.raise,
    chargeCall: feed.chargeCall,
    openCharges: charges.openCharges,
    cancelCharge: charges.cancel,
    // invoices
    draftInvoice: invoices.draft,
    postInvoice: invoices.post,
    voidInvoice: invoices.voidInvoice,
    findInvoice: queries.findInvoice,
    getInvoice: queries.getInvoice,
    findInvoiceByNumber: queries.findByNumber,
    openInvoices: queries.openInvoices,
    listInvoices: listing.listInvoices,
    exportPeriod: exporter.exportPeriod,
    quoteCall: quotes.quoteCall,
    // money in and back
    takePayment: payments.takePayment,
    paymentsOf: payments.paymentsOf,
    issueCreditNote: creditNotes.issue,
    applyCredit: credit.applyCredit,
    // dunning and reports
    runDunning: dunning.runOnce,
    previewDunning: dunning.preview,
    watchList: watch.list,
    statementFor: statements.statementFor,
    agingAt: aging.agingAt,
    revenueIn: revenue.revenueIn,

    start() {
      feed.start();
      dunningScheduler.start();
    },
    stop() {
      dunningScheduler.stop();
      feed.stop();
      watch.stop();
      balanceCache.stop();
      tariffs.stop();
    },
    /** For tests and the platform's health page. */
    internals: { stores, ids, registry },
  };
}
