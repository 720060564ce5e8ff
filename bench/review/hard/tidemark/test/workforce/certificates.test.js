import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../../src/core/time.js";
import { coveringCertificate, expiringSoon, isCertifiedFor } from "../../src/workforce/certificates/validity.js";
import { EVENTS } from "../../src/workforce/events.js";
import { T0, at, setup } from "./fixtures.js";

const cert = (id, end, extra = {}) => ({ id, skill: "crane", revoked: false, validity: { start: T0 - DAY, end }, ...extra });

test("a certificate must cover the whole shift, its end excluded", () => {
  const shift = { start: at(0, 6), end: at(0, 14) };
  assert.equal(isCertifiedFor([cert("a", at(0, 14))], "crane", shift), true);
  assert.equal(isCertifiedFor([cert("a", at(0, 13))], "crane", shift), false);
  assert.equal(isCertifiedFor([cert("a", at(0, 14), { revoked: true })], "crane", shift), false);
  assert.equal(isCertifiedFor([], "checker", shift), true);
});

test("of several covering certificates the longest-running is used", () => {
  const shift = { start: at(0, 6), end: at(0, 14) };
  assert.equal(coveringCertificate([cert("a", at(5)), cert("b", at(9)), cert("c", at(2))], "crane", shift).id, "b");
  assert.equal(coveringCertificate([cert("a", at(5))], "lashing", shift), null);
});

test("certificates are added for registered skills only, numbers unique", () => {
  const { wf } = setup();
  const w = wf.registerWorker({ registrationNo: "ALV-0101", name: "Joao Pinto", skills: ["lashing"] });
  const input = { workerId: w.id, skill: "lashing", number: "la-0001", validFrom: T0, validUntil: T0 + 90 * DAY };
  const c = wf.addCertificate(input);
  assert.equal(c.number, "LA-0001");
  assert.throws(() => wf.addCertificate(input), /already on file/);
  assert.throws(() => wf.addCertificate({ ...input, skill: "crane", number: "CR-0001" }), /not registered for crane/);
  assert.throws(() => wf.addCertificate({ ...input, skill: "checker", number: "CH-0001" }), /needs no certificate/);
  assert.throws(() => wf.addCertificate({ ...input, number: "LA-0002", validUntil: T0 }), /end must be after start/);
  assert.deepEqual(wf.certificatesOf(w.id).map((x) => x.id), [c.id]);
});

test("the expiry watch warns once about certificates running out within 30 days", () => {
  const { wf, ctx } = setup();
  const w = wf.registerWorker({ registrationNo: "ALV-0102", name: "Joao Pinto", skills: ["lashing", "straddle"] });
  wf.addCertificate({ workerId: w.id, skill: "lashing", number: "LA-0100", validFrom: T0 - DAY, validUntil: T0 + 10 * DAY });
  wf.addCertificate({ workerId: w.id, skill: "straddle", number: "ST-0100", validFrom: T0 - DAY, validUntil: T0 + 40 * DAY });
  const seen = [];
  ctx.events.subscribe(EVENTS.certificateExpiring, (e) => seen.push(e.skill));
  wf.start();
  ctx.scheduler.tick(DAY);
  assert.deepEqual(seen, ["lashing"]);
  ctx.scheduler.tick(DAY);
  assert.deepEqual(seen, ["lashing"]);
  ctx.scheduler.tick(10 * DAY);
  assert.deepEqual(seen, ["lashing", "straddle"]);
  wf.stop();
  assert.equal(ctx.scheduler.pending(), 0);
});

test("expiringSoon lists soonest first and skips what has ended", () => {
  const list = [cert("a", T0 + 5 * HOUR), cert("b", T0 + HOUR), cert("c", T0 - HOUR)];
  assert.deepEqual(expiringSoon(list, T0, DAY).map((c) => c.id), ["b", "a"]);
});
