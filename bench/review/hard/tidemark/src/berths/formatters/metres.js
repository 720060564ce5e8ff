// Centimetres printed as metres the Portuguese way: "14,50 m". Display only; inside tidemark a
// length stays whole cm.

export function formatCm(cm, decimals = 2) {
  const sign = cm < 0 ? "-" : "";
  const metres = (Math.abs(cm) / 100).toFixed(decimals);
  const [units, fraction] = metres.split(".");
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return `${sign}${fraction === undefined ? grouped : `${grouped},${fraction}`} m`;
}

/** A permille as a percentage with one decimal: 725 → "72,5 %". */
export function formatPermille(permille) {
  const whole = Math.trunc(permille / 10);
  const tenth = Math.abs(permille % 10);
  return `${whole},${tenth} %`;
}

/** Kilograms printed as tonnes with one decimal, for bollard loads: 100000 → "100,0 t". */
export function formatKg(kg) {
  const tonnes = (kg / 1000).toFixed(1);
  const [units, fraction] = tonnes.split(".");
  return `${units.replace(/\B(?=(\d{3})+(?!\d))/g, " ")},${fraction} t`;
}

/** A signed clearance for the pilots: "+1,60 m" or "-0,40 m". */
export function formatClearanceCm(cm) {
  return `${cm >= 0 ? "+" : ""}${formatCm(cm)}`;
}
