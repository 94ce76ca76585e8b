// A test the target's circumstances stopped (no GPU capacity on any candidate, a lost answer)
// blocks its rules with the reason, fails none and leaves the run conformant; the strict gate
// `--fail-on-blocked` fails it on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReport } from '../reports/build.js';
import { validateReport } from '../reports/validate.js';
import { fixtureRules } from '../reports/test/fixture.js';
import type { RawTestResult } from '../reports/raw.js';
import type { ConformanceReport } from '../reports/model.js';
import { blockedGateBreach, exitCodeOfReport, parseBlockedGate } from '../run/publish.js';

const NO_CAPACITY = 'no GPU capacity for {"dataCenterIds":["EU-RO-1"]}: every candidate GPU type answered 400 (tried A, B) while a pod placed elsewhere';

const raw = (id: string, status: RawTestResult['status'], rules: string[], extra: Partial<RawTestResult> = {}): RawTestResult => ({
  id, project: 'contract', file: 'contract/specs/pods/fixture.spec.ts', title: id, titlePath: ['pods', id], status, expectedStatus: 'passed',
  durationMs: 5, rules, failedRules: [], observed: [], ...extra,
});

function reportOf(tests: RawTestResult[]): ConformanceReport {
  return buildReport({
    rules: fixtureRules, raw: tests, suiteVersion: '0.0.0', complete: true, startedAt: new Date(0), finishedAt: new Date(1000),
    target: { kind: 'embedded', baseUrl: 'http://127.0.0.1:1', serverlessUrl: 'http://127.0.0.1:1', restV1Url: 'http://127.0.0.1:1', keys: { main: true, readonly: true, other: true }, emulator: true, faults: [] },
  });
}

const circumstance = () => reportOf([
  raw('created', 'passed', ['AUTH.REST_V2.MISSING_401']),
  raw('placed in EU-RO-1', 'skipped', ['POD.CREATE.VALID_201', 'RATE.HEADERS.ON_SUCCESS'], { skipReason: `blocked: ${NO_CAPACITY}`, blocked: NO_CAPACITY }),
]);

test('a test blocked by the target\'s circumstances blocks its rules with the reason and fails none', () => {
  const r = circumstance();
  for (const id of ['POD.CREATE.VALID_201', 'RATE.HEADERS.ON_SUCCESS']) {
    const rule = r.rules.find((x) => x.id === id)!;
    assert.equal(rule.verdict, 'blocked', id);
    assert.match(rule.blockedReasons![0]!.reason, /was blocked: no GPU capacity for/);
    assert.equal(rule.failures, undefined);
  }
  assert.equal(r.tests.find((t) => t.id === 'placed in EU-RO-1')!.blocked, NO_CAPACITY);
  assert.equal(r.summary.conformant, true, 'a blocked rule is not a failure');
  assert.deepEqual(validateReport(r), { valid: true });
});

test('a plain skip stays a skip: only the blocked annotation makes a skipped test block', () => {
  const r = reportOf([raw('needs a key', 'skipped', ['POD.CREATE.VALID_201'], { skipReason: 'the target has no readonly key' })]);
  assert.equal(r.rules.find((x) => x.id === 'POD.CREATE.VALID_201')!.verdict, 'skip');
  // A failed test with a stray blocked field is still a failed test.
  const failed = reportOf([raw('broke', 'failed', ['POD.CREATE.VALID_201'], { failedRules: ['POD.CREATE.VALID_201'], blocked: 'ignored', error: 'x' })]);
  assert.equal(failed.rules.find((x) => x.id === 'POD.CREATE.VALID_201')!.verdict, 'fail');
});

test('--fail-on-blocked: all, a count or a list of rules decides the exit code; without it the run passes', () => {
  const r = circumstance();
  assert.equal(exitCodeOfReport(r, false), 0);
  assert.equal(exitCodeOfReport(r, false, parseBlockedGate('all')), 1);
  assert.equal(exitCodeOfReport(r, false, parseBlockedGate('1')), 1, 'two blocked MUST rules are more than one');
  assert.equal(exitCodeOfReport(r, false, parseBlockedGate('2')), 0);
  assert.equal(exitCodeOfReport(r, false, parseBlockedGate('POD.CREATE.VALID_201')), 1);
  assert.equal(exitCodeOfReport(r, false, parseBlockedGate('AUTH.REST_V2.MISSING_401,V1.ENDPOINT.CREATE')), 0);
  assert.match(blockedGateBreach(r, parseBlockedGate('all'))!, /2 MUST rule\(s\) blocked: POD\.CREATE\.VALID_201, RATE\.HEADERS\.ON_SUCCESS/);
  for (const bad of ['', 'some', '-1', 'pod.create']) assert.throws(() => parseBlockedGate(bad), /--fail-on-blocked is "all", a count, or a comma list of rule ids/);
});
