import { test } from 'node:test';
import assert from 'node:assert';
import equal from '../index.js';

test('null equals no object, and does not throw', () => {
  assert.strictEqual(equal(null, {}), false);
  assert.strictEqual(equal({}, null), false);
});
