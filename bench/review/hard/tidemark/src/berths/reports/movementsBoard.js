// The pilots' movements board: arrivals and departures over the next hours, each with the pilot
// boarding point its quay is served from. A stay's start is its arrival and its end its departure;
// a movement at the range's end belongs to the next board.

import { contains, HOUR, interval } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { timeLabel } from "../formatters/timeLabel.js";

// The boarding points of Alvarim: the northern quays are reached from the north fairway buoy.
export const PILOT_BOARDING = Object.freeze({ Q1: "PBP North", Q2: "PBP North", Q3: "PBP South", Q4: "PBP South" });

// Departures first when an arrival and a departure fall on one minute: the leaving vessel clears
// the berth for the arriving one.
const KIND_ORDER = { departure: 0, arrival: 1 };
const byMovement = byKeys(byNumber("at"), (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind], byString("bookingId"));

export function createMovementsBoard(ctx, parts) {
  const { queries } = parts;

  /** Movements within [start, end), in time order. */
  function movements(start, end) {
    const range = interval(start, end);
    const found = [];
    for (const b of queries.activeDuring(range)) {
      const common = { bookingId: b.id, berthId: b.berthId, vesselId: b.vesselId, boarding: PILOT_BOARDING[b.quayId] };
      if (contains(range, b.start)) found.push({ kind: "arrival", at: b.start, ...common });
      if (contains(range, b.end)) found.push({ kind: "departure", at: b.end, ...common });
    }
    return found.toSorted(byMovement);
  }

  /** Board lines for the next `hours` from now. */
  function board(hours = 24) {
    const now = ctx.clock.now();
    return movements(now, now + hours * HOUR).map(
      (m) => `${timeLabel(m.at)} ${m.kind === "arrival" ? "ARR" : "DEP"} ${m.vesselId} ${m.berthId} ${m.boarding}`,
    );
  }

  return { movements, board };
}
