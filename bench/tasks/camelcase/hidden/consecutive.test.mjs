import { test } from 'node:test';
import assert from 'node:assert/strict';
import camelCase from '../index.js';

test('preserveConsecutiveUppercase keeps runs of capitals', () => {
  assert.equal(camelCase('Foo-BAR', { preserveConsecutiveUppercase: true }), 'fooBAR');
  assert.equal(camelCase('fooBAR', { pascalCase: true, preserveConsecutiveUppercase: true }), 'FooBAR');
  assert.equal(camelCase(['foo', 'BAR'], { pascalCase: true, preserveConsecutiveUppercase: true }), 'FooBAR');
  assert.equal(camelCase('XMLHttpRequest', { preserveConsecutiveUppercase: true }), 'XMLHttpRequest');
});

test('without the option capitals are lowered as before', () => {
  assert.equal(camelCase('Foo-BAR'), 'fooBar');
  assert.equal(camelCase('foo bar', { pascalCase: true }), 'FooBar');
});
