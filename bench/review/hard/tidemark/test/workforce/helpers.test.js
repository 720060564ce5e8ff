import assert from "node:assert/strict";
import { test } from "node:test";
import { createStore } from "../../src/core/store.js";
import { DAY } from "../../src/core/time.js";
import { daysLeft, inForceAt } from "../../src/workforce/certificates/validity.js";
import { membersLacking } from "../../src/workforce/gangs/composition.js";
import { annualBalance, leaveDaysIn } from "../../src/workforce/leave/overlap.js";
import { overtimeByDay } from "../../src/workforce/pay/overtime.js";
import { bestRateMinor, rateCard } from "../../src/workforce/pay/rates.js";
import { operationSpan } from "../../src/workforce/ports.js";
import { gangLabel, gangName } from "../../src/workforce/records/gang.js";
import { skillLabel } from "../../src/workforce/records/skills.js";
import { fitsOperation, longestShiftMinutes } from "../../src/workforce/shifts/limits.js";
import { registerRow, shortName } from "../../src/workforce/workers/format.js";
import { T0, at } from "./fixtures.js";

test("leave days are counted inside a window, and the annual balance from the year's leave", () => {
  const leave = createStore("leave request");
  leave.insert({ id: "LVE-000001", workerId: "W", kind: "annual", status: "approved", start: at(0), end: at(5) });
  leave.insert({ id: "LVE-000002", workerId: "W", kind: "sick", status: "approved", start: at(8), end: at(9) });
  leave.insert({ id: "LVE-000003", workerId: "W", kind: "annual", status: "requested", start: at(20), end: at(25) });
  assert.equal(leaveDaysIn(leave, "W", { start: at(3), end: at(10) }), 3);
  assert.equal(annualBalance(leave, "W", 2026), 20);
  assert.equal(annualBalance(leave, "W", 2027, 22), 22);
});

test("overtime is summed per day of clock-in", () => {
  const sheets = [
    { clockIn: at(1, 6), paid: 600 },
    { clockIn: at(0, 6), paid: 480 },
    { clockIn: at(1, 20), paid: 240 },
  ];
  const rows = overtimeByDay(sheets, (s) => s.paid);
  assert.deepEqual(rows.map((r) => [r.day, r.paidMinutes, r.overtimeMinutes, r.sheets]), [
    [at(0), 480, 0, 1],
    [at(1), 840, 120, 2],
  ]);
});

test("the rate card lists the best-paid skills first", () => {
  const card = rateCard();
  assert.equal(card[0].skill, "foreman");
  assert.equal(card[0].text, "foreman        26,00 EUR/h");
  assert.equal(bestRateMinor(["lashing", "crane"]), 2_450);
  assert.throws(() => bestRateMinor([]), /no paid skill/);
});

test("certificates: in force half-open, days left counted like the tariff", () => {
  const cert = { revoked: false, validity: { start: T0, end: T0 + 10 * DAY } };
  assert.equal(inForceAt(cert, T0), true);
  assert.equal(inForceAt(cert, T0 + 10 * DAY), false);
  assert.equal(daysLeft(cert, T0 + DAY / 2), 10);
  assert.equal(daysLeft(cert, T0 + 10 * DAY), 0);
});

test("gangs: names, labels and members lacking a skill", () => {
  assert.equal(gangName("  Gang   Norte "), "Gang Norte");
  assert.throws(() => gangName("G"), /not a gang name/);
  assert.equal(gangLabel({ id: "GNG-000001", name: "Gang Norte", active: false }), "GNG-000001 Gang Norte (disbanded)");
  const workers = createStore("worker");
  workers.insert({ id: "W1", skills: ["foreman"] });
  workers.insert({ id: "W2", skills: ["lashing"] });
  workers.insert({ id: "W3", skills: ["checker"] });
  assert.deepEqual(membersLacking({ foremanId: "W1", memberIds: ["W1", "W2", "W3"] }, workers, "lashing"), ["W3"]);
});

test("operations, shifts, skills and worker rows", () => {
  assert.throws(() => operationSpan({ start: at(1), end: at(0) }), /end must be after start/);
  assert.equal(fitsOperation({ start: at(0, 6), end: at(0, 14) }, { start: at(0, 6), end: at(0, 14) }), true);
  assert.equal(fitsOperation({ start: at(0, 6), end: at(0, 14) }, { start: at(0, 5), end: at(0, 14) }), false);
  assert.equal(longestShiftMinutes([{ start: at(0, 6), end: at(0, 14) }, { start: at(1, 6), end: at(1, 16) }]), 600);
  assert.equal(skillLabel("foreman"), "capataz");
  assert.equal(shortName("Nuno Miguel Reis"), "N. Reis");
  assert.equal(registerRow({ registrationNo: "ALV-0412", name: "Nuno Reis", skills: ["crane", "lashing"], maxLiftKg: 42_500 }), "ALV-0412;Nuno Reis;crane,lashing;42,5");
});
