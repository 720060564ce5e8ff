import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import mriModule from '../lib/index.mjs';

const mriRequired = createRequire(import.meta.url)('../lib/index.js');

for (const [name, mri] of [['require', mriRequired], ['import', mriModule]]) {
  test(`--no-<flag> sets the flag to false (${name})`, () => {
    assert.deepEqual(mri(['--no-color']), { _: [], color: false });
    assert.deepEqual(mri(['--no-cache', 'build'], { default: { cache: true } }), { _: ['build'], cache: false });
    assert.deepEqual(mri(['--no-verbose'], { alias: { verbose: 'v' } }), { _: [], verbose: false, v: false });
  });

  test(`other flags are unchanged (${name})`, () => {
    assert.deepEqual(mri(['--color', '-ab', 'x', '--n=3']), { _: [], color: true, a: true, b: 'x', n: 3 });
    assert.deepEqual(mri(['--', '--no-x']), { _: ['--no-x'] });
  });
}
