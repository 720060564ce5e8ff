// A gang: a fixed crew rostered together, led by one foreman. memberIds lists the whole gang,
// foreman included, in id order; its length is the configured workforce.gangSize.

import { ValidationError } from "../../core/errors.js";
import { required } from "../../core/validate.js";

export function newGang(input, id, now) {
  required(input, ["name", "foremanId", "memberIds"]);
  if (!Array.isArray(input.memberIds)) throw new ValidationError("memberIds", "must be a list");
  const memberIds = [...new Set(input.memberIds)].toSorted();
  if (memberIds.length !== input.memberIds.length) throw new ValidationError("memberIds", "a worker is listed twice");
  if (!memberIds.includes(input.foremanId)) throw new ValidationError("foremanId", "the foreman must be a member of the gang");
  return {
    id,
    name: gangName(input.name),
    foremanId: input.foremanId,
    memberIds,
    active: true,
    formedAt: now,
  };
}

/** A gang's name is shown on the board: letters, digits, spaces and dashes, 3 to 30 of them. */
export function gangName(name) {
  const clean = String(name ?? "").trim().replace(/\s+/g, " ");
  if (!/^[\p{L}\d -]{3,30}$/u.test(clean)) throw new ValidationError("name", `not a gang name: ${name}`);
  return clean;
}

export const gangLabel = (gang) => `${gang.id} ${gang.name}${gang.active ? "" : " (disbanded)"}`;
