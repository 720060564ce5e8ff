// The occupancy report as a fixed-width text table, the way it goes out in the shift handover mail.

const pad = (value, width) => String(value).padStart(width, " ");
const percent = (permille) => `${Math.floor(permille / 10)},${permille % 10} %`;

export function occupancyTable(report) {
  const lines = ["block  boxes  capacity   TEU    fill  plugs"];
  for (const r of report.blocks) {
    const plugsText = r.reeferPlugs ? `${r.reeferPlugs.used}/${r.reeferPlugs.total}` : "-";
    lines.push(`${r.blockId.padEnd(5)}${pad(r.boxes, 7)}${pad(r.capacity, 10)}${pad(r.teu, 6)}${pad(percent(r.fillPermille), 8)}  ${plugsText}`);
  }
  lines.push(`yard ${pad(report.boxes, 7)}${pad(report.capacity, 10)}${pad(report.teu, 6)}${pad(percent(report.fillPermille), 8)}`);
  return lines.join("\n");
}
