// The roster board as text, the way it is pinned at the gate house:
//   Q1 B1-3  06:00-14:00  MSC ALVA     crane     ALV-0412 Reis, Nuno  [GNG-000002]

import { toIso } from "../../core/time.js";
import { displayName } from "../workers/format.js";

const hhmm = (t) => toIso(t).slice(11, 16);

export function rosterLine(line) {
  const where = `${line.quay} ${line.berthId}`.padEnd(8);
  const when = `${hhmm(line.start)}-${hhmm(line.end)}`;
  const vessel = line.vesselName.padEnd(12).slice(0, 12);
  const gang = line.gangId ? `  [${line.gangId}]` : "";
  return `${where}  ${when}  ${vessel} ${line.skill.padEnd(13)} ${line.registrationNo} ${displayName(line.name)}${gang}`;
}

export function formatRoster(day, lines) {
  const head = `Roster ${toIso(day).slice(0, 10)} - Port of Alvarim - ${lines.length} shift(s)`;
  if (lines.length === 0) return `${head}\n(no shifts)`;
  return [head, ...lines.map(rosterLine)].join("\n");
}
