// Whether a list of workers can form a gang: exactly workforce.gangSize of them (foreman
// included), all active, the foreman holding "foreman", and none already in another active gang.

import { ConflictError, ValidationError } from "../../core/errors.js";

export function checkComposition(config, { foremanId, memberIds }, { workers, gangs }) {
  const size = config.workforce.gangSize;
  if (memberIds.length !== size) {
    throw new ValidationError("memberIds", `a gang has ${size} workers, foreman included; got ${memberIds.length}`);
  }
  for (const id of memberIds) {
    const worker = workers.get(id);
    if (!worker.active) throw new ConflictError(`${id} is no longer active`);
  }
  if (!workers.get(foremanId).skills.includes("foreman")) throw new ConflictError(`${foremanId} is not a foreman`);
  const taken = gangs.list((g) => g.active && g.memberIds.some((id) => memberIds.includes(id)));
  if (taken.length) throw new ConflictError(`already in gang ${taken[0].id}`);
  return true;
}

/** The members other than the foreman, in id order. */
export const crewOf = (gang) => gang.memberIds.filter((id) => id !== gang.foremanId);

/**
 * The crew members who cannot work `skill` at all (missing the skill), so the planner knows
 * before asking availability. The foreman is checked for "foreman" instead.
 */
export function membersLacking(gang, workers, skill) {
  return gang.memberIds.filter((id) => {
    const needed = id === gang.foremanId ? "foreman" : skill;
    return !workers.get(id).skills.includes(needed);
  });
}
