import { test } from 'node:test';
import assert from 'node:assert/strict';
import slugify from '../slugify.js';

test('a character mapped to the empty string by extend() is dropped', () => {
  slugify.extend({ x: '' });
  assert.equal(slugify('fox box'), 'fo-bo');
  slugify.extend({ '+': '' });
  assert.equal(slugify('c++ rocks'), 'c-rocks');
});

test('built-in and locale mappings are unchanged', () => {
  assert.equal(slugify('ЬA'), 'A');
  assert.equal(slugify('ЬA', { locale: 'bg' }), 'YA');
});

test('ordinary slugs are unchanged', () => {
  assert.equal(slugify('Hello World', { lower: true }), 'hello-world');
  assert.equal(slugify('I ♥ Dogs'), 'I-love-Dogs');
});
