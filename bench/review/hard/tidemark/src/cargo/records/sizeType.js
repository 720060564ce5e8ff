// ISO size/type codes the Alvarim yard handles: the first character is the length, the second the
// height, the last two the type group. A 40-foot box takes two TEU.

import { ValidationError } from "../../core/errors.js";

const CODES = Object.freeze({
  "22G1": Object.freeze({ lengthCm: 606, heightCm: 259, teu: 1, group: "general", reefer: false }),
  "25G1": Object.freeze({ lengthCm: 606, heightCm: 290, teu: 1, group: "general", reefer: false }),
  "42G1": Object.freeze({ lengthCm: 1219, heightCm: 259, teu: 2, group: "general", reefer: false }),
  "45G1": Object.freeze({ lengthCm: 1219, heightCm: 290, teu: 2, group: "general", reefer: false }),
  "L5G1": Object.freeze({ lengthCm: 1372, heightCm: 290, teu: 2, group: "general", reefer: false }),
  "22R1": Object.freeze({ lengthCm: 606, heightCm: 259, teu: 1, group: "reefer", reefer: true }),
  "45R1": Object.freeze({ lengthCm: 1219, heightCm: 290, teu: 2, group: "reefer", reefer: true }),
  "22T6": Object.freeze({ lengthCm: 606, heightCm: 259, teu: 1, group: "tank", reefer: false }),
  "22U1": Object.freeze({ lengthCm: 606, heightCm: 259, teu: 1, group: "open-top", reefer: false }),
});

export const SIZE_TYPES = Object.freeze(Object.keys(CODES));

export function sizeTypeOf(code, field = "sizeType") {
  const known = CODES[code];
  if (!known) throw new ValidationError(field, `unknown size/type code ${code}`);
  return known;
}

export const isReeferType = (code) => CODES[code]?.reefer === true;
export const teuOf = (code) => sizeTypeOf(code).teu;

/** Two boxes stack on each other only when their corner castings line up: same length. */
export const sameFootprint = (a, b) => sizeTypeOf(a).lengthCm === sizeTypeOf(b).lengthCm;
