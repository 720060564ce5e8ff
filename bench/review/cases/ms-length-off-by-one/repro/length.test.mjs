import { test } from 'node:test';
import assert from 'node:assert';
import ms from '../index.js';

test('parses a string of exactly 100 characters', () => {
  const value = '1'.padStart(98, '0') + 'ms';
  assert.strictEqual(value.length, 100);
  assert.strictEqual(ms(value), 1);
});
