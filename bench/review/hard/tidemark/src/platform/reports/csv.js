// CSV as the port's spreadsheets read it: comma separated, CRLF line ends, a field quoted when it
// holds a comma, a quote or a line break (quotes doubled). A leading =, +, - or @ is prefixed with
// an apostrophe so a spreadsheet does not run it as a formula.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@]/;

export function csvField(value) {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA.test(text) && !/^-?[0-9]/.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields) => fields.map(csvField).join(",");

/** columns: [{ header, value(row) }]; rows in the order given. */
export function toCsv(columns, rows) {
  const lines = [csvLine(columns.map((c) => c.header))];
  for (const row of rows) lines.push(csvLine(columns.map((c) => c.value(row))));
  return lines.join("\r\n") + "\r\n";
}

/** Reads back what toCsv wrote (tests and the import screen use it). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\n") row.push(field), rows.push(row), (row = []), (field = "");
    else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length) row.push(field), rows.push(row);
  return rows;
}
