// The berth module: quays, berths, tide tables and the berth plan of Alvarim.
//   createBerths(ctx, { vessels: { findVessel(vesselId) } }) — see ports.js for the port.
// start() begins the plan view's event subscriptions and the hold releaser; stop() ends both.

import { createBerthStores } from "./stores.js";
import { vesselPort } from "./ports.js";
import { createQuayRegistry } from "./quays/quayRegistry.js";
import { createBerthRegistry } from "./quays/berthRegistry.js";
import { createBerthListing } from "./quays/berthListing.js";
import { createTideTable } from "./tides/tideTable.js";
import { importTidePredictions } from "./tides/tideImport.js";
import { createPlanQueries } from "./plan/planQueries.js";
import { createClosures } from "./plan/closures.js";
import { createBookable } from "./plan/bookable.js";
import { createBookingService } from "./plan/bookingService.js";
import { createHolds } from "./plan/holds.js";
import { createHoldReleaser } from "./plan/holdReleaser.js";
import { createMoves } from "./plan/moves.js";
import { createReschedule } from "./plan/reschedule.js";
import { createPlanView } from "./plan/planView.js";
import { createAllocation } from "./allocation/allocation.js";
import { createOccupancy } from "./reports/occupancy.js";
import { createDailySheet } from "./reports/dailySheet.js";
import { createQuayUtilisation } from "./reports/quayUtilisation.js";
import { createBookingListing } from "./listing/bookingListing.js";
import { createBerthStatus } from "./plan/berthStatus.js";
import { createEntryWindows } from "./allocation/entryWindows.js";
import { createMovementsBoard } from "./reports/movementsBoard.js";
import { exportSnapshot, restoreSnapshot } from "./snapshot.js";

/** The module's parts, wired in dependency order; each factory reads what it needs from `parts`. */
export function createBerthParts(ctx, deps) {
  const stores = createBerthStores();
  const parts = { stores, clock: ctx.clock, vessels: vesselPort(deps), queries: createPlanQueries(stores) };
  parts.quays = createQuayRegistry(ctx, stores);
  parts.berths = createBerthRegistry(ctx, stores);
  parts.berthListing = createBerthListing(ctx, stores);
  parts.tides = createTideTable(ctx, stores);
  parts.closures = createClosures(ctx, parts);
  parts.bookable = createBookable(ctx, parts);
  parts.bookingService = createBookingService(ctx, parts);
  parts.holds = createHolds(ctx, parts);
  parts.holdReleaser = createHoldReleaser(ctx, parts.holds);
  parts.moves = createMoves(ctx, parts);
  parts.reschedule = createReschedule(ctx, parts);
  parts.planView = createPlanView(ctx, parts);
  parts.allocation = createAllocation(ctx, parts);
  parts.occupancy = createOccupancy(ctx, parts);
  parts.dailySheet = createDailySheet(ctx, parts);
  parts.quayUtilisation = createQuayUtilisation(ctx, parts);
  parts.bookingListing = createBookingListing(ctx, parts);
  parts.berthStatus = createBerthStatus(ctx, parts);
  parts.entryWindows = createEntryWindows(ctx, parts);
  parts.movements = createMovementsBoard(ctx, parts);
  return parts;
}

/** The public functions over a set of parts (createBerths, or a test that wired its own parts). */
export function berthsApi(p) {
  return {
    addQuay: p.quays.addQuay,
    findQuay: p.quays.findQuay,
    getQuay: p.quays.getQuay,
    addBerth: p.berths.addBerth,
    findBerth: p.berths.findBerth,
    getBerth: p.berths.getBerth,
    berthsOnQuay: p.berths.berthsOnQuay,
    listBerths: p.berthListing.listBerths,
    loadTides: p.tides.load,
    importTides: (text) => importTidePredictions(p.tides, text),
    tideHeightAt: p.tides.heightAt,
    findBooking: p.queries.findBooking,
    getBooking: p.queries.getBooking,
    createBooking: p.bookingService.createBooking,
    confirmBooking: p.bookingService.confirmBooking,
    cancelBooking: p.bookingService.cancelBooking,
    completeBooking: p.bookingService.completeBooking,
    placeHold: p.holds.placeHold,
    releaseHold: p.holds.releaseHold,
    moveBooking: p.moves.moveBooking,
    changeStay: p.reschedule.changeStay,
    shiftStay: p.reschedule.shiftStay,
    addClosure: p.closures.addClosure,
    planOfBerth: p.planView.forBerth,
    suggestBerths: p.allocation.suggest,
    occupancyReport: p.occupancy.occupancyReport,
    quayOccupancy: p.occupancy.quayOccupancy,
    quayUtilisation: p.quayUtilisation.utilisation,
    dailySheet: p.dailySheet.dailySheet,
    listBookings: p.bookingListing.listBookings,
    berthStatus: p.berthStatus.statusAt,
    quayStatus: p.berthStatus.quayStatus,
    portSummary: p.berthStatus.portSummary,
    entryWindows: p.entryWindows.entryWindows,
    nextEntry: p.entryWindows.nextEntry,
    movements: p.movements.movements,
    movementsBoard: p.movements.board,
    exportSnapshot: () => exportSnapshot(p.stores, p.clock.now()),
    restoreSnapshot(snapshot) {
      const counts = restoreSnapshot(p.stores, snapshot);
      p.tides.reindex();
      return counts;
    },
    start() {
      p.planView.start();
      p.holdReleaser.start();
    },
    stop() {
      p.holdReleaser.stop();
      p.planView.stop();
    },
  };
}

export function createBerths(ctx, deps) {
  return berthsApi(createBerthParts(ctx, deps));
}
