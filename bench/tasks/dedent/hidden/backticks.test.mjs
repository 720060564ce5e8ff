import { test } from 'node:test';
import assert from 'node:assert/strict';
import dedent from '../dist/dedent.js';

test('escaped backticks come out as backticks', () => {
  assert.equal(dedent`
    use \`npm test\`
      to run them
  `, 'use `npm test`\n  to run them');
  assert.equal(dedent`\`a\``, '`a`');
});

test('indentation is still stripped', () => {
  assert.equal(dedent`
    first
      second
  `, 'first\n  second');
});
