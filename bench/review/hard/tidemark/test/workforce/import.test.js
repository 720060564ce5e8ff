import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWorkerList } from "../../src/workforce/workers/import.js";
import { displayName, workerLine } from "../../src/workforce/workers/format.js";
import { setup } from "./fixtures.js";

const LIST = `# registo de estivadores
ALV-0412;Nuno Reis;crane,lashing;42,5
ALV-0413;Ana Lopes;checker
ALV-0414;Rui;lashing;-3
bad line
ALV-0415;Sara Neves;reach-stacker;`;

test("the union list is parsed, tonnes becoming kilograms", () => {
  const { rows, errors } = parseWorkerList(LIST);
  assert.equal(rows.length, 3);
  assert.equal(rows[0].maxLiftKg, 42_500);
  assert.equal(rows[1].maxLiftKg, null);
  assert.deepEqual(errors.map((e) => e.line), [4, 5]);
});

test("importing registers what validates and reports the rest", () => {
  const { wf } = setup();
  wf.registerWorker({ registrationNo: "ALV-0413", name: "Ana Lopes", skills: ["checker"] });
  const { imported, errors } = wf.importWorkers(LIST);
  assert.deepEqual(imported.map((w) => w.registrationNo), ["ALV-0412", "ALV-0415"]);
  assert.ok(errors.some((e) => e.registrationNo === "ALV-0413" && /already in use/.test(e.message)));
});

test("workers print surname first with their crane rating", () => {
  assert.equal(displayName("Maria da Graca Pires"), "Pires, Maria da Graca");
  const line = workerLine({ registrationNo: "ALV-0412", name: "Nuno Reis", skills: ["crane"], maxLiftKg: 42_500, active: false });
  assert.equal(line, "ALV-0412 Reis, Nuno [crane] 42.5 t (left)");
});
