import { test } from 'node:test';
import assert from 'node:assert';
import Queue from '../index.js';

test('size goes down when a value is dequeued', () => {
  const queue = new Queue();
  queue.enqueue(1);
  queue.enqueue(2);
  queue.dequeue();
  assert.strictEqual(queue.size, 1);
});
