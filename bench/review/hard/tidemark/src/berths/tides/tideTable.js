// The tide table: high and low waters of Alvarim with heights in cm over chart datum. Heights in
// between are interpolated; outside the table there is no answer (null), never a guess.

import { ValidationError } from "../../core/errors.js";
import { contains } from "../../core/time.js";
import { byNumber } from "../../core/sort.js";
import { assertAlternating, validateExtreme } from "../records/tide.js";
import { BERTH_EVENTS } from "../events.js";
import { cosineHeight, lastAtOrBefore } from "./interpolate.js";

export function createTideTable(ctx, stores) {
  // The store keeps id order; lookups need time order, kept here and rebuilt on each load.
  let ordered = [];

  function load(extremes) {
    const checked = extremes.map((x, i) => validateExtreme(x, i)).toSorted(byNumber("at"));
    if (checked.length === 0) throw new ValidationError("extremes", "nothing to load");
    const merged = [...ordered.filter((x) => x.at < checked[0].at || x.at > checked.at(-1).at), ...checked].toSorted(byNumber("at"));
    assertAlternating(merged);
    for (const old of stores.tides.list((x) => x.at >= checked[0].at && x.at <= checked.at(-1).at)) stores.tides.remove(old.id);
    for (const x of checked) stores.tides.insert({ id: stores.tideIds.next(), ...x });
    ordered = stores.tides.list().toSorted(byNumber("at"));
    ctx.events.publish(BERTH_EVENTS.tidesLoaded, { count: checked.length, from: checked[0].at, to: checked.at(-1).at });
    return checked.length;
  }

  /** Height in cm at time t, or null when t lies outside the table. */
  function heightAt(t) {
    const i = lastAtOrBefore(ordered, t);
    if (i === -1) return null;
    if (ordered[i].at === t) return ordered[i].heightCm;
    if (i === ordered.length - 1) return null;
    return cosineHeight(ordered[i], ordered[i + 1], t);
  }

  /** The extremes inside a half-open range, in time order. */
  function extremesBetween(range) {
    return ordered.filter((x) => contains(range, x.at));
  }

  /**
   * The lowest water during a stay: the lower of the heights at its ends and of every low water
   * inside it, as { at, heightCm }; null when the table does not cover the stay.
   */
  function lowestDuring(stay) {
    const atStart = heightAt(stay.start);
    const atEnd = heightAt(stay.end);
    if (atStart === null || atEnd === null) return null;
    let lowest = atStart <= atEnd ? { at: stay.start, heightCm: atStart } : { at: stay.end, heightCm: atEnd };
    for (const x of extremesBetween(stay)) {
      if (x.kind === "low" && x.heightCm < lowest.heightCm) lowest = { at: x.at, heightCm: x.heightCm };
    }
    return lowest;
  }

  /** Rebuilds the time order from the store, after a snapshot was restored into it. */
  function reindex() {
    ordered = stores.tides.list().toSorted(byNumber("at"));
    return ordered.length;
  }

  return {
    load,
    reindex,
    heightAt,
    extremesBetween,
    lowestDuring,
    covers: (range) => heightAt(range.start) !== null && heightAt(range.end) !== null,
    size: () => ordered.length,
  };
}
