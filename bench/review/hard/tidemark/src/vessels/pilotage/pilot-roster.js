// The pilots of the Alvarim pilot station. Each holds a licence up to a size class; a pilot on
// leave is inactive and offered for no job. Pilots are workers of the port, so their lock key is
// "worker:<id>".

import { ValidationError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { oneOf, required } from "../../core/validate.js";
import { SIZE_CLASSES, licenceCovers } from "../register/size-class.js";

export function createPilotRoster(ctx) {
  const store = createStore("pilot");
  const ids = idSequence("PLT");

  function addPilot(input) {
    required(input, ["name", "licence"]);
    const name = String(input.name).trim();
    if (name.length < 3) throw new ValidationError("name", "too short");
    const pilot = store.insert({ id: ids.next(), name, licence: oneOf(input.licence, SIZE_CLASSES, "licence"), active: true });
    ctx.events.publish("pilot.added", { pilotId: pilot.id });
    return pilot;
  }

  async function setActive(id, active) {
    return ctx.locks.withLock(`worker:${id}`, async () => {
      const pilot = store.update(id, (draft) => ({ ...draft, active: Boolean(active) }));
      ctx.events.publish("pilot.changed", { pilotId: id, active: pilot.active });
      return pilot;
    });
  }

  async function upgradeLicence(id, licence) {
    oneOf(licence, SIZE_CLASSES, "licence");
    return ctx.locks.withLock(`worker:${id}`, async () => {
      const current = store.get(id);
      if (licenceCovers(current.licence, licence)) throw new ValidationError("licence", `${current.name} already holds ${current.licence}`);
      return store.update(id, (draft) => ({ ...draft, licence }));
    });
  }

  return {
    addPilot,
    setActive,
    upgradeLicence,
    findPilot: (id) => store.find(id),
    getPilot: (id) => store.get(id),
    /** Active pilots licensed for the class, in id order. */
    pilotsFor: (sizeClass) => store.list((p) => p.active && licenceCovers(p.licence, sizeClass)),
    listPilots: () => store.list(),
  };
}
