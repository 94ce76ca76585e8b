/**
 * lib/iso/spec-constants.ts holds the spec's numbers; this test holds it to the spec's own text
 * (the Limits table and the rate-limit paragraph of spec/compute-platform-api.md, the platform
 * notes' example for the OBSERVED quotas), and holds the copies the emulator still keeps to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  LIVE_QUOTAS, MB, MIB, PAYLOAD_LIMIT_MB, RATE_WINDOW_SECONDS, RATE_WINDOWS, RETENTION_MS, STREAM_CHUNK_MB, TEMPLATE_DELETION_DELAY_MS, WAIT_MS,
} from '../lib/iso/spec-constants.js';
import { WAIT_RANGE } from '../emulator/serverless/params.js';
import { RETENTION_MS as EMULATOR_RETENTION_MS } from '../emulator/serverless/retention.js';
import { MAX_BODY } from '../emulator/serverless/ops-submit.js';
import { TEMPLATE_DELETION_DELAY_MS as EMULATOR_TEMPLATE_DELAY } from '../emulator/state/templates.js';
import { LIVE_QUOTAS as EMULATOR_LIVE_QUOTAS, WINDOWS as EMULATOR_WINDOWS } from '../emulator/rate-limit.js';

const spec = readFileSync(new URL('../spec/compute-platform-api.md', import.meta.url), 'utf8');
const notes = readFileSync(new URL('../spec/platform-notes.md', import.meta.url), 'utf8');

/** The cells of the Limits table row whose first cell is `limit` and last cell mentions `appliesTo`. */
function limitRow(limit: string, appliesTo: string): string {
  const section = spec.slice(spec.indexOf('## Limits'), spec.indexOf('## Versioning'));
  const rows = section.split('\n').filter((line) => line.startsWith('|')).map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
  const row = rows.find((cells) => cells[0] === limit && (cells[2] ?? '').includes(appliesTo));
  assert.ok(row, `the spec's Limits table has a "${limit}" row for ${appliesTo}`);
  return row[1]!;
}

const MINUTE_MS = 60_000;

test('the payload limits, retention, wait range, stream chunk and template delay are the Limits table\'s', () => {
  assert.equal(limitRow('Maximum payload', '`/runsync`'), `${PAYLOAD_LIMIT_MB.runsync} MB`);
  assert.equal(limitRow('Maximum payload', '`/run`'), `${PAYLOAD_LIMIT_MB.run} MB`);
  assert.equal(limitRow('Result retention', '`/runsync` jobs'),
    `${RETENTION_MS.runsync / MINUTE_MS} minute after completion (up to ${RETENTION_MS.runsyncWithWait / MINUTE_MS} minutes when the wait parameter is used)`);
  assert.equal(limitRow('Result retention', '`/run` jobs'), `${RETENTION_MS.run / MINUTE_MS} minutes after completion`);
  assert.equal(limitRow('Default wait', '`/runsync`'), `${WAIT_MS.default / 1000} seconds`);
  assert.match(limitRow('`wait` range', '`/runsync`'), new RegExp(`^${WAIT_MS.min} to ${WAIT_MS.max} milliseconds;`));
  assert.match(limitRow('Single stream chunk', '`/stream`'), new RegExp(`^${STREAM_CHUNK_MB} MB;`));
  assert.equal(limitRow('Template deletion delay', '`deleteTemplate`'), `up to ${TEMPLATE_DELETION_DELAY_MS / MINUTE_MS} minutes after last use`);
  assert.deepEqual([MB, MIB], [10 ** 6, 2 ** 20]);
});

test('the rate-limit windows are the spec\'s three, and the OBSERVED quotas the platform notes\' example', () => {
  assert.match(spec, new RegExp(`three windows named ${RATE_WINDOWS.map((w) => `\`${w}\``).join(', ')}`));
  assert.deepEqual(RATE_WINDOW_SECONDS, { minute: 60, hour: 60 * 60, day: 24 * 60 * 60 });
  const example = RATE_WINDOWS.map((w) => `"${w}";q=${LIVE_QUOTAS[w]};w=${RATE_WINDOW_SECONDS[w]}`).join(', ');
  assert.ok(notes.includes(`RateLimit-Policy: ${example}`), `platform notes show ${example}`);
  assert.match(spec, /The quota values per window: not shown\./, 'the quotas stay OBSERVED while the spec does not show them');
});

test('the emulator\'s own copies equal the constants', () => {
  assert.deepEqual({ ...WAIT_RANGE }, { ...WAIT_MS });
  assert.deepEqual({ ...EMULATOR_RETENTION_MS }, { ...RETENTION_MS });
  // The emulator enforces the binary reading of MB, the larger one.
  assert.deepEqual({ ...MAX_BODY }, { runsync: PAYLOAD_LIMIT_MB.runsync * MIB, run: PAYLOAD_LIMIT_MB.run * MIB });
  assert.equal(EMULATOR_TEMPLATE_DELAY, TEMPLATE_DELETION_DELAY_MS);
  assert.deepEqual(EMULATOR_WINDOWS.map((w) => [w.name, w.seconds]), RATE_WINDOWS.map((w) => [w, RATE_WINDOW_SECONDS[w]]));
  assert.deepEqual({ ...EMULATOR_LIVE_QUOTAS }, { ...LIVE_QUOTAS });
});
