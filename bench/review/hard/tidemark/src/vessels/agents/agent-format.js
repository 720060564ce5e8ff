// How agents show on the board and in notices.

export const agentLabel = (agent) => `${agent.code} — ${agent.name}`;

/** "Ana Sousa <ana@alvship.pt>" */
export const mailbox = ({ name, email }) => `${name} <${email}>`;

/** Phone numbers as stored ("+351213000000") grouped for reading: "+351 213 000 000". */
export function formatPhone(phone) {
  if (!phone) return "-";
  const digits = phone.slice(1);
  const country = digits.length > 9 ? digits.slice(0, digits.length - 9) : "";
  const rest = digits.slice(country.length).replace(/(\d{3})(?=\d)/g, "$1 ");
  return country ? `+${country} ${rest}` : `+${rest}`;
}

/** The agent's block of an arrival notice. */
export function agentBlock(agent, address) {
  return [`Agent: ${agentLabel(agent)}`, `Attn: ${mailbox(address)}`, `Phone: ${formatPhone(agent.phone)}`];
}

/** One line per agent for the monthly review: code, name, calls declared and revisions made. */
export function agentReviewLine(agent, { calls, etaRevisions }) {
  const rate = calls === 0 ? "-" : `${Math.round((etaRevisions / calls) * 10) / 10}`.replace(".", ",");
  return `${agent.code.padEnd(6)} ${agent.name.padEnd(30).slice(0, 30)} ${String(calls).padStart(4)} calls, ${etaRevisions} ETA revisions (${rate} a call)`;
}

/** The agency card on the portal: name, code, mailbox and whether it may declare calls. */
export function agentCard(agent) {
  return {
    title: agentLabel(agent),
    mailbox: mailbox(agent),
    phone: formatPhone(agent.phone),
    status: agent.active ? "active" : "inactive — cannot declare calls",
  };
}
