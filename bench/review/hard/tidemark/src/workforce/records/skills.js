// The skills a docker can be rostered for. Every skill except "checker" needs a certificate in
// date for the whole shift; a gang's foreman holds "foreman".

import { ValidationError } from "../../core/errors.js";

export const SKILLS = Object.freeze(["crane", "lashing", "reach-stacker", "straddle", "foreman", "checker"]);

/** Skills that may be worked without a certificate. */
export const UNCERTIFIED = Object.freeze(["checker"]);

export const needsCertificate = (skill) => !UNCERTIFIED.includes(skill);

export function assertSkill(skill, field = "skill") {
  if (!SKILLS.includes(skill)) throw new ValidationError(field, `unknown skill ${skill}; one of ${SKILLS.join(", ")}`);
  return skill;
}

/** A clean, sorted, duplicate-free skill list. */
export function normaliseSkills(skills, field = "skills") {
  if (!Array.isArray(skills) || skills.length === 0) throw new ValidationError(field, "at least one skill");
  const clean = [...new Set(skills.map((s) => String(s).trim().toLowerCase()))];
  for (const skill of clean) assertSkill(skill, field);
  return clean.toSorted();
}

/** The skill as printed on Portuguese paperwork (the union list and the certificates). */
export const SKILL_LABELS_PT = Object.freeze({
  crane: "operador de grua",
  lashing: "peação",
  "reach-stacker": "operador de reach-stacker",
  straddle: "operador de straddle carrier",
  foreman: "capataz",
  checker: "conferente",
});

export const skillLabel = (skill) => SKILL_LABELS_PT[assertSkill(skill)];
