// The container register: every box the yard has been told about, by id and by number. A number
// comes back to the yard many times in a box's life; only one record per number may be live
// (announced or in the yard) at a time.

import { ConflictError, NotFoundError, ValidationError } from "../../core/errors.js";
import { CONTAINER_REGISTERED } from "../events.js";
import { newContainer } from "../records/container.js";
import { isValidNumber, normaliseNumber } from "../records/iso6346.js";

export function createRegistry(ctx, stores) {
  const { containers, ids } = stores;

  const findContainer = (id) => containers.find(id);
  const getContainer = (id) => containers.get(id);

  /** The live record for a number, or null. */
  function findByNumber(number) {
    const wanted = normaliseNumber(number);
    return containers.list((c) => c.number === wanted && c.status !== "departed")[0] ?? null;
  }

  function getByNumber(number) {
    const found = findByNumber(number);
    if (!found) throw new NotFoundError("container", normaliseNumber(number));
    return found;
  }

  function registerContainer(input) {
    const number = normaliseNumber(input.number);
    if (!isValidNumber(number)) throw new ValidationError("number", `wrong check digit in ${number}`);
    if (findByNumber(number)) throw new ConflictError(`container ${number} is already announced or in the yard`);
    const record = containers.insert(newContainer({ ...input, number }, ids.container.next()));
    ctx.events.publish(CONTAINER_REGISTERED, { containerId: record.id, number: record.number });
    return record;
  }

  /** Every record a number has had, oldest first (ids are in creation order). */
  const historyOf = (number) => containers.list((c) => c.number === normaliseNumber(number));

  return { findContainer, getContainer, findByNumber, getByNumber, registerContainer, historyOf };
}
