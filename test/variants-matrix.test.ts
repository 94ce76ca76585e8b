// The variant matrix's plan (which tests each variant runs) and its verdict (run/variants).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildVariantPlan, filesOf, projectOf, sampleVariantPlan } from '../run/variants/plan.js';
import { buildVariantMatrix, variantMatrixPasses, variantMatrixText } from '../run/variants/matrix.js';
import { variantCatalog, variantSets } from '../emulator/variants.js';
import type { RawTestResult } from '../reports/raw.js';

const raw = (project: string, status: RawTestResult['status'], failedRules: string[] = []): RawTestResult => ({
  id: `${project}-${status}-${failedRules.join()}`, project, file: 'contract/specs/x.spec.ts', title: 't', titlePath: ['t'], status, expectedStatus: 'passed',
  durationMs: 1, rules: ['A', 'B'], failedRules, observed: [],
});

test('the default plan holds every variant and every set, each with the surfaces it changes', () => {
  const plan = buildVariantPlan([]);
  assert.deepEqual(plan.entries.map((e) => e.name), [...Object.keys(variantCatalog), ...Object.keys(variantSets)]);
  assert.deepEqual(plan.entries.find((e) => e.name === 'live')!.surfaces, ['rest-v2', 'rest-v1']);
  assert.deepEqual(buildVariantPlan(['graphql.errors-400']).entries[0]!.surfaces, ['graphql']);
});

test('an entry runs the core specs and its surfaces\' suites; --full runs everything', () => {
  const [entry] = buildVariantPlan(['jobs.submit-202']).entries;
  const runs = (file: string, full = false) => filesOf(entry!, full).some((re) => re.test(file));
  assert.ok(runs('contract/specs/core/auth.spec.ts'));
  assert.ok(runs('contract/specs/serverless/run.spec.ts'));
  assert.ok(runs('property/jobs/jobs.prop.ts'));
  assert.ok(!runs('contract/specs/pods/catalog.spec.ts'));
  assert.ok(!runs('reports/test/html.ui.ts', true), 'never the report\'s browser test');
  assert.ok(runs('contract/specs/pods/catalog.spec.ts', true));
});

test('a variant is clean only when tests ran and none failed; a failed MUST rule is named', () => {
  const plan = buildVariantPlan(['lists.bare', 'live', 'jobs.submit-201']);
  const must = new Set(['A']);
  const results = [
    raw(projectOf('lists.bare'), 'passed'), raw(projectOf('lists.bare'), 'skipped'),
    raw(projectOf('live'), 'passed'), raw(projectOf('live'), 'failed', ['A', 'O']),
  ];
  const m = buildVariantMatrix(plan, results, must, 1000, 50);
  assert.deepEqual(m.rows.map((r) => [r.name, r.tests, r.failedTests, r.failedMust]), [['lists.bare', 2, 0, []], ['live', 2, 1, ['A']], ['jobs.submit-201', 0, 0, []]]);
  assert.equal(m.clean, 1);
  assert.equal(variantMatrixPasses(m), false);
  const text = variantMatrixText(m);
  assert.match(text, /FAIL live .*failed MUST rules: A/);
  assert.match(text, /FAIL jobs\.submit-201[\s\S]*no test ran/);
  assert.ok(variantMatrixPasses(buildVariantMatrix(buildVariantPlan(['lists.bare']), results, must, 1, 50)));
});

test('a sample of the matrix: its seed picks a window, the same seed the same window, consecutive seeds every entry once', () => {
  const whole = buildVariantPlan([]);
  const names = whole.entries.map((e) => e.name);
  const first = sampleVariantPlan(whole, 7, 12345);
  assert.deepEqual(sampleVariantPlan(whole, 7, 12345), first, 'a seed replays its sample');
  const { windows } = first.sample;
  assert.equal(windows, Math.ceil(names.length / 7));
  assert.ok(first.plan.entries.length <= 7 && first.plan.entries.length >= 6, `${first.plan.entries.length} entries`);
  // Rotation: `windows` consecutive seeds, whichever the first, take every entry exactly once.
  for (const start of [0, 12345, 2 ** 31 - windows]) {
    const taken = Array.from({ length: windows }, (_, i) => sampleVariantPlan(whole, 7, start + i).plan.entries.map((e) => e.name)).flat();
    assert.deepEqual([...taken].sort(), [...names].sort(), `seeds from ${start}`);
  }
  // A window spans the catalog: entries by stride, not a run of one surface's variants.
  assert.deepEqual(sampleVariantPlan(whole, 7, 1).plan.entries.map((e) => e.name), names.filter((_, i) => i % windows === 1));
  // The verdict says which sample it is.
  const sample = sampleVariantPlan(buildVariantPlan(['lists.bare', 'live']), 1, 3);
  assert.deepEqual(sample.sample, { seed: 3, size: 1, window: 1, windows: 2 });
  const matrix = { ...buildVariantMatrix(sample.plan, [raw(projectOf('live'), 'passed')], new Set(['A']), 1000, 50), sample: sample.sample };
  assert.match(variantMatrixText(matrix), /the sample of seed 3: window 2 of 2/);
  assert.ok(variantMatrixPasses(matrix));
});
