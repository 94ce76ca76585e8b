import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan } from './detection/plan.js';
import { buildMatrix } from './detection/matrix.js';
import type { RawTestResult } from '../reports/raw.js';

const spec = (title: string, tags: string[], line: number) => ({ title, tags: tags.map((t) => `@${t}`), file: 'contract/specs/x.spec.ts', line, tests: [{ projectName: 'contract' }] });
const listing = { suites: [{ title: 'x.spec.ts', suites: [{ title: 'group', specs: [spec('broad', ['A', 'B', 'C'], 1), spec('narrow', ['A'], 2), spec('other', ['B'], 3)] }] }] };

test('the plan picks the most specific tests of each fault\'s rule and repeats as often as the busiest test needs', () => {
  const { plan, lines } = buildPlan(listing, { f1: { rule: 'A' }, f2: { rule: 'B' }, f3: { rule: 'A' } }, 1, 'detection');
  assert.deepEqual(plan.tests, { 'contract/specs/x.spec.ts › group › narrow': ['f1', 'f3'], 'contract/specs/x.spec.ts › group › other': ['f2'] });
  assert.equal(plan.repeat, 2);
  assert.deepEqual(lines, ['[detection] › contract/specs/x.spec.ts › group › narrow', '[detection] › contract/specs/x.spec.ts › group › other']);
});

const raw = (fault: string, status: RawTestResult['status'], rules: string[], failedRules: string[]): RawTestResult =>
  ({ id: fault + status, project: 'detection', file: 'f', title: 't', titlePath: ['t'], status, expectedStatus: 'failed', durationMs: 1, rules, failedRules, observed: [], fault });

test('the matrix names a fault detected only when a test failed on the fault\'s own rule', () => {
  const m = buildMatrix(
    { hit: { rule: 'A', description: '' }, elsewhere: { rule: 'A', description: '' }, quiet: { rule: 'A', description: '' }, untested: { rule: 'Z', description: '' }, unattributed: { rule: 'A', description: '' } },
    [raw('hit', 'failed', ['A', 'B'], ['A']), raw('elsewhere', 'failed', ['A', 'B'], ['B']), raw('quiet', 'passed', ['A'], []), raw('unattributed', 'failed', ['A'], [])],
  );
  assert.deepEqual(m.rows.map((r) => [r.fault, r.detection]), [['hit', 'detected'], ['elsewhere', 'other-rule'], ['quiet', 'missed'], ['untested', 'no-tests'], ['unattributed', 'detected']]);
  assert.equal(m.detected, 2);
});
