// Who can work a skill over a span: the availability screen and the gang planner ask this. Every
// worker with the skill is checked against the same eligibility rules the roster applies.

import { interval } from "../../core/time.js";
import { assertSkill } from "../records/skills.js";

export function createAvailability({ stores, eligibility, skillIndex }) {
  /** Workers who may work `skill` over [start, end), in id order. */
  function availableWorkers({ skill, start, end }) {
    assertSkill(skill);
    const span = interval(start, end);
    return skillIndex
      .workersWith(skill)
      .map((id) => stores.workers.get(id))
      .filter((worker) => eligibility.check(worker, skill, span).ok);
  }

  /** For each worker with the skill, why they cannot work the span (empty list: they can). */
  function availabilityBoard({ skill, start, end }) {
    assertSkill(skill);
    const span = interval(start, end);
    return skillIndex.workersWith(skill).map((id) => {
      const worker = stores.workers.get(id);
      return { workerId: id, registrationNo: worker.registrationNo, reasons: eligibility.check(worker, skill, span).reasons };
    });
  }

  /** Can the gang's every member work the span (the foreman as foreman)? Missing members listed. */
  function gangAvailable(gang, skill, span) {
    const blocked = gang.memberIds.filter((id) => {
      const role = id === gang.foremanId ? "foreman" : skill;
      return !eligibility.check(stores.workers.get(id), role, span).ok;
    });
    return { ok: blocked.length === 0, blocked };
  }

  return { availableWorkers, availabilityBoard, gangAvailable };
}
