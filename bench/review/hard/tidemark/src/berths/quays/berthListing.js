// The paged list of berths the planners' screen shows: filtered by quay, vessel type or minimum
// depth, paged by cursor over berth ids.

import { paginate } from "../../core/paging.js";
import { byString } from "../../core/sort.js";
import { assertWhole } from "../../core/units.js";
import { assertVesselType, servesType } from "../records/vesselTypes.js";
import { berthLengthCm } from "../records/berth.js";

function matcher(query) {
  const checks = [];
  if (query.quayId) checks.push((b) => b.quayId === query.quayId);
  if (query.vesselType) {
    assertVesselType(query.vesselType);
    checks.push((b) => servesType(b, query.vesselType));
  }
  if (query.minDepthCm !== undefined) {
    assertWhole(query.minDepthCm, "minDepthCm");
    checks.push((b) => b.depthCm >= query.minDepthCm);
  }
  return (b) => checks.every((check) => check(b));
}

const row = (b) => ({
  id: b.id,
  quayId: b.quayId,
  name: b.name,
  lengthCm: berthLengthCm(b),
  depthCm: b.depthCm,
  vesselTypes: b.vesselTypes,
});

export function createBerthListing(ctx, stores) {
  return {
    listBerths(query = {}) {
      const matching = stores.berths.list(matcher(query)).toSorted(byString("id"));
      const page = paginate(matching, { limit: query.limit, cursor: query.cursor }, ctx.config);
      return { items: page.items.map(row), nextCursor: page.nextCursor };
    },
  };
}
