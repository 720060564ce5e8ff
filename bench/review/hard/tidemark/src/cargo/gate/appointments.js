// Gate appointments: a haulier books a truck into a slot. A slot takes trucksPerSlot bookings; a
// cancelled booking frees its place.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { overlaps, parseIso } from "../../core/time.js";
import { APPOINTMENT_BOOKED, APPOINTMENT_CANCELLED } from "../events.js";
import { newAppointment } from "../records/appointment.js";
import { slotStartingAt, TRUCKS_PER_SLOT } from "./slots.js";

export function createAppointments(ctx, stores, { trucksPerSlot = TRUCKS_PER_SLOT } = {}) {
  const { appointments } = stores;

  /** Live bookings whose slot overlaps the window. */
  const bookedIn = (window) => appointments.list((a) => a.status === "booked" && overlaps(a.window, window));

  function book(input) {
    const start = typeof input.start === "string" ? parseIso(input.start, "start") : input.start;
    const window = slotStartingAt(start);
    if (window.end <= ctx.clock.now()) throw new ValidationError("start", "that slot is over");
    if (bookedIn(window).length >= trucksPerSlot) throw new ConflictError("that gate slot is full");
    const appointment = appointments.insert(newAppointment(input, stores.ids.appointment.next(), window));
    ctx.events.publish(APPOINTMENT_BOOKED, { appointmentId: appointment.id, window });
    return appointment;
  }

  function cancel(id) {
    const current = appointments.get(id);
    if (current.status !== "booked") throw new ConflictError(`appointment ${id} is ${current.status}`);
    const cancelled = appointments.update(id, (a) => ({ ...a, status: "cancelled" }));
    ctx.events.publish(APPOINTMENT_CANCELLED, { appointmentId: id });
    return cancelled;
  }

  function markUsed(id, at) {
    return appointments.update(id, (a) => ({ ...a, status: "used", usedAt: at }));
  }

  const freePlaces = (window) => trucksPerSlot - bookedIn(window).length;

  return {
    book,
    cancel,
    markUsed,
    freePlaces,
    bookedIn,
    findAppointment: (id) => appointments.find(id),
    getAppointment: (id) => appointments.get(id),
  };
}
