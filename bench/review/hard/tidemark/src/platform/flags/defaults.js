// Feature flags and their default state. A flag not listed here does not exist: asking for it is
// a programming error, so flags.js throws rather than quietly answering false.

export const FLAG_DEFAULTS = Object.freeze({
  // Arrival and departure notices go out by SMS as well as e-mail.
  smsNotices: false,
  // Agents may download their own vessels' calls as CSV.
  agentCsvExport: true,
  // Readiness fails while the notification outbox has messages that gave up.
  strictReadiness: false,
  // Audit entries keep the before/after snapshot of the record.
  auditSnapshots: true,
});

export const FLAG_NAMES = Object.freeze(Object.keys(FLAG_DEFAULTS));
