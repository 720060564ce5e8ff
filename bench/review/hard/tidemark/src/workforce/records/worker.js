// A registered docker. The registration number is the one on the port pass ("ALV-0412"); the
// crane rating (maxLiftKg) is only set for crane drivers. Workers are never deleted: one who leaves
// the port is deactivated, so old shifts and timesheets keep pointing at a record.

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { pattern, required } from "../../core/validate.js";
import { normaliseSkills } from "./skills.js";

export const REGISTRATION = /^ALV-\d{4}$/;

export function newWorker(input, id, now) {
  required(input, ["registrationNo", "name", "skills"]);
  pattern(input.registrationNo, REGISTRATION, "registrationNo");
  const name = String(input.name).trim();
  if (name.length < 2) throw new ValidationError("name", "too short");
  const skills = normaliseSkills(input.skills);
  let maxLiftKg = null;
  if (skills.includes("crane")) {
    if (input.maxLiftKg === undefined || input.maxLiftKg === null) throw new ValidationError("maxLiftKg", "a crane driver needs a lift rating");
    maxLiftKg = assertWhole(input.maxLiftKg, "maxLiftKg");
  }
  return {
    id,
    registrationNo: input.registrationNo,
    name,
    skills,
    maxLiftKg,
    active: true,
    joinedAt: now,
    leftAt: null,
  };
}

export const hasSkill = (worker, skill) => worker.skills.includes(skill);
