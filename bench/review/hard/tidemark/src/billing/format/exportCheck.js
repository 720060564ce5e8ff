// The accounting office reads the ledger export back before loading it. This checks a file the way
// they do: every record has its field count, every I record is the sum of its L records, and the T
// record is the sum of the I records. Problems are listed by line, not thrown: they want them all.

const FIELDS = Object.freeze({ H: 4, I: 8, L: 8, T: 5 });

const whole = (s) => /^-?\d+$/.test(s);

export function checkExport(text) {
  const problems = [];
  const lines = text.split("\n").filter((l) => l !== "");
  let current = null;
  const totals = { count: 0, net: 0, vat: 0 };

  const closeInvoice = (lineNo) => {
    if (current && (current.net !== current.sumNet || current.vat !== current.sumVat)) {
      problems.push({ lineNo: current.lineNo, problem: `invoice ${current.number}: lines do not add up (closed at line ${lineNo})` });
    }
    current = null;
  };

  lines.forEach((line, i) => {
    const lineNo = i + 1;
    const f = line.split(";");
    const kind = f[0];
    if (!(kind in FIELDS)) return problems.push({ lineNo, problem: `unknown record ${kind}` });
    if (f.length !== FIELDS[kind]) return problems.push({ lineNo, problem: `${kind} record has ${f.length} fields, expected ${FIELDS[kind]}` });
    if (kind === "I") {
      closeInvoice(lineNo);
      if (![f[5], f[6], f[7]].every(whole) || Number(f[5]) + Number(f[6]) !== Number(f[7])) problems.push({ lineNo, problem: "net + vat is not gross" });
      current = { number: f[1], lineNo, net: Number(f[5]), vat: Number(f[6]), sumNet: 0, sumVat: 0 };
      totals.count++;
      totals.net += Number(f[5]);
      totals.vat += Number(f[6]);
    } else if (kind === "L") {
      if (!current || current.number !== f[1]) return problems.push({ lineNo, problem: `line of ${f[1]} outside its invoice` });
      current.sumNet += Number(f[6]);
      current.sumVat += Number(f[7]);
    } else if (kind === "T") {
      closeInvoice(lineNo);
      const [count, net, vat, gross] = f.slice(1).map(Number);
      if (count !== totals.count || net !== totals.net || vat !== totals.vat || gross !== net + vat) problems.push({ lineNo, problem: "trailer does not match the invoices" });
    }
  });
  if (lines.length === 0 || !lines[0].startsWith("H;")) problems.push({ lineNo: 1, problem: "missing header" });
  if (lines.length === 0 || !lines.at(-1).startsWith("T;")) problems.push({ lineNo: lines.length, problem: "missing trailer" });
  return { ok: problems.length === 0, invoices: totals.count, problems };
}
