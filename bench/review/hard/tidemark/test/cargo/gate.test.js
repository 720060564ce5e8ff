import assert from "node:assert/strict";
import { test } from "node:test";
import { slotContaining, slotsOfDay, slotStartingAt } from "../../src/cargo/gate/slots.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0 } from "../support/context.js";
import { aBox, boxAt, cargoUnderTest, slot } from "./fixtures.js";

const booking = (number, start, kind = "drop") => ({ containerNumber: number, kind, haulier: "Transportes Vale", truckPlate: "AA-12-BC", start });

test("the gate day is sixteen hour-long slots, end to start", () => {
  const slots = slotsOfDay(T0 + 3 * HOUR);
  assert.equal(slots.length, 16);
  assert.equal(slots[0].start, T0 + 6 * HOUR);
  assert.equal(slots[1].start, slots[0].end);
  assert.equal(slotContaining(T0 + 7 * HOUR).start, T0 + 7 * HOUR);
  assert.equal(slotContaining(T0 + 22 * HOUR), null);
  assert.throws(() => slotStartingAt(T0 + 7 * HOUR + 1), /start of a gate slot/);
});

test("a slot takes trucksPerSlot bookings; cancelling frees a place", () => {
  const { cargo } = cargoUnderTest();
  const start = T0 + DAY + 8 * HOUR;
  const made = [];
  for (let i = 0; i < 24; i++) made.push(cargo.bookAppointment(booking(aBox().number, start)));
  assert.throws(() => cargo.bookAppointment(booking(aBox().number, start)), /slot is full/);
  cargo.bookAppointment(booking(aBox().number, start + HOUR));
  cargo.cancelAppointment(made[0].id);
  assert.throws(() => cargo.cancelAppointment(made[0].id), /is cancelled/);
  cargo.bookAppointment(booking(aBox().number, new Date(start).toISOString()));
});

test("a slot that is over cannot be booked", () => {
  const { cargo, ctx } = cargoUnderTest();
  ctx.clock.set(T0 + 9 * HOUR + 30 * 60_000);
  assert.throws(() => cargo.bookAppointment(booking(aBox().number, T0 + 8 * HOUR)), /slot is over/);
  cargo.bookAppointment(booking(aBox().number, T0 + 9 * HOUR));
});

test("gate in on time against a drop appointment", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const box = cargo.registerContainer(aBox());
  const appointment = cargo.bookAppointment(booking(box.number, T0 + 8 * HOUR));
  ctx.clock.set(T0 + 8 * HOUR + 10 * 60_000);
  const { visit } = await cargo.gateIn(box.id, slot("A1-01-01-1"), { appointmentId: appointment.id });
  assert.deepEqual(visit, { appointmentId: appointment.id, onTime: true });
});

test("a truck arriving as its slot ends is late", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const box = cargo.registerContainer(aBox());
  const appointment = cargo.bookAppointment(booking(box.number, T0 + 8 * HOUR));
  ctx.clock.set(T0 + 9 * HOUR);
  const { visit } = await cargo.gateIn(box.id, slot("A1-01-01-1"), { appointmentId: appointment.id });
  assert.equal(visit.onTime, false);
});

test("gate out restows, unplugs and charges the days past the free ones", async () => {
  const { cargo, ctx, charges } = cargoUnderTest();
  const reefer = await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  ctx.clock.advance(7 * DAY + HOUR);
  const { container, charge } = await cargo.gateOut(reefer.id);
  assert.equal(container.status, "departed");
  assert.equal(container.slot, null);
  assert.equal(charge.days, 3);
  assert.deepEqual(charges, [{ containerId: reefer.id, number: reefer.number, line: "MSC", teu: 2, reefer: true, days: 3 }]);
  assert.equal(cargo.reports.reefers.board()[0].plugsUsed, 0);
  await assert.rejects(cargo.gateOut(reefer.id), /is departed/);
});

test("a box that left can be announced again under its number", async () => {
  const { cargo } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  await cargo.gateOut(box.id);
  const again = cargo.registerContainer(aBox({ number: box.number }));
  assert.notEqual(again.id, box.id);
  assert.equal(cargo.findByNumber(box.number).id, again.id);
});

test("punctuality per haulier and the trucks that never came", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const slot8 = T0 + 8 * HOUR;
  const a = cargo.registerContainer(aBox());
  const b = cargo.registerContainer(aBox());
  const c = cargo.registerContainer(aBox());
  const ta = cargo.bookAppointment(booking(a.number, slot8));
  const tb = cargo.bookAppointment({ ...booking(b.number, slot8), haulier: "Rodoviaria Sul" });
  cargo.bookAppointment(booking(c.number, slot8));
  ctx.clock.set(slot8 + 20 * 60_000);
  await cargo.gateIn(a.id, slot("A1-01-01-1"), { appointmentId: ta.id });
  ctx.clock.set(slot8 + HOUR + 5 * 60_000 + 1);
  await cargo.gateIn(b.id, slot("A1-02-01-1"), { appointmentId: tb.id });
  const rows = cargo.reports.gate.punctuality({ from: T0, to: T0 + DAY });
  assert.deepEqual(rows.map((r) => [r.haulier, r.visits, r.onTime, r.minutesLate, r.onTimePermille]), [
    ["Rodoviaria Sul", 1, 0, 6, 0],
    ["Transportes Vale", 1, 1, 0, 1000],
  ]);
  assert.deepEqual(cargo.reports.gate.noShows(ctx.clock.now()).map((x) => x.containerNumber), [c.number]);
});
