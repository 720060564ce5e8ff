// A statement as the text the port mails to its agents.

import { formatMinor } from "../../core/money.js";
import { toIso } from "../../core/time.js";
import { periodLabel } from "./period.js";

const day = (t) => toIso(t).slice(0, 10);
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

export function formatStatement(statement, { portName, currency }) {
  const { account, period, openingMinor, entries, closingMinor } = statement;
  const money = (m) => formatMinor(m, currency);
  const lines = [
    `${portName} — statement ${periodLabel(period)}`,
    `${account.name} (${account.code})`,
    "",
    `${pad("", 10)}  ${pad("Brought forward", 34)}${lpad(money(openingMinor), 18)}`,
  ];
  for (const e of entries) {
    lines.push(`${pad(day(e.at), 10)}  ${pad(`${e.kind} ${e.ref}`, 34)}${lpad(money(e.amountMinor), 18)}${lpad(money(e.balanceMinor), 18)}`);
  }
  lines.push(`${pad("", 10)}  ${pad("Carried forward", 34)}${lpad(money(closingMinor), 18)}`);
  if (closingMinor < 0) lines.push("", "The balance is in your favour and will be set against your next invoice.");
  return lines.join("\n");
}

/** One CSV row per entry, for agents who load statements into their own books. */
export function statementCsv(statement) {
  const head = "date;kind;reference;amount_minor;balance_minor";
  const rows = statement.entries.map((e) => [day(e.at), e.kind, e.ref, e.amountMinor, e.balanceMinor].join(";"));
  return [head, ...rows].join("\n");
}
