import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFullPlan, buildPlan } from '../run/detection/plan.js';
import { blastPasses, buildBlastRadius, buildMatrix, matrixPasses, median } from '../run/detection/matrix.js';
import type { RawTestResult } from '../reports/raw.js';

const spec = (title: string, tags: string[], line: number) => ({ title, tags: tags.map((t) => `@${t}`), file: 'contract/specs/x.spec.ts', line, tests: [{ projectName: 'contract' }] });
const listing = { suites: [{ title: 'x.spec.ts', suites: [{ title: 'group', specs: [spec('broad', ['A', 'B', 'C'], 1), spec('narrow', ['A'], 2), spec('other', ['B'], 3)] }] }] };

test('the plan picks the most specific tests of each fault\'s rule and repeats as often as the busiest test needs', () => {
  const { plan, lines } = buildPlan(listing, { f1: { rule: 'A' }, f2: { rule: 'B' }, f3: { rule: 'A' } }, 1, 'detection');
  assert.deepEqual(plan.tests, { 'contract/specs/x.spec.ts › group › narrow': ['f1', 'f3'], 'contract/specs/x.spec.ts › group › other': ['f2'] });
  assert.equal(plan.repeat, 2);
  assert.deepEqual(lines, ['[detection] › contract/specs/x.spec.ts › group › narrow', '[detection] › contract/specs/x.spec.ts › group › other']);
});

test('a test takes at most maxPerTest faults, unless it is the only test a fault has; the most constrained faults choose first', () => {
  // "broad" declares A, B and C; "narrow" only A, "other" only B; C has no other test.
  const catalog = { a1: { rule: 'A' }, a2: { rule: 'A' }, b1: { rule: 'B' }, c1: { rule: 'C' }, c2: { rule: 'C' } };
  const { plan } = buildPlan(listing, catalog, 2, 'detection', 2);
  const broad = 'contract/specs/x.spec.ts › group › broad';
  // c1 and c2 have only "broad" (they choose first and get it); a1, a2, b1 find it full and keep their specific tests.
  assert.deepEqual(plan.tests[broad], ['c1', 'c2']);
  assert.deepEqual(plan.tests['contract/specs/x.spec.ts › group › narrow'], ['a1', 'a2']);
  assert.deepEqual(plan.tests['contract/specs/x.spec.ts › group › other'], ['b1']);
  assert.equal(plan.repeat, 2);
  // A sole test takes a fault beyond the cap: every fault keeps a test.
  const only = buildPlan(listing, { c1: { rule: 'C' }, c2: { rule: 'C' }, c3: { rule: 'C' } }, 2, 'detection', 2).plan;
  assert.deepEqual(only.tests[broad], ['c1', 'c2', 'c3']);
  // Without the cap binding, each fault gets its perFault most specific tests.
  assert.deepEqual(buildPlan(listing, catalog, 2, 'detection', 10).plan.tests[broad], ['a1', 'a2', 'b1', 'c1', 'c2']);
});

const raw = (fault: string, status: RawTestResult['status'], rules: string[], failedRules: string[]): RawTestResult =>
  ({ id: fault + status, project: 'detection', file: 'f', title: 't', titlePath: ['t'], status, expectedStatus: 'failed', durationMs: 1, rules, failedRules, observed: [], fault });

const MUST = new Set(['A', 'B', 'C', 'D', 'E']);

test('the matrix names a fault detected only when a test failed on the fault\'s own rule; a test that named no rule was blocked', () => {
  const m = buildMatrix(
    { hit: { rule: 'A', description: '' }, elsewhere: { rule: 'A', description: '' }, quiet: { rule: 'A', description: '' }, untested: { rule: 'Z', description: '' }, unattributed: { rule: 'A', description: '' } },
    [raw('hit', 'failed', ['A', 'B'], ['A']), raw('elsewhere', 'failed', ['A', 'B'], ['B']), raw('quiet', 'passed', ['A'], []), raw('unattributed', 'failed', ['A'], [])],
    MUST,
  );
  assert.deepEqual(m.rows.map((r) => [r.fault, r.detection]), [['hit', 'detected'], ['elsewhere', 'other-rule'], ['quiet', 'missed'], ['untested', 'no-tests'], ['unattributed', 'other-rule']]);
  assert.deepEqual(m.rows.map((r) => r.blockedTests), [0, 0, 0, 0, 1]);
  assert.equal(m.detected, 1);
});

test('the matrix counts the MUST rules a fault failed among its tests: more than 3 fails the matrix', () => {
  const catalog = { narrow: { rule: 'A', description: '' }, wide: { rule: 'A', description: '' } };
  const m = buildMatrix(catalog, [
    raw('narrow', 'failed', ['A'], ['A', 'OBS']), raw('wide', 'failed', ['A'], ['A', 'B']), { ...raw('wide', 'timedOut', ['C'], ['C', 'D', 'E']), id: 'w2' },
  ], MUST);
  assert.deepEqual(m.rows.map((r) => r.failedMust), [1, 5]);
  assert.equal(m.overLimit, 1);
  assert.equal(matrixPasses(m), false);
  assert.equal(matrixPasses(buildMatrix({ narrow: catalog.narrow }, [raw('narrow', 'failed', ['A'], ['A'])], MUST)), true);
});

test('the full plan runs every contract and property test once per fault, never the report\'s browser test', () => {
  const full = { suites: [...listing.suites, { title: 'p', specs: [{ ...spec('prop', [], 1), file: 'property/pods/x.prop.ts' }, { ...spec('ui', [], 2), file: 'reports/test/report-ui.ui.ts' }] }] };
  const { plan, lines } = buildFullPlan(full, ['f1', 'f2', 'f3'], 'detection');
  assert.deepEqual(plan, { repeat: 3, tests: {}, all: ['f1', 'f2', 'f3'] });
  assert.deepEqual(lines, ['[detection] › contract/specs/x.spec.ts › group › broad', '[detection] › contract/specs/x.spec.ts › group › narrow', '[detection] › contract/specs/x.spec.ts › group › other', '[detection] › property/pods/x.prop.ts › prop']);
});

test('the blast radius: the MUST rules the whole suite failed per fault, the own rule among them, median and max', () => {
  const b = buildBlastRadius({ one: { rule: 'A' }, three: { rule: 'B' }, lost: { rule: 'C' } }, [
    raw('one', 'failed', ['A'], ['A']), raw('one', 'passed', ['B'], []),
    { ...raw('three', 'failed', ['B'], ['B', 'C', 'OBS']), id: 't1' }, { ...raw('three', 'failed', ['D'], ['D']), id: 't2' }, { ...raw('three', 'failed', ['E'], []), id: 't3' },
    raw('lost', 'failed', ['C'], []),
  ], MUST, 1234);
  assert.deepEqual(b.rows.map((r) => [r.fault, r.failedMust, r.ownRule, r.blockedTests]), [['one', ['A'], true, 0], ['three', ['B', 'C', 'D'], true, 1], ['lost', [], false, 1]]);
  assert.equal(b.median, 1);
  assert.equal(b.max, 3);
  assert.equal(b.missingOwnRule, 1);
  assert.equal(b.overLimit, 0);
  assert.equal(blastPasses(b), false);
  assert.equal(median([1, 2, 3, 10]), 2.5);
});
