// Active workers by skill, for the availability screen. While the module runs the index is kept
// and dropped on every worker event; before start() (or after stop()) it is built on each call.

import { EVENTS } from "../events.js";

const WORKER_EVENTS = [EVENTS.workerRegistered, EVENTS.workerUpdated, EVENTS.workerDeactivated];

export function createSkillIndex({ ctx, stores, life }) {
  let index = null;
  let attached = false;

  function build() {
    const bySkill = new Map();
    for (const worker of stores.workers.list((w) => w.active)) {
      for (const skill of worker.skills) {
        const ids = bySkill.get(skill) ?? [];
        ids.push(worker.id);
        bySkill.set(skill, ids);
      }
    }
    return bySkill;
  }

  /** Worker ids holding `skill`, in id order. A fresh array: callers may keep or change it. */
  function workersWith(skill) {
    const current = attached ? (index ??= build()) : build();
    return [...(current.get(skill) ?? [])];
  }

  function attach() {
    if (attached) return;
    attached = true;
    for (const type of WORKER_EVENTS) {
      const off = ctx.events.subscribe(type, () => {
        index = null;
      });
      life.track({ cancel: off });
    }
    life.track({
      cancel: () => {
        attached = false;
        index = null;
      },
    });
  }

  return { workersWith, attach };
}
