// Invoice numbers: "PTALV-2026-000042", one unbroken series per calendar year (UTC), given when an
// invoice is posted (drafts have none, so a discarded draft leaves no gap).

const WIDTH = 6;

export function createNumbering(config) {
  const lastByYear = new Map();

  function next(issuedAt) {
    const year = new Date(issuedAt).getUTCFullYear();
    const n = (lastByYear.get(year) ?? 0) + 1;
    lastByYear.set(year, n);
    return `${config.port.code}-${year}-${String(n).padStart(WIDTH, "0")}`;
  }

  /** Continues a series after invoices loaded from elsewhere. */
  function seen(number) {
    const m = /^[A-Z]+-(\d{4})-(\d+)$/.exec(number);
    if (!m) return;
    const year = Number(m[1]);
    const n = Number(m[2]);
    if (n > (lastByYear.get(year) ?? 0)) lastByYear.set(year, n);
  }

  const parse = (number) => {
    const m = /^([A-Z]+)-(\d{4})-(\d+)$/.exec(number);
    return m ? { port: m[1], year: Number(m[2]), sequence: Number(m[3]) } : null;
  };

  return { next, seen, parse };
}
