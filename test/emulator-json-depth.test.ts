/**
 * The emulator's JSON depth count (emulator/http/body.ts, `jsonDepth`), which refuses bodies
 * nested deeper than 256 before they are parsed: it agrees with the depth of the parsed value on
 * any JSON text, strings with quotes and backslashes included, and stops early at its bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonDepth } from '../emulator/http/body.js';
import { chooseSeed } from '../lib/run-config.js';

const seed = chooseSeed(process.env, Date.now() % 2 ** 31);
console.log(`json depth: seed ${seed} (CPC_SEED=${seed} replays it)`);

/** Nesting of arrays and objects in a parsed value. */
function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v !== null && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

test('strings are skipped: brackets, escaped quotes and backslash runs inside them do not count', () => {
  assert.equal(jsonDepth('{"a":"[[[{{{"}'), 1);
  assert.equal(jsonDepth('["\\"[[[", ["\\\\"], "\\\\\\"[["]'), 2);
  assert.equal(jsonDepth('[' + JSON.stringify('x'.repeat(100_000) + '"[{') + ']'), 1);
  assert.equal(jsonDepth('"unclosed [[['), 0);
  assert.equal(jsonDepth('[[["'), 3);
});

test('it stops counting at its bound', () => {
  assert.equal(jsonDepth('['.repeat(100_000), 257), 257);
  assert.equal(jsonDepth('['.repeat(10) + ']'.repeat(10)), 10);
});

test(`it agrees with the depth of the parsed value on any JSON text (seed ${seed})`, () => {
  const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '[', ']', '{', '}', ' ', 'é') });
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), fc.option(text), (value, extra) => {
    const v = extra === null ? value : [value, extra, { [extra]: value }];
    const json = JSON.stringify(v);
    assert.equal(jsonDepth(json), depthOf(JSON.parse(json)), json);
  }), { seed, numRuns: 500 });
});
