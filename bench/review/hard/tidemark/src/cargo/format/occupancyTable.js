// Reports as fixed-width text tables, the way they go out in the shift handover mail. Fill is
// printed from per-mille with one decimal ("52,1 %"), never rounded again.

const pad = (value, width) => String(value).padStart(width, " ");
const percent = (permille) => `${Math.floor(permille / 10)},${permille % 10} %`;
const celsius = (c) => (c === null ? "-" : `${c.toFixed(1).replace(".", ",")}`);

export function occupancyTable(report) {
  const lines = ["block  boxes  capacity   TEU    fill  plugs"];
  for (const r of report.blocks) {
    const plugsText = r.reeferPlugs ? `${r.reeferPlugs.used}/${r.reeferPlugs.total}` : "-";
    lines.push(`${r.blockId.padEnd(5)}${pad(r.boxes, 7)}${pad(r.capacity, 10)}${pad(r.teu, 6)}${pad(percent(r.fillPermille), 8)}  ${plugsText}`);
  }
  lines.push(`yard ${pad(report.boxes, 7)}${pad(report.capacity, 10)}${pad(report.teu, 6)}${pad(percent(report.fillPermille), 8)}`);
  return lines.join("\n");
}

/** The reefer board, one block after the other; alarmed boxes carry their alarm in capitals. */
export function reeferBoardTable(board) {
  const lines = [];
  for (const block of board) {
    lines.push(`block ${block.blockId}: ${block.plugsUsed} plugged, ${block.plugsFree} free`);
    for (const box of block.boxes) {
      const alarm = box.alarm ? `  ${box.alarm.toUpperCase()}` : "";
      lines.push(`  ${box.number}  ${box.slot.padEnd(11)}${pad(celsius(box.setPointC), 6)}${pad(celsius(box.tempC), 6)}${alarm}`);
    }
  }
  return lines.join("\n");
}

/** The overdue list for the lines' agents. */
export function dwellTable(rows) {
  const lines = ["container     line  days  charged"];
  for (const r of rows) lines.push(`${r.number}  ${r.line.padEnd(4)}${pad(r.days, 6)}${pad(r.chargeableDays, 9)}`);
  return lines.join("\n");
}
