// The baseline of known differences: any change fails (a new failure and a new pass alike),
// and --update-baseline rewrites the file on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyBaseline, compareBaseline, readBaseline, updatedBaseline, type BaselineFile } from '../reports/baseline.js';
import { exitCodeOfReport } from '../run/publish.js';
import { ConfigError } from '../lib/errors.js';
import { writeReports } from '../reports/write.js';
import { fixtureReport } from '../reports/test/fixture.js';
import type { ConformanceReport, Verdict } from '../reports/model.js';
import { tempDir } from './reports-support.js';
import { cpcHere } from './cpc-here.js';

/** The fixture, complete, with every non-conforming rule listed as it is. */
const complete = (): ConformanceReport => fixtureReport({ complete: true });
const truthful = (r: ConformanceReport): BaselineFile => updatedBaseline(r, { rules: {} });
const setVerdict = (r: ConformanceReport, id: string, verdict: Verdict): ConformanceReport => ({ ...r, rules: r.rules.map((x) => (x.id === id ? { ...x, verdict } : x)) });

test('baseline: a file that matches the run passes the gate even though the target does not conform', () => {
  const r = complete();
  const applied = applyBaseline(r, truthful(r), 'b.json');
  assert.equal(applied.baseline!.matched, true);
  assert.deepEqual(applied.baseline!.changes, []);
  assert.equal(applied.summary.conformant, false);
  assert.equal(exitCodeOfReport(applied, false), 0);
  assert.equal(applied.rules.find((x) => x.id === 'AUTH.REST_V2.MISSING_401')!.baseline!.status, 'as-expected');
});

const changes: [string, (r: ConformanceReport, b: BaselineFile) => ConformanceReport, { rule: string; kind: string; expected: string; actual: string }][] = [
  ['a new failure (a rule the file expects to conform)', (r) => setVerdict(r, 'JOB.RUN.PAYLOAD_10MB', 'fail'), { rule: 'JOB.RUN.PAYLOAD_10MB', kind: 'new-failure', expected: 'conforming', actual: 'fail' }],
  ['a new pass (a known failure that now passes)', (r) => setVerdict(r, 'AUTH.REST_V2.MISSING_401', 'pass'), { rule: 'AUTH.REST_V2.MISSING_401', kind: 'new-pass', expected: 'fail', actual: 'pass' }],
  ['a known skip that now passes', (r) => setVerdict(r, 'JOB.RUNSYNC.WAIT_ELAPSED', 'observed'), { rule: 'JOB.RUNSYNC.WAIT_ELAPSED', kind: 'new-pass', expected: 'skip', actual: 'observed' }],
  ['a known failure that now skips', (r) => setVerdict(r, 'AUTH.REST_V2.MISSING_401', 'skip'), { rule: 'AUTH.REST_V2.MISSING_401', kind: 'changed', expected: 'fail', actual: 'skip' }],
  ['an untested rule that gained a passing test', (r) => setVerdict(r, 'SECRET.DELETE.BY_ID', 'pass'), { rule: 'SECRET.DELETE.BY_ID', kind: 'new-pass', expected: 'untested', actual: 'pass' }],
  ['an entry for a rule no longer in the catalog', (r, b) => { b.rules['POD.GONE.RULE'] = { verdict: 'fail', note: 'old' }; return r; }, { rule: 'POD.GONE.RULE', kind: 'stale-entry', expected: 'fail', actual: 'absent' }],
];
for (const [name, change, expected] of changes) {
  test(`baseline: fails on ${name}`, () => {
    const base = complete();
    const file = truthful(base);
    const run = change(base, file);
    const applied = applyBaseline(run, file, 'b.json');
    assert.equal(applied.baseline!.matched, false);
    assert.deepEqual(applied.baseline!.changes.map(({ rule, kind, expected, actual }) => ({ rule, kind, expected, actual })), [expected]);
    assert.equal(exitCodeOfReport(applied, false), 1);
  });
}

test('baseline: an interrupted run exits 130 whatever the baseline says; an incomplete one never passes', () => {
  const r = fixtureReport();
  const applied = applyBaseline(r, truthful(r), 'b.json');
  assert.equal(exitCodeOfReport(applied, true), 130);
  assert.equal(exitCodeOfReport(applied, false), 1, 'an incomplete run cannot match a baseline');
});

test('baseline: the rewrite lists every non-conforming rule, keeps notes that still hold, drops what now conforms', () => {
  const r = complete();
  const old: BaselineFile = { target: 'staging', rules: {
    'AUTH.REST_V2.MISSING_401': { verdict: 'fail', note: 'platform bug #12: accepts missing keys' },
    'JOB.RUN.PAYLOAD_10MB': { verdict: 'fail', note: 'used to fail' },
    'JOB.RUNSYNC.WAIT_ELAPSED': { verdict: 'untested', note: 'no test yet' },
  } };
  const next = updatedBaseline(r, old);
  assert.equal(next.target, 'staging');
  assert.equal(next.rules['AUTH.REST_V2.MISSING_401']!.note, 'platform bug #12: accepts missing keys');
  assert.equal(next.rules['JOB.RUN.PAYLOAD_10MB'], undefined, 'now passes: dropped');
  assert.equal(next.rules['JOB.RUNSYNC.WAIT_ELAPSED']!.verdict, 'skip');
  assert.match(next.rules['JOB.RUNSYNC.WAIT_ELAPSED']!.note, /^skipped: needs CPC_ENDPOINT_ID/, 'a changed verdict gets a fresh note');
  assert.match(next.rules['POD.CREATE.VALID_201']!.note, /^fails: /);
  assert.deepEqual(Object.keys(next.rules), [...Object.keys(next.rules)].sort(), 'sorted, so rewrites diff cleanly');
  assert.deepEqual(compareBaseline(r, next).changes, []);
});

test('baseline: a missing or invalid file is a configuration error', () => {
  const { dir, done } = tempDir('baseline-bad');
  try {
    assert.throws(() => readBaseline(join(dir, 'none.json')), ConfigError);
    assert.deepEqual(readBaseline(join(dir, 'none.json'), { allowMissing: true }), { rules: {} });
    writeFileSync(join(dir, 'bad.json'), '{"rules":{"POD.A.B":{"verdict":"fail"}}}');
    assert.throws(() => readBaseline(join(dir, 'bad.json')), /invalid.*note/);
    writeFileSync(join(dir, 'torn.json'), '{"rules":');
    assert.throws(() => readBaseline(join(dir, 'torn.json')), /not JSON/);
  } finally {
    done();
  }
});

test('baseline: through the CLI (cpc report --baseline): change exits 1, --update-baseline rewrites, then 0', () => {
  const { dir, done } = tempDir('baseline-cli');
  try {
    writeReports(complete(), dir);
    const from = join(dir, 'conformance.json');
    const file = join(dir, 'expectations.json');
    writeFileSync(file, JSON.stringify({ rules: {} }));
    const first = cpcHere(['report', '--from', from, '--baseline', file]);
    assert.equal(first.code, 1, first.out);
    assert.match(first.out, /≠ AUTH\.REST_V2\.MISSING_401: new-failure/);
    const update = cpcHere(['report', '--from', from, '--baseline', file, '--update-baseline']);
    assert.equal(update.code, 0, update.out);
    const written = JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
    assert.equal(written.rules['AUTH.REST_V2.MISSING_401']!.verdict, 'fail');
    const again = cpcHere(['report', '--from', from, '--baseline', file]);
    assert.equal(again.code, 0, again.out);
    const json = JSON.parse(readFileSync(from, 'utf8')) as ConformanceReport;
    assert.equal(json.baseline!.matched, true);
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /## Baseline/);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /data-baseline="as-expected"/);
    writeFileSync(file, '{"rules": 1}');
    assert.equal(cpcHere(['report', '--from', from, '--baseline', file]).code, 2);
  } finally {
    done();
  }
});
