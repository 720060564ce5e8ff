import { test } from 'node:test';
import assert from 'node:assert/strict';
import decamelize from '../index.js';

test('a run of capitals before a capitalised word is split off', () => {
  assert.equal(decamelize('XMLHttpRequest'), 'xml_http_request');
  assert.equal(decamelize('parseHTMLString'), 'parse_html_string');
  assert.equal(decamelize('getJSONData', '-'), 'get-json-data');
});

test('simple camel case is unchanged', () => {
  assert.equal(decamelize('unicornRainbow'), 'unicorn_rainbow');
  assert.equal(decamelize('unicornRainbow', '-'), 'unicorn-rainbow');
  assert.equal(decamelize('testGUILabel'), 'test_gui_label');
});
