// What happens at the truck gate. In: the box takes its slot (placement) and a reefer goes on a
// plug. Out: whatever stands on the box is restowed, the reefer is unplugged, the box leaves and its
// storage past the free days is charged.

import { ConflictError } from "../../core/errors.js";
import { contains } from "../../core/time.js";
import { CONTAINER_GATED_OUT } from "../events.js";
import { isReefer } from "../records/container.js";

export function createGate(ctx, { stores, registry, occupancy, placement, plugs, restow, appointments, charges }) {
  function useAppointment(appointmentId, container, kind) {
    if (appointmentId === undefined) return null;
    const appointment = appointments.getAppointment(appointmentId);
    if (appointment.status !== "booked") throw new ConflictError(`appointment ${appointmentId} is ${appointment.status}`);
    if (appointment.kind !== kind || appointment.containerNumber !== container.number) {
      throw new ConflictError(`appointment ${appointmentId} is not a ${kind} of ${container.number}`);
    }
    const now = ctx.clock.now();
    appointments.markUsed(appointmentId, now);
    return { appointmentId, onTime: contains(appointment.window, now) };
  }

  async function gateIn(containerId, slot, { appointmentId } = {}) {
    const container = registry.getContainer(containerId);
    if (isReefer(container) && plugs.freePlugs(slot.blockId) <= 0) throw new ConflictError(`block ${slot.blockId} has no free plug`);
    const placed = await placement.placeContainer(containerId, slot);
    if (isReefer(placed)) await plugs.assign(slot.blockId, containerId);
    const visit = useAppointment(appointmentId, placed, "drop");
    return { container: registry.getContainer(containerId), visit };
  }

  async function gateOut(containerId, { appointmentId } = {}) {
    const before = registry.getContainer(containerId);
    if (before.status !== "in-yard") throw new ConflictError(`${before.number} is ${before.status}`);
    await restow.uncover(containerId);
    await plugs.release(containerId);
    const blockId = registry.getContainer(containerId).slot.blockId;
    const gone = await ctx.locks.withLock(`block:${blockId}`, async () => {
      const c = registry.getContainer(containerId);
      const top = occupancy.topOf(c.slot.blockId, c.slot.row, c.slot.bay);
      if (top.id !== containerId) throw new ConflictError(`${c.number} is under ${top.number}`);
      const out = stores.containers.update(containerId, (r) => ({ ...r, status: "departed", slot: null, gateOutAt: ctx.clock.now() }));
      ctx.events.publish(CONTAINER_GATED_OUT, { containerId, from: c.slot });
      return out;
    });
    const visit = useAppointment(appointmentId, gone, "pickup");
    return { container: gone, charge: charges.chargeDwell(gone), visit };
  }

  return { gateIn, gateOut };
}
