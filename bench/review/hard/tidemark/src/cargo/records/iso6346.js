// ISO 6346 container numbers: a three-letter owner code, a category letter (U freight, J detachable
// equipment, Z trailer), a six-digit serial and a check digit. Letters are valued from 10 upwards,
// skipping multiples of 11; each character is weighted by 2^position and the sum taken mod 11.

import { ValidationError } from "../../core/errors.js";

const SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;

const LETTER_VALUES = (() => {
  const values = new Map();
  let value = 10;
  for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
    if (value % 11 === 0) value++;
    values.set(letter, value);
    value++;
  }
  return values;
})();

/** The check digit of the first ten characters; a remainder of 10 is written as 0. */
export function checkDigit(first10) {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = first10[i];
    const value = ch >= "0" && ch <= "9" ? Number(ch) : LETTER_VALUES.get(ch);
    sum += value * 2 ** i;
  }
  return (sum % 11) % 10;
}

/** Upper case without the spaces and dashes printed on doors and in manifests ("MSCU 123456-5"). */
export const normaliseNumber = (raw) => String(raw ?? "").toUpperCase().replace(/[\s-]/g, "");

export function isValidNumber(number) {
  return SHAPE.test(number) && checkDigit(number.slice(0, 10)) === Number(number[10]);
}

export function assertContainerNumber(number, field = "number") {
  if (!SHAPE.test(number)) throw new ValidationError(field, `not a container number: ${number}`);
  if (checkDigit(number.slice(0, 10)) !== Number(number[10])) throw new ValidationError(field, `wrong check digit in ${number}`);
  return number;
}

export const ownerCode = (number) => number.slice(0, 3);

/** Completes an owner code and serial with its check digit (used by the test yard and by imports). */
export function withCheckDigit(owner, serial) {
  const first10 = `${owner}U${String(serial).padStart(6, "0")}`;
  return `${first10}${checkDigit(first10)}`;
}
