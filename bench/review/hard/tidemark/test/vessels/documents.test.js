import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDgDeclaration } from "../../src/vessels/documents/dg-declaration.js";
import { dueAt, describeDeadline } from "../../src/vessels/documents/deadlines.js";
import { DAY, HOUR, IMO, crewList, vesselInput, withCall } from "./fixtures.js";

test("a crew list is checked and summarised", async () => {
  const { vessels, call } = await withCall();
  const doc = vessels.submitDocument({ callId: call.id, kind: "crew_list", content: crewList(4) });
  assert.deepEqual(doc.summary, { crewCount: 4, master: "João Mar", nationalities: ["PH", "PT"] });
  assert.equal(doc.onTime, true);
  const noMaster = { crew: crewList(2).crew.map((m) => ({ ...m, rank: "rating" })) };
  assert.throws(() => vessels.submitDocument({ callId: call.id, kind: "crew_list", content: noMaster }), /exactly one master/);
});

test("a new version supersedes the old one", async () => {
  const { vessels, call } = await withCall();
  const first = vessels.submitDocument({ callId: call.id, kind: "crew_list", content: crewList(3) });
  const second = vessels.submitDocument({ callId: call.id, kind: "crew_list", content: crewList(5) });
  assert.equal(second.summary.crewCount, 5);
  assert.equal(vessels.missingDocuments(72).length, 0);
  assert.ok(first.id < second.id);
});

test("dangerous goods: tonnes to kilograms, totals per class", () => {
  const summary = checkDgDeclaration({ items: [{ un: "un1203", class: "3", tonnes: 12.5 }, { un: "UN1075", class: "2.1", tonnes: 0.75 }, { un: "UN1263", class: "3", tonnes: 1 }] });
  assert.equal(summary.totalMassKg, 14_250);
  assert.deepEqual(summary.massByClassKg, { 3: 13_500, 2.1: 750 });
  assert.equal(summary.outerQuayOnly, true);
  assert.throws(() => checkDgDeclaration({ items: [{ un: "1203", class: "3", tonnes: 1 }] }), /items\[0\]\.un/);
});

test("deadlines follow the ETA; received at the deadline is late", async () => {
  const { ctx, vessels, call } = await withCall({ vessel: { imo: IMO.tanker, type: "tanker" } });
  assert.equal(dueAt("dg_declaration", call), call.eta - 48 * HOUR);
  const missing = vessels.missingDocuments(48);
  assert.deepEqual(missing.map((m) => [m.kind, m.overdue]), [["dg_declaration", true], ["crew_list", false]]);
  ctx.clock.set(dueAt("crew_list", call));
  const late = vessels.submitDocument({ callId: call.id, kind: "crew_list", content: crewList() });
  assert.equal(late.onTime, false);
  assert.match(describeDeadline("crew_list", call, call.eta - 30 * HOUR), /due .* \(in 6 h 0 min\)/);
});

test("documents are refused for a departed call", async () => {
  const { ctx, vessels, call } = await withCall({ vessel: vesselInput() });
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  await vessels.depart(call.id);
  assert.throws(() => vessels.submitDocument({ callId: call.id, kind: "crew_list", content: crewList() }), /departed/);
});
