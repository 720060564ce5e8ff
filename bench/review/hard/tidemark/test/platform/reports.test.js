import assert from "node:assert/strict";
import { test } from "node:test";
import { csvField, parseCsv, toCsv } from "../../src/platform/reports/csv.js";
import { metres, money, time } from "../../src/platform/reports/columns.js";
import { as, makePlatform, T0 } from "./fixtures.js";

test("csv fields are quoted and formulas defused", () => {
  assert.equal(csvField('Cabo "Norte", Lda'), '"Cabo ""Norte"", Lda"');
  assert.equal(csvField("=HYPERLINK(1)"), "'=HYPERLINK(1)");
  assert.equal(csvField("-12,50 EUR"), '"-12,50 EUR"');
  assert.equal(csvField(null), "");
  const text = toCsv([{ header: "a", value: (r) => r.a }, { header: "b", value: (r) => r.b }], [{ a: "x,y", b: 'q"' }]);
  assert.equal(text, 'a,b\r\n"x,y","q"""\r\n');
  assert.deepEqual(parseCsv(text), [["a", "b"], ["x,y", 'q"']]);
});

test("columns print money, metres and times the port's way", () => {
  assert.equal(money("m", (r) => r.m).value({ m: 123_450, currency: "EUR" }), "1 234,50 EUR");
  assert.equal(metres("l", (r) => r.l).value({ l: 19_990 }), "199.90");
  assert.equal(metres("l", (r) => r.l).value({}), "");
  assert.equal(time("t", (r) => r.t).value({ t: T0 }), "2026-03-02T00:00:00.000Z");
});

test("calls.csv for staff lists every call in the half-open window", async () => {
  const { platform, users } = makePlatform();
  platform.audit.trail.record({ action: "call.updated", entityType: "call", entityId: "CAL-000002", actorId: users.planner.id });
  const planner = await as(platform, users.planner);
  const res = await planner("GET", "/reports/calls.csv?from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z");
  assert.equal(res.status, 200);
  assert.equal(res.contentType, "text/csv; charset=utf-8");
  assert.equal(res.filename, "PTALV-2026-03-02-calls.csv");
  const rows = parseCsv(res.body);
  assert.deepEqual(rows[0], ["call", "vessel", "imo", "loa_m", "berth", "eta", "etd", "status", "last_changed_by"]);
  assert.deepEqual(rows.slice(1).map((r) => [r[0], r[3], r[8]]), [
    ["CAL-000001", "199.90", ""],
    ["CAL-000002", "224.50", "Ana Reis"],
  ]);
});

test("calls.csv for an agent holds its own vessels, while the flag allows", async () => {
  const { platform, users } = makePlatform();
  const agent = await as(platform, users.agentA);
  const rows = parseCsv((await agent("GET", "/reports/calls.csv?status=expected")).body);
  assert.deepEqual(rows.slice(1).map((r) => r[0]), ["CAL-000003"]);
  platform.flags.set("agentCsvExport", false);
  assert.equal((await agent("GET", "/reports/calls.csv")).status, 403);
});

test("invoices.csv totals per currency from the rounded lines", async () => {
  const { platform, users } = makePlatform();
  const clerk = await as(platform, users.clerk);
  const rows = parseCsv((await clerk("GET", "/reports/invoices.csv")).body);
  assert.deepEqual(rows.slice(1).map((r) => [r[0], r[2], r[7]]), [
    ["INV-000001", "Maria Alvarim", "1 230,00 EUR"],
    ["INV-000002", "Cabo Espichel", "615,06 EUR"],
    ["INV-000003", "Tejo Star", "800,00 USD"],
    ["TOTAL EUR", "", "1 845,06 EUR"],
    ["TOTAL USD", "", "800,00 USD"],
  ]);
  const agent = await as(platform, users.agentA);
  assert.equal((await agent("GET", "/reports/invoices.csv")).status, 403);
});

test("audit.csv and unknown reports", async () => {
  const { platform, users } = makePlatform();
  platform.audit.trail.record({ action: "user.roleChanged", entityType: "user", entityId: users.clerk.id, actorId: users.master.id });
  const master = await as(platform, users.master);
  const rows = parseCsv((await master("GET", "/reports/audit.csv?entityType=user")).body);
  assert.deepEqual(rows[1].slice(2), ["USR-000001", "Rui Costa", "user.roleChanged", "user USR-000003", "USR-000001 user.roleChanged user USR-000003"]);
  assert.equal((await master("GET", "/reports/berths.csv")).status, 404);
  assert.deepEqual((await master("GET", "/reports")).body.reports, ["calls.csv", "invoices.csv", "audit.csv"]);
});
