// The platform's own periodic jobs, besides the dispatcher and the session sweep (which keep their
// own handles). Each is { name, everyMinutes, run }; app.js schedules them on start and cancels
// them on stop.

export function platformJobs(ctx, { outbox, sessions }) {
  return [
    {
      name: "outbox.digest",
      everyMinutes: 60,
      run() {
        const queued = outbox.countByStatus("queued");
        const failed = outbox.countByStatus("failed");
        if (queued || failed) ctx.log("info", "outbox digest", { queued, failed });
        return { queued, failed };
      },
    },
    {
      name: "sessions.count",
      everyMinutes: 60,
      run() {
        const open = sessions.count();
        ctx.log("info", "sessions open", { open });
        return { open };
      },
    },
  ];
}

/** A job that throws is logged and stays scheduled: one bad hour must not stop the next. */
export function guarded(ctx, job) {
  return () => {
    try {
      job.run();
    } catch (error) {
      ctx.log("error", `job ${job.name} failed`, { error: error.message });
    }
  };
}
