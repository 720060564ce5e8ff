import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld } from "./fixtures.js";

test("berths page in id order", () => {
  const { api } = berthWorld({ config: { paging: { defaultLimit: 3 } } });
  const first = api.listBerths();
  assert.deepEqual(first.items.map((b) => b.id), ["B1-1", "B1-2", "B1-3"]);
  assert.deepEqual(api.listBerths({ cursor: first.nextCursor }).items.map((b) => b.id), ["B2-1"]);
  assert.equal(first.items[0].lengthCm, 20_000);
});

test("berths filter by quay, vessel type and depth", () => {
  const { api } = berthWorld();
  assert.deepEqual(api.listBerths({ quayId: "Q2" }).items.map((b) => b.id), ["B2-1"]);
  assert.deepEqual(api.listBerths({ vesselType: "reefer" }).items.map((b) => b.id), ["B1-2"]);
  assert.deepEqual(api.listBerths({ minDepthCm: 1_300 }).items.map((b) => b.id), ["B1-1", "B2-1"]);
  assert.throws(() => api.listBerths({ vesselType: "yacht" }), /unknown vessel type/);
});
