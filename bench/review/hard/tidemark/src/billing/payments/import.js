// The bank's daily statement of transfers to the port's account:
//   valueDate;amount;reference;payer
// amount in euros ("1.234,50" or "1234.50"); the reference is the invoice number or the agent's
// account code. Euros become minor units here, at the edge.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";

export function bankAmountToMinor(text) {
  const t = String(text).trim();
  // "1.234,50" (Portuguese) or "1234.50" (bank export); never both separators the same way round
  const normal = t.includes(",") ? t.replace(/\./g, "").replace(",", ".") : t;
  if (!/^\d+(\.\d{1,2})?$/.test(normal)) throw new ValidationError("amount", `not an amount: ${text}`);
  const [units, cents = ""] = normal.split(".");
  return Number(units) * 100 + Number(cents.padEnd(2, "0"));
}

export function parseBankStatement(text) {
  const rows = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const cells = line.split(";").map((c) => c.trim());
    if (cells.length !== 4) throw new ValidationError(`line ${i + 1}`, "expected 4 fields");
    const [valueDate, amount, reference, payer] = cells;
    rows.push({ lineNo: i + 1, receivedAt: parseIso(valueDate, `line ${i + 1} valueDate`), amountMinor: bankAmountToMinor(amount), reference, payer });
  });
  return rows;
}

/**
 * Finds the account each transfer is for: by invoice number first, then by account code. Rows
 * neither matches are returned for the clerk.
 */
export function matchTransfers(rows, { queries, accounts }) {
  const matched = [];
  const unmatched = [];
  for (const row of rows) {
    const invoice = queries.findByNumber(row.reference);
    const account = invoice ? accounts.getAccount(invoice.accountId) : accounts.findByCode(row.reference);
    if (!account) unmatched.push(row);
    else matched.push({ ...row, accountId: account.id });
  }
  return { matched, unmatched };
}
