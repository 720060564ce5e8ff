// The notification outbox. Producers enqueue; the dispatcher takes what is due, sends it and marks
// the result. A failure is retried on the backoff schedule until notifications.maxAttempts, then
// the message is "failed" and "notification.failed" goes out (after the store write).

import { createStore } from "../../core/store.js";
import { idSequence } from "../../core/ids.js";
import { paginate } from "../../core/paging.js";
import { nextAttemptAt } from "./backoff.js";
import { newMessage } from "./message.js";

export function createOutbox(ctx, { settings }) {
  const store = createStore("notification");
  const ids = idSequence("MSG");

  function enqueue(input) {
    const row = store.insert(newMessage(ids.next(), input, ctx.clock.now()));
    ctx.events.publish("notification.queued", { messageId: row.id, channel: row.channel });
    return row;
  }

  function markSent(id) {
    return store.update(id, (m) => ({ ...m, status: "sent", attempts: m.attempts + 1, sentAt: ctx.clock.now(), lastError: null }));
  }

  function markFailed(id, error) {
    const now = ctx.clock.now();
    const row = store.update(id, (m) => {
      const attempts = m.attempts + 1;
      const next = nextAttemptAt(now, attempts, settings.notifications);
      return { ...m, attempts, lastError: String(error?.message ?? error), status: next === null ? "failed" : "queued", nextAttemptAt: next };
    });
    if (row.status === "failed") ctx.events.publish("notification.failed", { messageId: id, to: row.to, attempts: row.attempts });
    return row;
  }

  /** Holds a queued message back until `at` (the rate limit's answer); attempts are not spent. */
  const postpone = (id, at) => store.update(id, (m) => ({ ...m, nextAttemptAt: at }));

  return {
    enqueue,
    markSent,
    markFailed,
    postpone,
    findMessage: store.find,
    getMessage: (id) => store.get(id),
    /** Queued messages whose time has come, in id order (first queued, first sent). */
    due: (now) => store.list((m) => m.status === "queued" && m.nextAttemptAt <= now),
    /** Every message, or those with one status, in id order. */
    messages: (status) => store.list((m) => !status || m.status === status),
    listForVessel: (vesselId) => store.list((m) => m.vesselId === vesselId),
    listMessages: ({ status, cursor, limit } = {}) => paginate(store.list((m) => !status || m.status === status), { cursor, limit }, ctx.config),
    countByStatus(status) {
      return store.list((m) => m.status === status).length;
    },
  };
}
