// An outbound notification: one e-mail or one SMS to one recipient. It waits in the outbox as
// "queued" until the dispatcher sends it ("sent") or gives up after the last attempt ("failed").

import { ValidationError } from "../../core/errors.js";
import { oneOf, pattern, required } from "../../core/validate.js";

export const CHANNELS = Object.freeze(["email", "sms"]);
export const STATUSES = Object.freeze(["queued", "sent", "failed"]);

const SMS_MAX = 320; // two concatenated parts; the gateway truncates beyond that

export function newMessage(id, input, now) {
  required(input, ["channel", "to", "text"]);
  const channel = oneOf(input.channel, CHANNELS, "channel");
  if (channel === "email") {
    pattern(input.to, /^[^@\s]+@[^@\s]+$/, "to");
    required(input, ["subject"]);
  } else {
    pattern(input.to, /^\+[1-9][0-9]{7,14}$/, "to");
    if (input.text.length > SMS_MAX) throw new ValidationError("text", `an SMS holds at most ${SMS_MAX} characters`);
  }
  return {
    id,
    channel,
    to: input.to,
    subject: channel === "email" ? input.subject : null,
    text: input.text,
    vesselId: input.vesselId ?? null,
    callId: input.callId ?? null,
    status: "queued",
    attempts: 0,
    createdAt: now,
    nextAttemptAt: now,
    sentAt: null,
    lastError: null,
  };
}

/** The recipient key the rate limit counts by: e-mail addresses are case-blind. */
export const recipientKey = (message) => (message.channel === "email" ? message.to.toLowerCase() : message.to);
