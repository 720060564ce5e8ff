// The worker register. Registration numbers are unique; a worker is never removed, only
// deactivated (shifts, timesheets and gangs keep pointing at the record).

import { ConflictError, NotFoundError } from "../../core/errors.js";
import { EVENTS, workerKey } from "../events.js";
import { newWorker } from "../records/worker.js";
import { normaliseSkills } from "../records/skills.js";

export function createWorkerRegistry({ ctx, stores }) {
  const { workers, ids } = stores;

  const findWorker = (id) => workers.find(id);
  const getWorker = (id) => workers.get(id);

  function findByRegistration(registrationNo) {
    return workers.list((w) => w.registrationNo === registrationNo)[0] ?? null;
  }

  function registerWorker(input) {
    if (input?.registrationNo && findByRegistration(input.registrationNo)) {
      throw new ConflictError(`registration ${input.registrationNo} already in use`);
    }
    const worker = workers.insert(newWorker(input, ids.workers.next(), ctx.clock.now()));
    ctx.events.publish(EVENTS.workerRegistered, { workerId: worker.id });
    return worker;
  }

  async function updateSkills(id, skills, expectVersion) {
    const clean = normaliseSkills(skills);
    return ctx.locks.withLock(workerKey(id), async () => {
      const worker = workers.update(id, (w) => ({ ...w, skills: clean }), expectVersion);
      ctx.events.publish(EVENTS.workerUpdated, { workerId: id });
      return worker;
    });
  }

  async function deactivateWorker(id) {
    return ctx.locks.withLock(workerKey(id), async () => {
      const current = getWorker(id);
      if (!current.active) return current;
      const worker = workers.update(id, (w) => ({ ...w, active: false, leftAt: ctx.clock.now() }));
      ctx.events.publish(EVENTS.workerDeactivated, { workerId: id });
      return worker;
    });
  }

  function getByRegistration(registrationNo) {
    const worker = findByRegistration(registrationNo);
    if (!worker) throw new NotFoundError("worker", registrationNo);
    return worker;
  }

  return { registerWorker, findWorker, getWorker, findByRegistration, getByRegistration, updateSkills, deactivateWorker };
}
