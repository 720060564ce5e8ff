// The text of a reminder letter: the account, its overdue invoices (oldest first) with what each
// still owes, and the total. Amounts are printed the port's way (formatMinor).

import { formatMinor, sumMinor } from "../../core/money.js";
import { toIso } from "../../core/time.js";
import { outstandingMinor } from "../records/invoice.js";
import { LEVEL_NAMES } from "./policy.js";

const day = (t) => toIso(t).slice(0, 10);

export function createNotices(ctx) {
  const currency = ctx.config.port.currency;

  function noticeFor(account, invoices, level, now) {
    const rows = invoices.map((inv) => ({ number: inv.number, dueAt: inv.dueAt, owedMinor: outstandingMinor(inv) }));
    const totalMinor = sumMinor(rows.map((r) => r.owedMinor));
    const title = LEVEL_NAMES[level] ?? `reminder ${level}`;
    const lines = [
      `${ctx.config.port.name}: ${title}`,
      `To ${account.name} (${account.code}), ${day(now)}`,
      "",
      ...rows.map((r) => `  ${r.number}  due ${day(r.dueAt)}  ${formatMinor(r.owedMinor, currency)}`),
      "",
      `  Total overdue  ${formatMinor(totalMinor, currency)}`,
    ];
    if (level >= 3) lines.push("", "Unless paid within 8 days the account will be referred for collection.");
    return { to: account.email, subject: `${title}: ${formatMinor(totalMinor, currency)} overdue`, text: lines.join("\n"), totalMinor };
  }

  return { noticeFor };
}
