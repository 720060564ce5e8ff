// Plain-text tables for the reports the harbour master's office prints and mails: columns padded
// to their widest cell, numbers right-aligned, a rule under the header.

const isNumeric = (value) => typeof value === "number" || /^-?\d[\d ,.]*$/.test(String(value));

export function renderTable(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => (cell === null || cell === undefined ? "-" : String(cell))));
  const widths = headers.map((_, col) => Math.max(...cells.map((row) => row[col].length)));
  const line = (row, raw) =>
    row
      .map((cell, col) => (raw && isNumeric(raw[col]) ? cell.padStart(widths[col]) : cell.padEnd(widths[col])))
      .join("  ")
      .trimEnd();
  const out = [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  ")];
  for (let i = 1; i < cells.length; i++) out.push(line(cells[i], rows[i - 1]));
  return out.join("\n");
}

/** Minutes as hours with one decimal and a decimal comma: 90 -> "1,5". */
export const formatHours = (minutes) => (Math.round(minutes / 6) / 10).toFixed(1).replace(".", ",");

/** A count table from an object of counts, largest first, then by key. */
export function countRows(counts) {
  return Object.entries(counts).toSorted(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0));
}

/** The same rows as semicolon-separated values for the authority's spreadsheet; cells with ; or " are quoted. */
export function renderCsv(headers, rows) {
  const cell = (value) => {
    const text = value === null || value === undefined ? "" : String(value);
    return /[;"\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [headers, ...rows].map((row) => row.map(cell).join(";")).join("\n");
}
