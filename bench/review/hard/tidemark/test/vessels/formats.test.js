import assert from "node:assert/strict";
import { test } from "node:test";
import { agentCard, agentReviewLine } from "../../src/vessels/agents/agent-format.js";
import { callSummary } from "../../src/vessels/calls/call-store.js";
import { stateLabel } from "../../src/vessels/calls/call-states.js";
import { isOverstaying, overstayMinutes } from "../../src/vessels/calls/stay.js";
import { directionOf } from "../../src/vessels/calls/voyage.js";
import { deadlinesOf } from "../../src/vessels/documents/deadlines.js";
import { kindTitle, outstandingKinds } from "../../src/vessels/documents/document-kinds.js";
import { mayUseQuay, quaysFor } from "../../src/vessels/register/vessel-types.js";
import { renderCsv } from "../../src/vessels/reports/report-format.js";
import { HOUR, T0, withCall } from "./fixtures.js";

test("quays by vessel type", () => {
  assert.deepEqual(quaysFor("tanker"), ["Q4"]);
  assert.equal(mayUseQuay("cruise", "Q1"), true);
  assert.equal(mayUseQuay("container", "Q1"), false);
});

test("overstaying starts at the ETD", async () => {
  const { ctx, vessels, call } = await withCall();
  ctx.clock.set(call.eta);
  const arrived = await vessels.arrive(call.id);
  assert.equal(isOverstaying(arrived, call.etd - 1), false);
  assert.equal(isOverstaying(arrived, call.etd), true);
  assert.equal(overstayMinutes(arrived, call.etd + 2 * HOUR), 120);
  assert.equal(stateLabel(arrived.state), "At anchorage");
  assert.deepEqual(Object.keys(callSummary(arrived)), ["id", "vesselId", "voyage", "state", "eta", "etd", "berthId"]);
});

test("document checklist and titles", async () => {
  const { call, vessel } = await withCall();
  assert.deepEqual(deadlinesOf(["crew_list", "dg_declaration"], call, T0).map((d) => d.kind), ["dg_declaration", "crew_list"]);
  assert.equal(kindTitle("crew_list"), "Crew list (FAL 5)");
  assert.deepEqual(outstandingKinds(vessel, ["crew_list"]), []);
  assert.equal(directionOf("042N"), "northbound");
});

test("CSV quotes what needs quoting; agent lines", () => {
  assert.equal(renderCsv(["a", "b"], [["x;y", 'say "hi"'], [1, null]]), 'a;b\n"x;y";"say ""hi"""\n1;');
  const agent = { code: "ALVSH", name: "Alvarim Shipping", email: "ops@alvship.pt", phone: null, active: false };
  assert.match(agentReviewLine(agent, { calls: 4, etaRevisions: 3 }), /4 calls, 3 ETA revisions \(0,8 a call\)/);
  assert.equal(agentCard(agent).status, "inactive — cannot declare calls");
});
