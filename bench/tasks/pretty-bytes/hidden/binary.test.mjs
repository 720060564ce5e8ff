import { test } from 'node:test';
import assert from 'node:assert/strict';
import prettyBytes from '../index.js';

test('binary: true uses powers of 1024 and binary prefixes', () => {
  assert.equal(prettyBytes(1024, { binary: true }), '1 kiB');
  assert.equal(prettyBytes(1000, { binary: true }), '1000 B');
  assert.equal(prettyBytes(1536, { binary: true }), '1.5 kiB');
  assert.equal(prettyBytes(1024 ** 3 * 4, { binary: true }), '4 GiB');
  assert.equal(prettyBytes(-(1024 ** 2), { binary: true }), '-1 MiB');
});

test('binary bits', () => {
  assert.equal(prettyBytes(1024, { bits: true, binary: true }), '1 kibit');
});

test('SI prefixes stay the default', () => {
  assert.equal(prettyBytes(1337), '1.34 kB');
  assert.equal(prettyBytes(1000), '1 kB');
  assert.equal(prettyBytes(1000, { bits: true }), '1 kbit');
});
