// The in-process event bus. A change publishes its event after its store write has succeeded, so a
// subscriber that reads the store sees the change. Handlers run synchronously in subscription
// order; one that throws is logged and the rest still run. subscribe returns the unsubscribe
// function, which whoever subscribed calls on stop.

export function createEvents(log = () => {}) {
  const handlers = new Map();

  return {
    subscribe(type, handler) {
      const list = handlers.get(type) ?? [];
      list.push(handler);
      handlers.set(type, list);
      return () => {
        const current = handlers.get(type) ?? [];
        const at = current.indexOf(handler);
        if (at !== -1) current.splice(at, 1);
      };
    },
    publish(type, payload) {
      for (const handler of [...(handlers.get(type) ?? [])]) {
        try {
          handler(payload);
        } catch (error) {
          log("error", `event ${type}: handler failed`, { error: error.message });
        }
      }
    },
    count: (type) => (handlers.get(type) ?? []).length,
  };
}
