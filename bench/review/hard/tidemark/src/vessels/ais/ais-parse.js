// The AIS feed from the VTS receiver: one JSON object per line, positions in decimal degrees, speed
// over ground in knots, draught in metres, time as an ISO string. Everything is converted here, at
// the edge: micro-degrees, centimetres per second, centimetres, epoch milliseconds.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";
import { metresToCm } from "../../core/units.js";
import { normaliseImo } from "../register/imo.js";

export const NAV_STATUS = Object.freeze(["underway", "anchored", "moored", "restricted", "aground", "unknown"]);

/** 1 knot is 1852 m an hour: 51.444... cm/s. Rounded once, to whole cm/s. */
export const knotsToCmPerS = (knots) => Math.round((knots * 185_200) / 3_600);

export const degreesToE6 = (deg) => Math.round(deg * 1_000_000);

function finite(value, field, min, max) {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new ValidationError(field, `out of range: ${value}`);
  return n;
}

/** One decoded feed object to a position (without vessel id: the importer resolves the IMO). */
export function parsePosition(raw) {
  if (!raw || typeof raw !== "object") throw new ValidationError("line", "not an object");
  const imo = normaliseImo(raw.imo);
  if (!imo) throw new ValidationError("imo", "missing");
  return {
    imo,
    at: parseIso(raw.ts, "ts"),
    latE6: degreesToE6(finite(raw.lat, "lat", -90, 90)),
    lonE6: degreesToE6(finite(raw.lon, "lon", -180, 180)),
    speedCmPerS: knotsToCmPerS(finite(raw.sog ?? 0, "sog", 0, 102.2)),
    courseDeg: Math.round(finite(raw.cog ?? 0, "cog", 0, 360)) % 360,
    draughtCm: raw.draught === undefined || raw.draught === null ? null : metresToCm(finite(raw.draught, "draught", 0, 25.5)),
    navStatus: NAV_STATUS.includes(raw.navStatus) ? raw.navStatus : "unknown",
  };
}

/** A feed chunk: one JSON object a line. Blank lines are skipped; a line that is not JSON is an error entry. */
export function splitFeed(text) {
  const out = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    try {
      out.push({ line: i + 1, raw: JSON.parse(lines[i]) });
    } catch {
      out.push({ line: i + 1, error: "not JSON" });
    }
  }
  return out;
}
