// The verdict table of reports/verdicts.ts, case by case, and the counts built from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rule } from '../lib/rules.js';
import { ruleResults, toOutcomes } from '../reports/verdicts.js';
import { buildReport } from '../reports/build.js';
import type { RawTestResult } from '../reports/raw.js';
import type { Verdict } from '../reports/model.js';

const MUST: Rule = { id: 'POD.X.MUST', level: 'MUST', surface: 'rest-v2', section: 'S', statement: 'must', quote: 'q' };
const OBS: Rule = { id: 'POD.X.OBSERVED', level: 'OBSERVED', surface: 'rest-v2', section: 'S', statement: 'observed', quote: 'q' };
const OTHER = 'POD.X.OTHER';

let n = 0;
const t = (status: RawTestResult['status'], extra: Partial<RawTestResult> = {}): RawTestResult => ({
  id: `t${++n}`, project: 'contract', file: 'f.spec.ts', title: `test ${n}`, titlePath: [`test ${n}`], status, expectedStatus: 'passed',
  durationMs: 1, rules: [MUST.id, OBS.id], failedRules: [], observed: [], ...extra,
});

interface Case { name: string; tests: RawTestResult[]; planned?: boolean; must: Verdict; observed: Verdict; reason?: RegExp }

const cases: Case[] = [
  { name: 'no test declares the rules', tests: [], must: 'untested', observed: 'untested' },
  { name: 'a passing test', tests: [t('passed')], must: 'pass', observed: 'pass' },
  { name: 'a passing test that observed', tests: [t('passed', { observed: [{ rule: OBS.id, value: 404 }] })], must: 'pass', observed: 'observed' },
  { name: 'a failure attributed to the MUST rule fails it alone', tests: [t('failed', { failedRules: [MUST.id], error: 'x' })], must: 'fail', observed: 'blocked', reason: /stopped when POD\.X\.MUST failed/ },
  { name: 'an unattributed failure blocks every rule, MUST included', tests: [t('failed', { error: 'socket hang up\n  at x' })], must: 'blocked', observed: 'blocked', reason: /stopped before checking it: socket hang up$/ },
  { name: 'a timed-out test without a finding blocks like a failed one', tests: [t('timedOut', { error: 'Test timeout of 30000ms exceeded.' })], must: 'blocked', observed: 'blocked', reason: /Test timeout/ },
  { name: 'a timed-out test with a finding fails that rule', tests: [t('timedOut', { failedRules: [MUST.id], error: 'timeout' })], must: 'fail', observed: 'blocked' },
  { name: 'a failure attributed to another rule blocks these', tests: [t('failed', { failedRules: [OTHER] })], must: 'blocked', observed: 'blocked', reason: /stopped when POD\.X\.OTHER failed/ },
  { name: 'a failure attributed to the OBSERVED rule fails it', tests: [t('failed', { failedRules: [OBS.id] })], must: 'blocked', observed: 'fail' },
  { name: 'pass wins over blocked (another test verified the rule)', tests: [t('failed', { failedRules: [OTHER] }), t('passed')], must: 'pass', observed: 'pass' },
  { name: 'blocked wins over skip', tests: [t('skipped', { skipReason: 'r' }), t('failed', { error: 'setup crashed' })], must: 'blocked', observed: 'blocked', reason: /setup crashed/ },
  { name: 'an observation wins over blocked', tests: [t('failed', { failedRules: [MUST.id], observed: [{ rule: OBS.id, value: 1 }] })], must: 'fail', observed: 'observed' },
  { name: 'a skipped test gives its reason', tests: [t('skipped', { skipReason: 'needs CPC_ENDPOINT_ID' })], must: 'skip', observed: 'skip', reason: /^needs CPC_ENDPOINT_ID$/ },
  { name: 'an interrupted test', tests: [t('interrupted')], must: 'skip', observed: 'skip', reason: /interrupted/ },
  { name: 'a planned test that never ran', tests: [t('passed', { rules: [] })], planned: true, must: 'skip', observed: 'skip', reason: /not run/ },
  { name: 'fail wins over pass', tests: [t('passed'), t('failed', { failedRules: [MUST.id] })], must: 'fail', observed: 'pass' },
  { name: 'pass wins over skip', tests: [t('skipped', { skipReason: 'r' }), t('passed')], must: 'pass', observed: 'pass' },
  { name: 'a passing test that could not check the MUST rule skips it with its reason', tests: [t('passed', { uncheckedRules: [{ rule: MUST.id, reason: 'no unlisted action to send' }] })], must: 'skip', observed: 'pass', reason: /could not check it: no unlisted action to send$/ },
  { name: 'an unchecked rule stays a skip when the test fails on another rule', tests: [t('failed', { failedRules: [OTHER], uncheckedRules: [{ rule: MUST.id, reason: 'r' }] })], must: 'skip', observed: 'blocked' },
  { name: 'a check that failed the rule wins over its unchecked record', tests: [t('failed', { failedRules: [MUST.id], uncheckedRules: [{ rule: MUST.id, reason: 'r' }] })], must: 'fail', observed: 'blocked' },
  { name: 'an unchecked rule is passed by another test that checked it', tests: [t('passed', { uncheckedRules: [{ rule: MUST.id, reason: 'r' }] }), t('passed')], must: 'pass', observed: 'pass' },
  { name: 'an observation survives a later failure elsewhere', tests: [t('passed', { observed: [{ rule: OBS.id, value: 1 }] }), t('failed', { failedRules: [MUST.id] })], must: 'fail', observed: 'observed' },
];

for (const c of cases) {
  test(`verdicts: ${c.name}`, () => {
    const planned = c.planned ? [{ id: 'never', project: 'contract', file: 'f', title: 'never', titlePath: ['never'], rules: [MUST.id, OBS.id] }] : [];
    const [must, observed] = ruleResults([MUST, OBS], toOutcomes(c.tests, planned));
    assert.equal(must!.verdict, c.must, 'MUST rule');
    assert.equal(observed!.verdict, c.observed, 'OBSERVED rule');
    if (c.reason) {
      const reasons = [...(must!.skipReasons ?? []), ...(observed!.skipReasons ?? []), ...[must!, observed!].flatMap((r) => (r.blockedReasons ?? []).map((b) => b.reason))];
      assert.ok(reasons.some((r) => c.reason!.test(r)), `a skip reason matches ${c.reason}: ${JSON.stringify(reasons)}`);
    }
  });
}

test('verdicts: failures carry the test and its message; observations carry the test', () => {
  const tests = [t('failed', { id: 'a', failedRules: [MUST.id], error: '[POD.X.MUST] expected 400, got 500' }), t('passed', { id: 'b', observed: [{ rule: OBS.id, value: { status: 422 } }] })];
  const [must, observed] = ruleResults([MUST, OBS], toOutcomes(tests));
  assert.deepEqual(must!.failures, [{ test: 'a', message: '[POD.X.MUST] expected 400, got 500' }]);
  assert.deepEqual(observed!.observed, [{ test: 'b', value: { status: 422 } }]);
  assert.deepEqual(must!.tests.sort(), ['a', 'b']);
});

test('outcomes: sorted whatever order the workers finished in; passing tests keep one exchange', () => {
  const ev = (url: string) => ({ request: { method: 'GET', url, headers: {}, bodyBytes: 0 }, curl: `curl ${url}` });
  const a = t('passed', { id: 'z', title: 'b', titlePath: ['b'], evidence: [ev('1'), ev('2')] });
  const b = t('failed', { id: 'y', title: 'a', titlePath: ['a'], evidence: [ev('1'), ev('2')] });
  const out = toOutcomes([a, b]);
  assert.deepEqual(out.map((o) => o.id), ['y', 'z']);
  assert.equal(out.find((o) => o.id === 'z')!.evidence!.length, 1);
  assert.equal(out.find((o) => o.id === 'y')!.evidence!.length, 2);
});

test('summary: counts per surface and level, and conformance', () => {
  const base = { target: { kind: 'embedded' as const, keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] }, startedAt: new Date(0), finishedAt: new Date(1000), suiteVersion: '0' };
  const ok = buildReport({ ...base, rules: [MUST, OBS], raw: [t('passed')], complete: true });
  assert.equal(ok.summary.conformant, true);
  assert.deepEqual(ok.summary.byLevel.MUST, { total: 1, pass: 1, fail: 0, blocked: 0, skip: 0, observed: 0, untested: 0 });
  assert.equal(ok.summary.bySurface['rest-v2']!.total, 2);
  const failed = buildReport({ ...base, rules: [MUST, OBS], raw: [t('failed', { failedRules: [MUST.id] })], complete: true });
  assert.equal(failed.summary.conformant, false);
  const incomplete = buildReport({ ...base, rules: [MUST, OBS], raw: [t('passed')], complete: false, interruption: 'interrupted by SIGINT' });
  assert.equal(incomplete.summary.conformant, false, 'an incomplete run is never conformant');
  assert.equal(incomplete.run.interruption, 'interrupted by SIGINT');
});

test('summary: a test blocked by a plain error fails no rule but still makes the run non-conformant', () => {
  const base = { target: { kind: 'embedded' as const, keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] }, startedAt: new Date(0), finishedAt: new Date(1000), suiteVersion: '0' };
  const r = buildReport({ ...base, rules: [MUST, OBS], raw: [t('failed', { error: 'ECONNREFUSED' })], complete: true });
  assert.equal(r.summary.rules.fail, 0);
  assert.equal(r.summary.rules.blocked, 2);
  assert.equal(r.summary.tests.failed, 1);
  assert.equal(r.summary.conformant, false, 'a failed test => not conformant (exit 1)');
  const [must] = r.rules;
  assert.deepEqual(must!.blockedReasons, [{ test: must!.tests[0], reason: `"${r.tests[0]!.title}" stopped before checking it: ECONNREFUSED` }]);
});

// Where the rules a failed test names come from: the errors checks throw carry their findings.
test('attribution: the one findings helper (checks, properties, both models) carries the rules that broke; a setup or plain error names none', async () => {
  const { findingsOf } = await import('../property/support/run.js');
  const { expectModel } = await import('../property/jobs/real.js');
  const { NonConformanceError, SetupError, throwFindings } = await import('../lib/errors.js');
  const f = { rule: 'POD.CREATE.201_POD', message: 'createPod answered 200' };
  const thrown = (fn: () => void): unknown => { try { fn(); } catch (e) { return e; } return undefined; };
  assert.equal(thrown(() => throwFindings([], [])), undefined, 'no findings, no error');
  for (const e of [thrown(() => throwFindings([f])), thrown(() => throwFindings([], [f])), thrown(() => expectModel(false, f.rule, f.message)), new NonConformanceError([f])]) {
    assert.ok(e instanceof NonConformanceError);
    assert.deepEqual(findingsOf(e), [f]);
    assert.deepEqual(e.ruleIds, [f.rule]);
  }
  assert.equal(thrown(() => expectModel(true, f.rule, f.message)), undefined);
  assert.deepEqual(findingsOf(new SetupError('setup: POST /v1/endpoints answered 500', 500)), []);
  assert.deepEqual(findingsOf(new Error('setup: POST /v1/endpoints answered 500')), []);
  assert.deepEqual(findingsOf('a string'), []);
  assert.deepEqual(findingsOf({ findings: [f] }), [], 'only the catalog error names rules');
});

test('attribution: an acceptance answered with another 2xx fails the status rule; a refusal fails the acceptance rule; error bodies only on errors', async () => {
  const { acceptedConformance } = await import('../contract/checks/status.js');
  const { errorBodyConformance } = await import('../contract/checks/rejection.js');
  const res = (status: number, text = '{}') => ({ status, text, operation: 'createPod' }) as unknown as import('../lib/client/api.js').ApiResult;
  assert.deepEqual(acceptedConformance('MOUNT.X', 'POD.CREATE.201_POD', res(201), 201), []);
  assert.deepEqual(acceptedConformance('MOUNT.X', 'POD.CREATE.201_POD', res(200), 201).map((x) => x.rule), ['POD.CREATE.201_POD']);
  assert.deepEqual(acceptedConformance('MOUNT.X', 'POD.CREATE.201_POD', res(400), 201).map((x) => x.rule), ['MOUNT.X']);
  assert.deepEqual(acceptedConformance('MOUNT.X', 'POD.CREATE.201_POD', res(500), 201).map((x) => x.rule), ['MOUNT.X']);
  assert.deepEqual(errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res(201)), [], 'an accepted request is not an error answer');
  assert.deepEqual(errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res(400, '')).map((x) => x.rule), ['POD.CREATE.ERRORS_HAVE_BODY']);
  assert.deepEqual(errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res(400, '{"title":"x"}')), []);
});

test('outcomes: a test\'s kind is its suite, by its file, whatever project ran it; a passing test keeps its last exchange, a failed one all', () => {
  const ev = (i: number) => ({ request: { method: 'GET', url: `http://h/${i}`, headers: {}, bodyBytes: 0 }, curl: `curl ${i}` });
  const out = toOutcomes([
    t('passed', { id: 'c', project: 'suite', file: 'contract/specs/core/auth.spec.ts', evidence: [ev(1), ev(2)] }),
    t('failed', { id: 'p', project: 'suite', file: 'property/pods/create-valid.prop.ts', evidence: [ev(1), ev(2)] }),
    t('passed', { id: 'l', project: 'load', file: 'load/wait-range.ts' }),
    t('passed', { id: 'o', project: 'report-ui', file: 'reports/test/html.ui.ts' }),
  ]);
  const byId = Object.fromEntries(out.map((o) => [o.id, o]));
  assert.deepEqual([byId.c!.kind, byId.p!.kind, byId.l!.kind, byId.o!.kind], ['contract', 'property', 'load', 'other']);
  assert.deepEqual(byId.c!.evidence!.map((e) => e.curl), ['curl 2']);
  assert.deepEqual(byId.p!.evidence!.map((e) => e.curl), ['curl 1', 'curl 2']);
});
