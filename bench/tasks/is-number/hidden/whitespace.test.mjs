import { test } from 'node:test';
import assert from 'node:assert/strict';
import isNumber from '../index.js';

test('strings of only whitespace are not numbers', () => {
  for (const s of [' ', '   ', '\t', '\n', '\r\n', ' \t ']) assert.equal(isNumber(s), false, JSON.stringify(s));
});

test('numbers, numeric strings and non-numbers are unchanged', () => {
  for (const v of [0, 1.5, -3, '12', ' 12 ', '0x10', '1e3', '-1.1']) assert.equal(isNumber(v), true, JSON.stringify(v));
  for (const v of ['', 'abc', NaN, Infinity, null, undefined, [], {}, '1a']) assert.equal(isNumber(v), false, String(v));
});
