// The cargo module: yard blocks, containers, stacking, restows, reefers, dangerous goods, the truck
// gate and dwell. Ports it needs from other modules come in deps:
//   deps.billing.chargeStorage(charge)         storage past the free days (see dwell/charges.js)
//   deps.reeferTelemetry.read(number)          { tempC } or null for a silent unit
//   deps.gate.trucksPerSlot                    optional, gate slot capacity (default in gate/slots.js)

import { createRegistry } from "./containers/register.js";
import { createNumberCache } from "./containers/numberCache.js";
import { createSearch } from "./containers/search.js";
import { createVgm } from "./containers/vgm.js";
import { createDwellCharges } from "./dwell/charges.js";
import { createAppointments } from "./gate/appointments.js";
import { createGate } from "./gate/transactions.js";
import { createTurnaround } from "./gate/turnaround.js";
import { blockLayout } from "./format/blockLayout.js";
import { importManifest } from "./imports/manifest.js";
import { importVgmDeclarations } from "./imports/vgmDeclarations.js";
import { createAlarms } from "./reefers/alarms.js";
import { createReeferMonitor } from "./reefers/monitor.js";
import { createPlugs } from "./reefers/plugs.js";
import { createReadings } from "./reefers/readings.js";
import { createDangerousReport } from "./reports/dangerous.js";
import { createDwellReport } from "./reports/dwell.js";
import { createOccupancyReport } from "./reports/occupancy.js";
import { createReeferReport } from "./reports/reefers.js";
import { createCargoStores } from "./stores.js";
import { createBlocks } from "./yard/blocks.js";
import { createHousekeeping } from "./yard/housekeeping.js";
import { createMoves } from "./yard/moves.js";
import { createOccupancy } from "./yard/occupancy.js";
import { createPlacement } from "./yard/placement.js";
import { createRestow } from "./yard/restow.js";
import { createSuggester } from "./yard/suggest.js";

export function createCargo(ctx, deps = {}) {
  const stores = createCargoStores();
  const registry = createRegistry(ctx, stores);
  const blocks = createBlocks(ctx, stores);
  const occupancy = createOccupancy(stores);
  const suggester = createSuggester(stores, occupancy);
  const plugs = createPlugs(ctx, { stores, registry, blocks });
  const placement = createPlacement(ctx, { stores, registry, blocks, occupancy });
  const moves = createMoves(ctx, { stores, registry, blocks, occupancy, plugs });
  const restow = createRestow({ registry, occupancy, suggester, moves });
  const vgm = createVgm(ctx, { stores, registry, occupancy });
  const search = createSearch(ctx, stores);
  const numbers = createNumberCache(ctx, { stores, registry });
  const readings = createReadings(ctx, stores);
  const alarms = createAlarms(ctx, stores);
  const telemetry = deps.reeferTelemetry ?? { read: () => null };
  const monitor = createReeferMonitor(ctx, { stores, registry, readings, alarms, telemetry });
  const appointments = createAppointments(ctx, stores, deps.gate);
  const charges = createDwellCharges(ctx, { billing: deps.billing ?? { chargeStorage: () => {} } });
  const gate = createGate(ctx, { stores, registry, occupancy, placement, plugs, restow, appointments, charges });
  const occupancyReport = createOccupancyReport(ctx, { blocks, occupancy, plugs, search });
  const housekeeping = createHousekeeping(ctx, { vgm, occupancy, suggester, moves });

  return {
    createBlock: blocks.createBlock,
    findBlock: blocks.findBlock,
    getBlock: blocks.getBlock,
    listBlocks: blocks.listBlocks,
    registerContainer: registry.registerContainer,
    findContainer: registry.findContainer,
    getContainer: registry.getContainer,
    findByNumber: numbers.byNumber,
    declareVgm: vgm.declareVgm,
    searchContainers: search.searchContainers,
    suggestSlot: suggester.suggestSlot,
    moveContainer: moves.moveContainer,
    uncover: restow.uncover,
    restowCount: restow.restowCount,
    plugIn: plugs.assign,
    unplug: plugs.release,
    bookAppointment: appointments.book,
    cancelAppointment: appointments.cancel,
    gateIn: gate.gateIn,
    gateOut: gate.gateOut,
    importManifest: (text) => importManifest(registry, text),
    importVgmDeclarations: (text) => importVgmDeclarations({ registry, vgm }, text),
    reports: {
      occupancy: occupancyReport,
      reefers: createReeferReport(ctx, { blocks, plugs, registry, readings, alarms }),
      dangerous: createDangerousReport({ occupancy, blocks }),
      dwell: createDwellReport(ctx, { stores }),
      gate: createTurnaround(stores),
      layout: (blockId) => blockLayout(blocks.getBlock(blockId), occupancy.stacksOf(blockId)),
    },
    awaitingRestow: vgm.awaitingRestow,
    /** The night housekeeping is started on its own by the deployment that wants it; stop() ends it too. */
    housekeeping: { run: housekeeping.run, start: housekeeping.start, stop: housekeeping.stop, running: housekeeping.running },
    sweepReefers: monitor.sweep,
    start() {
      numbers.start();
      monitor.start();
    },
    stop() {
      housekeeping.stop();
      monitor.stop();
      numbers.stop();
    },
  };
}
