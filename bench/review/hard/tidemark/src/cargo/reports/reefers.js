// The reefer board: per reefer block, plugs in use and free, and every plugged box with its
// set-point, its latest reading and its open alarm. Alarmed boxes first, then by slot.

import { byKeys, byString, descending } from "../../core/sort.js";
import { slotLabel } from "../records/slot.js";

export function createReeferReport(ctx, { blocks, plugs, registry, readings, alarms }) {
  function board() {
    return blocks.reeferBlocks().map((block) => {
      const rows = plugs.plugsInBlock(block.id).map((plug) => {
        const c = registry.getContainer(plug.containerId);
        const last = readings.latest(c.id);
        const alarm = alarms.openAlarmOf(c.id);
        return {
          number: c.number,
          slot: c.slot ? slotLabel(c.slot) : "",
          setPointC: c.setPointC,
          tempC: last ? last.tempC : null,
          readAt: last ? last.at : null,
          alarm: alarm ? alarm.kind : "",
        };
      });
      return {
        blockId: block.id,
        plugsUsed: rows.length,
        plugsFree: plugs.freePlugs(block.id),
        boxes: rows.toSorted(byKeys(descending(byString("alarm")), byString("slot"))),
      };
    });
  }

  return { board };
}
