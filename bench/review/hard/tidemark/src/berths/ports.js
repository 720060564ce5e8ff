// What the berth module needs from the vessels module, as a small port:
//   deps.vessels.findVessel(vesselId) → { id, name, type, lengthCm, draughtCm } | null
// lengthCm is the length overall, draughtCm the maximum draught of the call (both whole cm).
// The platform wiring passes the vessels module's function; tests pass a fake (fixtures.js).

import { NotFoundError, ValidationError } from "../core/errors.js";
import { assertWhole } from "../core/units.js";
import { assertVesselType } from "./records/vesselTypes.js";

export function vesselPort(deps = {}) {
  const source = deps.vessels;
  if (!source || typeof source.findVessel !== "function") throw new ValidationError("deps.vessels", "needs findVessel(vesselId)");

  function findVessel(vesselId) {
    const vessel = source.findVessel(vesselId);
    if (!vessel) return null;
    assertWhole(vessel.lengthCm, "vessel.lengthCm");
    assertWhole(vessel.draughtCm, "vessel.draughtCm");
    assertVesselType(vessel.type, "vessel.type");
    return vessel;
  }

  return {
    findVessel,
    getVessel(vesselId) {
      const vessel = findVessel(vesselId);
      if (!vessel) throw new NotFoundError("vessel", vesselId);
      return vessel;
    },
  };
}
