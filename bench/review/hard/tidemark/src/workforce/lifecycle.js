// What start() leaves running: scheduler handles. stop() cancels every one it was given, so a
// stopped module leaves nothing pending. A cancel that throws is logged and the rest still stop.

export function createLifecycle(log) {
  let handles = [];

  return {
    /** handle: what ctx.scheduler.every/after returned ({ cancel }). */
    track(handle) {
      handles.push(handle);
      return handle;
    },
    stopAll() {
      const current = handles;
      handles = [];
      for (const handle of current) {
        try {
          handle.cancel();
        } catch (error) {
          log("error", "workforce: could not stop a handle", { error: error.message });
        }
      }
      return current.length;
    },
    get running() {
      return handles.length;
    },
  };
}
