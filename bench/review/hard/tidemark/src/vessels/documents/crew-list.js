// The crew list (FAL form 5): one entry per person aboard with name, rank, nationality and the
// number of an identity document. The port checks completeness and counts; immigration checks
// the people.

import { ValidationError } from "../../core/errors.js";
import { required } from "../../core/validate.js";

export const RANKS = Object.freeze(["master", "officer", "engineer", "rating", "cadet", "cook", "other"]);
const NATIONALITY = /^[A-Z]{2}$/;

function checkMember(member, index) {
  const at = `crew[${index}]`;
  try {
    required(member, ["name", "rank", "nationality", "documentNo"]);
  } catch (error) {
    throw new ValidationError(`${at}.${error.field}`, "is required");
  }
  if (!RANKS.includes(member.rank)) throw new ValidationError(`${at}.rank`, `unknown rank ${member.rank}`);
  if (!NATIONALITY.test(member.nationality)) throw new ValidationError(`${at}.nationality`, "expected a two-letter code");
  return { name: String(member.name).trim(), rank: member.rank, nationality: member.nationality, documentNo: String(member.documentNo).trim() };
}

/** Checks a crew list and returns its summary: count, master's name, nationalities. */
export function checkCrewList(content) {
  const crew = content?.crew;
  if (!Array.isArray(crew) || crew.length === 0) throw new ValidationError("crew", "at least one person");
  const members = crew.map(checkMember);
  const masters = members.filter((m) => m.rank === "master");
  if (masters.length !== 1) throw new ValidationError("crew", `exactly one master, found ${masters.length}`);
  const documents = new Set();
  for (const m of members) {
    if (documents.has(m.documentNo)) throw new ValidationError("crew", `document ${m.documentNo} appears twice`);
    documents.add(m.documentNo);
  }
  const nationalities = [...new Set(members.map((m) => m.nationality))].sort();
  return { crewCount: members.length, master: masters[0].name, nationalities };
}
