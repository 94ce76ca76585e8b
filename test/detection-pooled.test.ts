// The pooled detection matrix's plan (run/detection/pooled.ts): the faults whose rule a pooled
// test declares, with those tests, and every pooled test in one fault's run at least.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPooled } from '../run/detection/pooled.js';
import type { ListedTest } from '../run/preflight/types.js';

const t = (title: string, rules: string[], pools: string[] = []): ListedTest =>
  ({ project: 'contract', file: 'contract/specs/pods/x.spec.ts', title, rules, creates: pools.length ? { pools: pools as never } : {} });

const listed = [
  t('pooled A', ['R.A'], ['cpuPod']), t('pooled A and B', ['R.A', 'R.B'], ['gpuPod']), t('pooled C', ['R.C'], ['cpuPod']),
  t('owned B', ['R.B']), t('owned D', ['R.D']),
];
const catalog = { 'f.a': { rule: 'R.A', description: 'a' }, 'f.b': { rule: 'R.B', description: 'b' }, 'f.d': { rule: 'R.D', description: 'd' } };

test('pooled plan: a fault whose rule a pooled test declares runs with the tests of its rule, most specific first; a pooled test no fault selects goes beside the smallest run', () => {
  const plans = planPooled(listed, catalog, 3);
  assert.deepEqual(plans.map((p) => [p.fault, p.tests.map((x) => x.title), p.beside.map((x) => x.title)]), [
    ['f.a', ['pooled A', 'pooled A and B'], ['pooled C']],
    ['f.b', ['owned B', 'pooled A and B'], []],
  ], 'f.d has no pooled test: left out unless named');
  const covered = new Set(plans.flatMap((p) => [...p.tests, ...p.beside]).map((x) => x.title));
  assert.deepEqual(['pooled A', 'pooled A and B', 'pooled C'].filter((x) => !covered.has(x)), [], 'every pooled test runs');
});

test('pooled plan: a fault named on purpose whose rule no pooled test declares runs with the tests that declare it', () => {
  const plans = planPooled(listed, { 'f.d': catalog['f.d'] }, 3, true);
  assert.deepEqual(plans.map((p) => [p.fault, p.tests.map((x) => x.title)]), [['f.d', ['owned D']]]);
  assert.deepEqual(plans[0]!.beside.map((x) => x.title).sort(), ['pooled A', 'pooled A and B', 'pooled C']);
});
