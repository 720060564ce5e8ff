// The IMDG segregation table (Code 7.2.4) as the yard applies it. Levels: 0 none, 1 "away from",
// 2 "separated from", 3 "separated by a complete compartment", 4 "separated longitudinally".
// Ashore, a level is a minimum distance in stacks (stackDistance); level 4 means another block.

import { IMDG_CLASSES } from "../records/imdg.js";

const COLUMNS = ["1", "2.1", "2.2", "2.3", "3", "4.1", "4.2", "4.3", "5.1", "5.2", "6.1", "6.2", "7", "8", "9"];

// One row per class, in COLUMNS order. "0" where the Code shows an X (see the dangerous goods list).
const ROWS = {
  "1":   "044444444444440",
  "2.1": "400021202202210",
  "2.2": "400010100102100",
  "2.3": "400020200202100",
  "3":   "421200212203200",
  "4.1": "410000101203210",
  "4.2": "421221012213210",
  "4.3": "400010102202210",
  "5.1": "420021220213120",
  "5.2": "421222222013220",
  "6.1": "400000101101000",
  "6.2": "422233323310330",
  "7":   "421122221203020",
  "8":   "410001112203200",
  "9":   "000000000000000",
};

const TABLE = new Map(
  Object.entries(ROWS).map(([cls, row]) => [cls, new Map(COLUMNS.map((col, i) => [col, Number(row[i])]))]),
);

/** Minimum distance in stacks for each level. */
export const MIN_STACKS = Object.freeze({ 0: 0, 1: 1, 2: 2, 3: 4, 4: Infinity });

export function segregationLevel(classA, classB) {
  const level = TABLE.get(classA)?.get(classB);
  if (level === undefined) throw new Error(`segregation: no entry for ${classA}/${classB}`);
  return level;
}

/** Distance in stacks two classes need between them: 0 when they may share a stack. */
export const minimumStacks = (classA, classB) => MIN_STACKS[segregationLevel(classA, classB)];

export const LEVEL_NAMES = Object.freeze(["none", "away from", "separated from", "separated by a complete compartment", "separated longitudinally"]);

export const knownClasses = () => IMDG_CLASSES.filter((c) => TABLE.has(c));
