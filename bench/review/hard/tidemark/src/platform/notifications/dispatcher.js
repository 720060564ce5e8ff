// Sends what the outbox has due, every notifications.pollEveryMinutes. The transport comes through
// deps: transport.send({ channel, to, subject, text }) resolves when the gateway took the message
// and rejects when it did not. One run at a time: a slow gateway must not make two runs send twice.

import { MINUTE } from "../../core/time.js";
import { recipientKey } from "./message.js";

export function createDispatcher(ctx, { outbox, transport, rateLimit, settings }) {
  let handle = null;
  let running = null;
  let lastRunAt = null;

  async function deliver(message) {
    const key = recipientKey(message);
    const now = ctx.clock.now();
    const allowedAt = rateLimit.allowedAt(key, now);
    if (allowedAt > now) {
      outbox.postpone(message.id, allowedAt);
      return "postponed";
    }
    try {
      await transport.send({ channel: message.channel, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      outbox.markFailed(message.id, error);
      ctx.log("warn", "notification failed", { messageId: message.id, error: error.message });
      return "failed";
    }
    rateLimit.noteSent(key, ctx.clock.now());
    outbox.markSent(message.id);
    return "sent";
  }

  async function runDue() {
    const results = { sent: 0, failed: 0, postponed: 0 };
    for (const message of outbox.due(ctx.clock.now())) results[await deliver(message)]++;
    lastRunAt = ctx.clock.now();
    return results;
  }

  /** Starts a run unless one is going; callers may await the promise. */
  function runOnce() {
    if (!running) running = runDue().finally(() => (running = null));
    return running;
  }

  return {
    runOnce,
    start() {
      if (handle) return;
      handle = ctx.scheduler.every(settings.notifications.pollEveryMinutes * MINUTE, () => void runOnce());
    },
    stop() {
      handle?.cancel();
      handle = null;
    },
    lastRunAt: () => lastRunAt,
    get running() {
      return handle !== null;
    },
  };
}
