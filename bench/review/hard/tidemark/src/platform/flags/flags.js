// Feature flags held apart from the settings: they change at run time (the harbour master turns
// them from the API), settings do not. Each change is published so caches can drop what they hold.

import { ValidationError } from "../../core/errors.js";
import { FLAG_DEFAULTS, FLAG_NAMES } from "./defaults.js";

export function createFlags(ctx, overrides = {}) {
  const state = new Map(Object.entries(FLAG_DEFAULTS));

  const known = (name) => {
    if (!state.has(name)) throw new ValidationError("flag", `unknown flag ${name}`);
    return name;
  };

  for (const [name, value] of Object.entries(overrides)) {
    known(name);
    if (typeof value !== "boolean") throw new ValidationError(`flag ${name}`, "must be true or false");
    state.set(name, value);
  }

  return {
    isOn: (name) => state.get(known(name)),
    set(name, value, actor) {
      known(name);
      if (typeof value !== "boolean") throw new ValidationError(`flag ${name}`, "must be true or false");
      const before = state.get(name);
      if (before === value) return { name, value };
      state.set(name, value);
      ctx.events.publish("flag.changed", { name, before, value, actorId: actor?.id ?? null, at: ctx.clock.now() });
      return { name, value };
    },
    /** Every flag and its state, in the order defaults.js lists them. */
    list: () => FLAG_NAMES.map((name) => ({ name, value: state.get(name) })),
  };
}
