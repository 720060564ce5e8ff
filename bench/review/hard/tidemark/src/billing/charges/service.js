// Raising charges. A charge is priced by the tariff version in force when the chargeable thing
// began; a replayed event does not charge twice (one charge per tariff and source).

import { ConflictError } from "../../core/errors.js";
import { quantityFor } from "../tariffs/basis.js";
import { BILLING_EVENTS } from "../events.js";
import { CHARGE_STATUS, chargeKey, newCharge } from "../records/charge.js";

export function createChargeService(ctx, stores, { ids, tariffs }) {
  const live = (c) => c.status !== CHARGE_STATUS.CANCELLED;

  function existing(key) {
    return stores.charges.list((c) => live(c) && chargeKey(c) === key)[0] ?? null;
  }

  /**
   * Returns the new charge, the one already raised for the same tariff and source, or null when
   * nothing is chargeable (no tariff in force, or a zero quantity).
   */
  function raise({ accountId, tariffCode, usage, at, source, note }) {
    const tariff = tariffs.effectiveTariff(tariffCode, at);
    if (!tariff) {
      ctx.log("warn", "billing: no tariff in force", { tariffCode, at, ref: source.ref });
      return null;
    }
    const quantity = quantityFor(tariff.basis, usage);
    if (quantity <= 0) return null;
    const draft = newCharge(ids.charge.next(), { accountId, tariffId: tariff.id, tariffCode, quantity, at, source, note });
    const already = existing(chargeKey(draft));
    if (already) return already;
    const row = stores.charges.insert(draft);
    ctx.events.publish(BILLING_EVENTS.chargeRaised, { chargeId: row.id, accountId, tariffCode });
    return row;
  }

  /** Open charges of an account, oldest first. */
  const openCharges = (accountId) => stores.charges.list((c) => c.accountId === accountId && c.status === CHARGE_STATUS.OPEN);

  const chargesFor = (ref) => stores.charges.list((c) => c.source.ref === ref);

  function markBilled(chargeIds, invoiceId) {
    for (const id of chargeIds) {
      const charge = stores.charges.get(id);
      if (charge.status !== CHARGE_STATUS.OPEN) throw new ConflictError(`charge ${id} is ${charge.status}`);
    }
    return chargeIds.map((id) => stores.charges.update(id, (c) => ({ ...c, status: CHARGE_STATUS.BILLED, invoiceId })));
  }

  /** A voided invoice gives its charges back to be invoiced again. */
  function reopen(chargeIds) {
    return chargeIds.map((id) => stores.charges.update(id, (c) => ({ ...c, status: CHARGE_STATUS.OPEN, invoiceId: null })));
  }

  function cancel(chargeId) {
    const charge = stores.charges.get(chargeId);
    if (charge.status !== CHARGE_STATUS.OPEN) throw new ConflictError(`charge ${chargeId} is ${charge.status}`);
    return stores.charges.update(chargeId, (c) => ({ ...c, status: CHARGE_STATUS.CANCELLED }));
  }

  return { raise, openCharges, chargesFor, markBilled, reopen, cancel };
}
