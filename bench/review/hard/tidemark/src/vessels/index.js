// The vessels module: the vessel register, port calls, pilotage, AIS positions, agents,
// pre-arrival documents, the blocked-vessel list, arrival notices and the call reports.
//
// deps (all optional):
//   berths: { findBerth(id) -> { id, depthCm } | null } — checks the under-keel clearance on berthing.

import { createAisImport } from "./ais/ais-import.js";
import { createPositionStore } from "./ais/position-store.js";
import { createStaleSweeper } from "./ais/stale-sweeper.js";
import { summariseTrack } from "./ais/track.js";
import { createAgents } from "./agents/agent-service.js";
import { createContacts } from "./agents/contacts.js";
import { createBlockedCheck } from "./blocked/blocked-check.js";
import { importBlockedList } from "./blocked/blocked-import.js";
import { createBlockedList } from "./blocked/blocked-list.js";
import { createCallListing } from "./calls/call-listing.js";
import { createCallQueries } from "./calls/call-queries.js";
import { createCallService } from "./calls/call-service.js";
import { createEtaLog } from "./calls/eta-revision.js";
import { createDocuments } from "./documents/document-service.js";
import { createOverdueReport } from "./documents/overdue-report.js";
import { createArrivalNotices } from "./notices/arrival-notices.js";
import { createPilotAssignments } from "./pilotage/pilot-assignment.js";
import { createPilotAvailability } from "./pilotage/pilot-availability.js";
import { createPilotBookings } from "./pilotage/pilot-booking.js";
import { createPilotRoster } from "./pilotage/pilot-roster.js";
import { createVesselCache } from "./register/vessel-cache.js";
import { importExtract } from "./register/vessel-import.js";
import { createRegister } from "./register/vessel-service.js";
import { createCallsReport } from "./reports/calls-report.js";
import { createPortTimeReport } from "./reports/port-time-report.js";

export function createVessels(ctx, deps = {}) {
  const register = createRegister(ctx);
  const vesselCache = createVesselCache(ctx, { register });
  const blockedList = createBlockedList(ctx);
  const blocked = createBlockedCheck(blockedList);
  const calls = createCallService(ctx, { register, blocked, berths: deps.berths });
  const listing = createCallListing(ctx, { calls, register });
  const queries = createCallQueries(ctx, { calls });
  const etaLog = createEtaLog(ctx);
  const roster = createPilotRoster(ctx);
  const bookings = createPilotBookings(ctx, { calls });
  const assignments = createPilotAssignments(ctx, { register, calls, roster, bookings });
  const availability = createPilotAvailability(ctx, { register, roster, assignments });
  const positions = createPositionStore(ctx);
  const ais = createAisImport(ctx, { vessels: vesselCache, positions });
  const sweeper = createStaleSweeper(ctx, { positions });
  const agents = createAgents(ctx);
  const contacts = createContacts(ctx, { agents });
  const documents = createDocuments(ctx, { calls });
  const overdue = createOverdueReport(ctx, { calls, register, documents });
  const notices = createArrivalNotices(ctx, { calls, register, agents, contacts });
  const callsReport = createCallsReport(ctx, { calls, register, listing });
  const portTime = createPortTimeReport(ctx, { calls, register });

  // A call declared for an agent needs that agent active; the call service itself knows no agents.
  async function declareCall(input) {
    if (input.agentId) agents.assertActive(input.agentId);
    return calls.createCall(input);
  }

  const startables = [vesselCache, etaLog, notices, sweeper];

  return {
    // register
    registerVessel: register.registerVessel,
    updateVessel: register.updateVessel,
    findVessel: register.findVessel,
    getVessel: register.getVessel,
    findByImo: register.findByImo,
    listVessels: register.listVessels,
    importVesselExtract: (text) => importExtract(register, text),
    // calls
    declareCall,
    arrive: calls.arrive,
    berth: calls.berth,
    depart: calls.depart,
    cancelCall: calls.cancel,
    reviseEta: calls.reviseEta,
    findCall: calls.findCall,
    getCall: calls.getCall,
    callsForVessel: calls.callsForVessel,
    listCalls: listing.listCalls,
    countCalls: listing.countCalls,
    expectedArrivals: queries.expectedArrivals,
    inPort: queries.inPort,
    atBerth: queries.atBerth,
    etaRevisions: etaLog.revisionsOf,
    // pilotage
    addPilot: roster.addPilot,
    setPilotActive: roster.setActive,
    bookPilot: bookings.book,
    cancelPilotBooking: bookings.cancelBooking,
    assignPilot: assignments.assignPilot,
    pilotCandidates: availability.candidatesFor,
    // AIS
    importAis: ais.importFeed,
    latestPosition: positions.latestOf,
    trackSummary: (vesselId, window) => summariseTrack(positions.trackOf(vesselId, window)),
    sweepPositions: sweeper.sweep,
    // agents
    addAgent: agents.addAgent,
    updateAgent: agents.updateAgent,
    findAgent: agents.findAgent,
    addContact: contacts.addContact,
    // documents
    submitDocument: documents.submit,
    missingDocuments: overdue.missing,
    // blocked vessels
    blockVessel: blockedList.block,
    liftBlock: blockedList.lift,
    isBlocked: blockedList.isBlocked,
    importBlockedList: (text) => importBlockedList(blockedList, text),
    // notices and reports
    noticesFor: notices.noticesFor,
    monthlyCallsReport: callsReport.monthlyReport,
    renderMonthlyReport: callsReport.renderMonthly,
    callStateCounts: callsReport.stateCounts,
    timeInPort: portTime.timeInPort,
    start() {
      for (const part of startables) part.start();
    },
    stop() {
      for (const part of startables.toReversed()) part.stop();
    },
  };
}
