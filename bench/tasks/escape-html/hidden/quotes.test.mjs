import { test } from 'node:test';
import assert from 'node:assert/strict';
import escapeHtml from '../index.js';

test("single quotes are escaped", () => {
  assert.equal(escapeHtml("it's"), 'it&#39;s');
  assert.equal(escapeHtml("'"), '&#39;');
  assert.equal(escapeHtml(`<a title='x' href="y">&</a>`), '&lt;a title=&#39;x&#39; href=&quot;y&quot;&gt;&amp;&lt;/a&gt;');
});

test('other characters are unchanged', () => {
  assert.equal(escapeHtml('plain'), 'plain');
  assert.equal(escapeHtml('"&<>'), '&quot;&amp;&lt;&gt;');
});
