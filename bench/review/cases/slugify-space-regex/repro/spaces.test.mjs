import { test } from 'node:test';
import assert from 'node:assert';
import slugify from '../slugify.js';

test('several spaces become one replacement', () => {
  assert.strictEqual(slugify('hello   world'), 'hello-world');
});
