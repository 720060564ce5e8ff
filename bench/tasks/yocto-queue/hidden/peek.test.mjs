import { test } from 'node:test';
import assert from 'node:assert/strict';
import Queue from '../index.js';

test('peek returns the next value without removing it', () => {
  const queue = new Queue();
  assert.equal(queue.peek(), undefined);
  queue.enqueue('🦄');
  queue.enqueue('🌈');
  assert.equal(queue.peek(), '🦄');
  assert.equal(queue.peek(), '🦄');
  assert.equal(queue.size, 2);
  assert.equal(queue.dequeue(), '🦄');
  assert.equal(queue.peek(), '🌈');
  queue.clear();
  assert.equal(queue.peek(), undefined);
});

test('the rest of the queue works as before', () => {
  const queue = new Queue();
  queue.enqueue(1);
  queue.enqueue(2);
  assert.deepEqual([...queue], [1, 2]);
  assert.equal(queue.dequeue(), 1);
  assert.equal(queue.size, 1);
});
