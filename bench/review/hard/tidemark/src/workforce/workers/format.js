// How a worker is printed on rosters and reports: "ALV-0412 Reis, Nuno [crane, lashing]".

import { kgToTonnes } from "../../core/units.js";

export function displayName(name) {
  const parts = String(name).trim().split(/\s+/);
  if (parts.length < 2) return parts[0] ?? "";
  const last = parts.at(-1);
  return `${last}, ${parts.slice(0, -1).join(" ")}`;
}

export function workerLabel(worker) {
  return `${worker.registrationNo} ${displayName(worker.name)}`;
}

export function workerLine(worker) {
  const rating = worker.maxLiftKg ? ` ${kgToTonnes(worker.maxLiftKg).toFixed(1)} t` : "";
  const state = worker.active ? "" : " (left)";
  return `${workerLabel(worker)} [${worker.skills.join(", ")}]${rating}${state}`;
}

/** "N. Reis" — the short form the crane cabs' screens have room for. */
export function shortName(name) {
  const parts = String(name).trim().split(/\s+/);
  if (parts.length < 2) return parts[0] ?? "";
  return `${parts[0][0].toUpperCase()}. ${parts.at(-1)}`;
}

/** One row of the register export for the union (semicolons, tonnes like the list they send). */
export function registerRow(worker) {
  const tonnes = worker.maxLiftKg ? kgToTonnes(worker.maxLiftKg).toFixed(1).replace(".", ",") : "";
  return [worker.registrationNo, worker.name, worker.skills.join(","), tonnes].join(";");
}
