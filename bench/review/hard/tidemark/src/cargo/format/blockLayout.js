// A block seen from above for the planners' screen: one character per stack, its height ("." for an
// empty stack, "*" for a full one), rows down the page and bays across, with the bay numbers on top.

import { pad2 } from "../records/slot.js";

export function blockLayout(block, stacks) {
  const header = `    ${Array.from({ length: block.bays }, (_, i) => String((i + 1) % 10)).join("")}`;
  const lines = [`block ${block.id} (${block.rows} rows x ${block.bays} bays, ${block.tiers} high)`, header];
  for (let row = 1; row <= block.rows; row++) {
    let cells = "";
    for (let bay = 1; bay <= block.bays; bay++) {
      const height = stacks.get(`${block.id}-${pad2(row)}-${pad2(bay)}`)?.length ?? 0;
      cells += height === 0 ? "." : height === block.tiers ? "*" : String(height);
    }
    lines.push(`${pad2(row)}  ${cells}`);
  }
  return lines.join("\n");
}

/** Stacks that can still take a box, as "row-bay" keys, for the drivers' quick list. */
export function openStacks(block, stacks) {
  const open = [];
  for (let row = 1; row <= block.rows; row++) {
    for (let bay = 1; bay <= block.bays; bay++) {
      const height = stacks.get(`${block.id}-${pad2(row)}-${pad2(bay)}`)?.length ?? 0;
      if (height < block.tiers) open.push(`${pad2(row)}-${pad2(bay)}`);
    }
  }
  return open;
}
