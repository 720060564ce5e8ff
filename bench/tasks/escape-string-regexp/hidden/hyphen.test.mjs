import { test } from 'node:test';
import assert from 'node:assert/strict';
import escapeStringRegexp from '../index.js';

test('a hyphen is matched literally inside a character class', () => {
  const re = new RegExp(`^[${escapeStringRegexp('a-c')}]$`);
  assert.equal(re.test('b'), false);
  assert.equal(re.test('-'), true);
  assert.equal(re.test('a'), true);
});

test('the escaped hyphen is valid with the unicode flag', () => {
  const re = new RegExp(`^[${escapeStringRegexp('x-z')}]+$`, 'u');
  assert.equal(re.test('x-z'), true);
  assert.equal(re.test('y'), false);
  assert.equal(new RegExp(escapeStringRegexp('foo-bar'), 'u').test('foo-bar'), true);
});

test('other special characters are escaped as before', () => {
  assert.equal(escapeStringRegexp('How much $ for a 🦄?'), 'How much \\$ for a 🦄\\?');
  assert.equal(new RegExp(escapeStringRegexp('a.b*c')).test('a.b*c'), true);
});
