import { test } from 'node:test';
import assert from 'node:assert';
import { spawnSync } from 'node:child_process';

test('a settled promise leaves no timer behind: the process exits at once', () => {
  const script = "require('./')(Promise.resolve(1), 60000).then((v) => console.log('settled', v))";
  const run = spawnSync(process.execPath, ['-e', script], { timeout: 5000, encoding: 'utf8' });
  assert.strictEqual(run.stdout.trim(), 'settled 1');
  assert.strictEqual(run.signal, null, 'the process was still running after 5 s: a timer was left behind');
  assert.strictEqual(run.status, 0);
});
