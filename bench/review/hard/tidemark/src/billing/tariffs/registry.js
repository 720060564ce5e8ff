// Tariff versions by code. A new version of a code may start only where the open one ends, or it
// closes the open one at its own validFrom: versions of one code never overlap.

import { ConflictError, NotFoundError } from "../../core/errors.js";
import { contains, overlaps } from "../../core/time.js";
import { BILLING_EVENTS } from "../events.js";
import { validateTariff, validityOf } from "../records/tariff.js";

export function createTariffRegistry(ctx, stores, ids) {
  const versionsOf = (code) => stores.tariffs.list((t) => t.code === code);

  function addVersion(input) {
    const tariff = validateTariff(input);
    const versions = versionsOf(tariff.code);
    const open = versions.find((v) => v.validTo === null);
    if (open && open.validFrom < tariff.validFrom) {
      // the new version supersedes the open one from its own start
      stores.tariffs.update(open.id, (v) => ({ ...v, validTo: tariff.validFrom }));
    }
    const clash = versionsOf(tariff.code).find((v) => overlaps(validityOf(v), validityOf(tariff)));
    if (clash) throw new ConflictError(`tariff ${tariff.code}: overlaps version ${clash.id}`);
    const row = stores.tariffs.insert({ id: ids.tariff.next(), ...tariff });
    ctx.events.publish(BILLING_EVENTS.tariffChanged, { tariffId: row.id, code: row.code });
    return row;
  }

  /** The version of `code` in force at `at`, or null when none is. */
  function effectiveTariff(code, at) {
    return versionsOf(code).find((v) => contains(validityOf(v), at)) ?? null;
  }

  function getEffectiveTariff(code, at) {
    const found = effectiveTariff(code, at);
    if (!found) throw new NotFoundError("tariff", `${code} at ${new Date(at).toISOString()}`);
    return found;
  }

  /** A version by id: charges keep the id of the version they were priced with. */
  const getVersion = (tariffId) => stores.tariffs.get(tariffId);

  /** One row per code: the version in force at `at`. */
  function tariffSheet(at) {
    const codes = [...new Set(stores.tariffs.list().map((t) => t.code))].sort();
    return codes.map((code) => effectiveTariff(code, at)).filter(Boolean);
  }

  return { addVersion, effectiveTariff, getEffectiveTariff, getVersion, versionsOf, tariffSheet };
}
