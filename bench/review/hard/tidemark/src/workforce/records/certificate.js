// A certificate for one skill, valid over a half-open interval { start, end }: a certificate whose
// end is 08:00 is no longer valid at 08:00. A shift may only be worked under a certificate that
// covers all of it.

import { ValidationError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { assertSkill, needsCertificate } from "./skills.js";

export function newCertificate(input, id) {
  required(input, ["workerId", "skill", "number", "validFrom", "validUntil"]);
  const skill = assertSkill(input.skill);
  if (!needsCertificate(skill)) throw new ValidationError("skill", `${skill} needs no certificate`);
  const number = String(input.number).trim().toUpperCase();
  if (!/^[A-Z]{2,4}-\d{3,8}$/.test(number)) throw new ValidationError("number", `not a certificate number: ${input.number}`);
  return {
    id,
    workerId: input.workerId,
    skill,
    number,
    validity: interval(input.validFrom, input.validUntil),
    revoked: false,
  };
}
