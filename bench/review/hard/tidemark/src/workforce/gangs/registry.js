// Gangs: formed from registered workers, disbanded when the crew changes. A worker belongs to at
// most one active gang; a disbanded gang stays on file for old shifts.

import { EVENTS } from "../events.js";
import { newGang } from "../records/gang.js";
import { checkComposition } from "./composition.js";

export function createGangRegistry({ ctx, stores }) {
  const { gangs, ids } = stores;

  function formGang(input) {
    const record = newGang(input, ids.gangs.next(), ctx.clock.now());
    checkComposition(ctx.config, record, stores);
    const gang = gangs.insert(record);
    ctx.events.publish(EVENTS.gangFormed, { gangId: gang.id, memberIds: gang.memberIds });
    return gang;
  }

  function disbandGang(id) {
    const current = gangs.get(id);
    if (!current.active) return current;
    const gang = gangs.update(id, (g) => ({ ...g, active: false }));
    ctx.events.publish(EVENTS.gangDisbanded, { gangId: id });
    return gang;
  }

  const gangOf = (workerId) => gangs.list((g) => g.active && g.memberIds.includes(workerId))[0] ?? null;

  return {
    formGang,
    disbandGang,
    gangOf,
    findGang: (id) => gangs.find(id),
    getGang: (id) => gangs.get(id),
    listGangs: () => gangs.list((g) => g.active),
  };
}
