import { test } from 'node:test';
import assert from 'node:assert';
import pReduce from '../index.js';

test('reduces promises and values to their total', async () => {
  assert.strictEqual(await pReduce([1, Promise.resolve(2), 3], (total, value) => total + value, 0), 6);
});
