import { test } from 'node:test';
import assert from 'node:assert/strict';
import equal from '../index.js';

test('NaN equals NaN, also deep inside', () => {
  assert.equal(equal(NaN, NaN), true);
  assert.equal(equal({ a: NaN }, { a: NaN }), true);
  assert.equal(equal([1, NaN], [1, NaN]), true);
});

test('NaN still differs from other values', () => {
  assert.equal(equal(NaN, 1), false);
  assert.equal(equal(1, NaN), false);
  assert.equal(equal({ a: NaN }, { a: 0 }), false);
  assert.equal(equal(1, 2), false);
  assert.equal(equal({ a: [1] }, { a: [1] }), true);
});
