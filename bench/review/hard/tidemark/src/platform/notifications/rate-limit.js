// At most notifications.perRecipientPerHour messages to one recipient in any hour. A send at s
// counts against the half-open hour [s, s + HOUR). 0 turns the limit off. State is in memory: after
// a restart a recipient may get one more hour's worth, which the port accepts.

import { HOUR, contains } from "../../core/time.js";

export function createRateLimit({ settings }) {
  const sent = new Map(); // recipient → send times, oldest first

  const live = (key, now) => {
    const times = (sent.get(key) ?? []).filter((s) => contains({ start: s, end: s + HOUR }, now));
    if (times.length) sent.set(key, times);
    else sent.delete(key);
    return times;
  };

  return {
    /** The earliest time a message to `key` may go: `now` when it may go now. */
    allowedAt(key, now) {
      const max = settings.notifications.perRecipientPerHour;
      if (max === 0) return now;
      const times = live(key, now);
      if (times.length < max) return now;
      return times[times.length - max] + HOUR;
    },
    noteSent(key, at) {
      const times = sent.get(key) ?? [];
      sent.set(key, [...times, at]);
    },
    sentInLastHour: (key, now) => live(key, now).length,
    reset: () => sent.clear(),
  };
}
