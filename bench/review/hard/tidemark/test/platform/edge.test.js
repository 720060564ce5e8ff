import assert from "node:assert/strict";
import { test } from "node:test";
import { enumParam, metresParam, timeParam, tonnesParam, windowParam } from "../../src/platform/http/edge.js";
import { present } from "../../src/platform/http/present.js";
import { T0 } from "../support/context.js";
import { HOUR } from "../../src/core/time.js";

test("ISO times become epoch ms at the edge", () => {
  assert.equal(timeParam({ at: "2026-03-02T00:00:00Z" }, "at"), T0);
  assert.equal(timeParam({}, "at"), undefined);
  assert.throws(() => timeParam({}, "at", { required: true }), /at: is required/);
  assert.throws(() => timeParam({ at: "yesterday" }, "at"), /not an ISO time/);
});

test("a window needs both ends and is half-open", () => {
  assert.deepEqual(windowParam({ from: "2026-03-02T00:00:00Z", to: "2026-03-02T01:00:00Z" }), { start: T0, end: T0 + HOUR });
  assert.equal(windowParam({}), undefined);
  assert.throws(() => windowParam({ from: "2026-03-02T00:00:00Z" }), /to: from and to go together/);
  assert.throws(() => windowParam({ from: "2026-03-02T01:00:00Z", to: "2026-03-02T00:00:00Z" }), /end must be after start/);
});

test("metres and tonnes become whole cm and kg", () => {
  assert.equal(metresParam({ lengthM: 199.9 }, "lengthM"), 19_990);
  assert.equal(metresParam({ draftM: "11.205" }, "draftM"), 1_121);
  assert.equal(tonnesParam({ massT: 28.4567 }, "massT"), 28_457);
  assert.throws(() => metresParam({ lengthM: -3 }, "lengthM"), /positive number/);
  assert.throws(() => metresParam({}, "lengthM"), /lengthM/);
});

test("enum parameters", () => {
  assert.equal(enumParam({ s: "sent" }, "s", ["sent", "failed"]), "sent");
  assert.equal(enumParam({}, "s", ["sent"]), undefined);
  assert.throws(() => enumParam({ s: "lost" }, "s", ["sent"]), /must be one of sent/);
});

test("present turns times into ISO and leaves units alone", () => {
  const out = present({ id: "CAL-000001", eta: T0, etd: T0 + HOUR, lengthCm: 19_990, lastChange: { at: T0 }, sentAt: null });
  assert.deepEqual(out, {
    id: "CAL-000001",
    eta: "2026-03-02T00:00:00.000Z",
    etd: "2026-03-02T01:00:00.000Z",
    lengthCm: 19_990,
    lastChange: { at: "2026-03-02T00:00:00.000Z" },
    sentAt: null,
  });
});
