import { test } from 'node:test';
import assert from 'node:assert/strict';
import bytes from '../index.js';

test('thousandsSeparator leaves the fractional part alone', () => {
  assert.equal(bytes(1024 * 1.0123, { decimalPlaces: 4, thousandsSeparator: ',' }), '1.0123KB');
  assert.equal(bytes(1000.5 * 1024, { decimalPlaces: 4, thousandsSeparator: ',' }), '1,000.5KB');
  assert.equal(bytes(1005.0123 * 1024, { decimalPlaces: 4, thousandsSeparator: '_' }), '1_005.0123KB');
});

test('thousandsSeparator still groups the integer part', () => {
  assert.equal(bytes(1000 * 1024, { thousandsSeparator: ' ' }), '1 000KB');
  assert.equal(bytes(1234567, { unit: 'B', thousandsSeparator: ',' }), '1,234,567B');
  assert.equal(bytes(1024), '1KB');
});
