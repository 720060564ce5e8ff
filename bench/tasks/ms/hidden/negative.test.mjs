import { test } from 'node:test';
import assert from 'node:assert/strict';
import ms from '../index.js';

test('short format keeps the unit for negative durations', () => {
  assert.equal(ms(-1000), '-1s');
  assert.equal(ms(-10000), '-10s');
  assert.equal(ms(-60000), '-1m');
  assert.equal(ms(-3 * 60 * 60 * 1000), '-3h');
  assert.equal(ms(-2 * 24 * 60 * 60 * 1000), '-2d');
  assert.equal(ms(-234), '-234ms');
});

test('positive durations and parsing are unchanged', () => {
  assert.equal(ms(60000), '1m');
  assert.equal(ms(-60000, { long: true }), '-1 minute');
  assert.equal(ms('-1h'), -3600000);
  assert.equal(ms('2 days'), 172800000);
});
