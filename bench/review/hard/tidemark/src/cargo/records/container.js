// A container as the yard knows it. Masses are whole kilograms: tareKg (the box), grossKg (box and
// cargo as declared on the booking) and vgmKg, the verified gross mass the shipper declares under
// SOLAS; vgmKg stays null until that declaration arrives (manifests do not carry it).

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { required } from "../../core/validate.js";
import { assertImdgClass } from "./imdg.js";
import { assertContainerNumber, normaliseNumber } from "./iso6346.js";
import { isReeferType, sizeTypeOf } from "./sizeType.js";
import { assertSetPoint } from "../reefers/setpoints.js";

export const STATUSES = Object.freeze(["announced", "in-yard", "departed"]);

const LINE = /^[A-Z]{2,4}$/;

export function assertVgm(vgmKg, tareKg, field = "vgmKg") {
  assertWhole(vgmKg, field);
  if (vgmKg < tareKg) throw new ValidationError(field, `${vgmKg} kg is less than the tare of ${tareKg} kg`);
  return vgmKg;
}

/** Validates what a registration or a manifest line brings and returns the new record. */
export function newContainer(input, id) {
  required(input, ["number", "sizeType", "line", "tareKg", "grossKg"]);
  const number = assertContainerNumber(normaliseNumber(input.number));
  sizeTypeOf(input.sizeType);
  if (!LINE.test(input.line)) throw new ValidationError("line", `not a shipping line code: ${input.line}`);
  const tareKg = assertWhole(input.tareKg, "tareKg");
  const grossKg = assertWhole(input.grossKg, "grossKg");
  if (grossKg < tareKg) throw new ValidationError("grossKg", "is less than the tare");
  const vgmKg = input.vgmKg === undefined || input.vgmKg === null ? null : assertVgm(input.vgmKg, tareKg);
  const reefer = isReeferType(input.sizeType);
  if (reefer && input.setPointC === undefined) throw new ValidationError("setPointC", "a reefer needs a set-point");
  if (!reefer && input.setPointC !== undefined) throw new ValidationError("setPointC", "only reefers take a set-point");
  return {
    id,
    number,
    sizeType: input.sizeType,
    line: input.line,
    tareKg,
    grossKg,
    vgmKg,
    vgmDeclaredBy: vgmKg === null ? null : "booking",
    restowNeeded: false,
    imdgClass: assertImdgClass(input.imdgClass),
    setPointC: reefer ? assertSetPoint(input.setPointC) : null,
    status: "announced",
    slot: null,
    gateInAt: null,
    gateOutAt: null,
  };
}

export const isReefer = (container) => container.setPointC !== null;
export const isDangerous = (container) => container.imdgClass !== null;
export const inYard = (container) => container.status === "in-yard";
