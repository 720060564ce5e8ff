import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

test('the TypeScript declarations and the readme document peek()', async () => {
  const declarations = await readFile(new URL('../index.d.ts', import.meta.url), 'utf8');
  assert.match(declarations, /\bpeek\s*\(\s*\)\s*:\s*ValueType\s*\|\s*undefined/);
  const readme = await readFile(new URL('../readme.md', import.meta.url), 'utf8');
  assert.match(readme, /peek\(\)/);
});
