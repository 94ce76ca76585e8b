// The report model against its own JSON Schema (strict Ajv, draft 2020-12), and the other
// documents the report reads: load summaries and baseline files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRules } from '../lib/rules.js';
import { buildReport } from '../reports/build.js';
import { applyBaseline, updatedBaseline } from '../reports/baseline.js';
import { REPORT_SCHEMA_VERSION, type ConformanceReport } from '../reports/model.js';
import { validateBaseline, validateLoadSummary, validateReport, REPORT_SCHEMA_URL } from '../reports/validate.js';
import { writeReports } from '../reports/write.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { tempDir } from './reports-support.js';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

test('schema: the fixture report (failures, observations, property, load, incomplete) validates', () => {
  const report = fixtureReport();
  assert.deepEqual(validateReport(report), { valid: true });
  const withBaseline = applyBaseline(report, updatedBaseline(report, { rules: {} }), 'baseline.json');
  assert.deepEqual(validateReport(withBaseline), { valid: true });
});

test('schema: a report of the real catalog with no results validates, every rule untested', () => {
  const rules = loadRules();
  const report = buildReport({ rules, raw: [], target: { kind: 'remote', baseUrl: 'https://api.example.test', keys: { main: true, readonly: false, other: false }, emulator: false, faults: [] },
    startedAt: new Date(), finishedAt: new Date(), complete: true, suiteVersion: '0.1.0', seed: 0 });
  assert.deepEqual(validateReport(report), { valid: true });
  assert.equal(report.summary.rules.untested, rules.length);
  assert.equal(report.schemaVersion, REPORT_SCHEMA_VERSION);
});

test('schema: the JSON file written to disk validates', () => {
  const { dir, done } = tempDir('schema');
  try {
    writeReports(fixtureReport({ hostile: '"\u0000\u2028</script>' }), dir);
    assert.deepEqual(validateReport(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'))), { valid: true });
  } finally {
    done();
  }
});

const invalid: [string, (r: ConformanceReport) => void, RegExp][] = [
  ['a missing summary', (r) => { delete (r as Partial<ConformanceReport>).summary; }, /must have required property 'summary'/],
  ['an unknown top-level field', (r) => { (r as unknown as Record<string, unknown>).extra = 1; }, /additional/],
  ['a verdict outside the enum', (r) => { (r.rules[0] as { verdict: string }).verdict = 'maybe'; }, /\/rules\/0\/verdict/],
  ['a seed beyond 31 bits', (r) => { r.run.seed = 2 ** 31; }, /\/run\/seed/],
  ['a key-bearing target URL', (r) => { r.target.baseUrl = 'https://x.test/?api_key=abc'; }, /\/target\/baseUrl/],
  ['a start time that is not a date-time', (r) => { r.run.startedAt = 'yesterday'; }, /\/run\/startedAt/],
  ['another major version', (r) => { r.schemaVersion = '3.0.0'; }, /\/schemaVersion/],
  ['a series point of three numbers', (r) => { r.load!.scenarios[1]!.summary.series!.ratelimitRemaining![0] = [1, 2, 3] as unknown as [number, number]; }, /series/],
];
for (const [name, spoil, issue] of invalid) {
  test(`schema: rejects ${name}`, () => {
    const r = clone(fixtureReport());
    spoil(r);
    const result = validateReport(r);
    assert.equal(result.valid, false);
    assert.ok(!result.valid && result.issues.some((i) => issue.test(i)), JSON.stringify(result));
  });
}

test('schema: is draft 2020-12 and compiles under strict Ajv', () => {
  const schema = JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as { $schema: string };
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.doesNotThrow(() => validateReport({}));
});

test('schema: load summaries and baseline files', () => {
  const good = { scenario: 's', thresholds: { 'p(95)<200': { ok: true } }, checks: [{ name: 'c', passes: 1, fails: 0 }], metrics: { http_req_duration: { p50: 1, p95: null } }, series: { ratelimitRemaining: [[0, 60], [1000, 59]] } };
  assert.deepEqual(validateLoadSummary(good), { valid: true });
  assert.equal(validateLoadSummary({ ...good, thresholds: { x: { ok: 'yes' } } }).valid, false);
  assert.equal(validateLoadSummary({ ...good, checks: [{ name: 'c', passes: -1, fails: 0 }] }).valid, false);
  assert.deepEqual(validateBaseline({ rules: { 'POD.A.B': { verdict: 'fail', note: 'known: 422 instead of 400' } } }), { valid: true });
  assert.equal(validateBaseline({ rules: { 'POD.A.B': { verdict: 'fail' } } }).valid, false, 'a note per entry');
  assert.equal(validateBaseline({ rules: { 'not an id': { verdict: 'fail', note: 'n' } } }).valid, false);
  assert.equal(validateBaseline({ rules: { 'POD.A.B': { verdict: 'broken', note: 'n' } } }).valid, false);
});
