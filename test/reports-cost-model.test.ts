// The cost section's model: usage annotations carried by the raw reporter and summed into the
// report, the files beside the report read only when they are from the run, partial reports
// summed on merge, and older reports (without the section) still validated, merged and diffed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCase, TestResult, Suite, FullConfig } from '@playwright/test/reporter';
import RawResultsReporter from '../reports/playwright-reporter.js';
import { readRaw } from '../reports/raw-read.js';
import { REPORT_SCHEMA_VERSION, type ConformanceReport } from '../reports/model.js';
import { validateReport } from '../reports/validate.js';
import { mergeReports } from '../reports/merge.js';
import { diffReports } from '../reports/diff.js';
import * as costModule from '../reports/cost.js';
import { COST_FILES, readCostFiles, withCostFiles } from '../reports/cost.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { costRaw, costReport, deploymentFiles, usage, writeDeploymentFiles } from '../reports/test/cost-fixture.js';
import { ANNOTATION } from '../lib/protocol.js';
import { tempDir } from './reports-support.js';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A report as 2.1 wrote it: no cost section. */
const oldReport = (): ConformanceReport => ({ ...clone(fixtureReport({ complete: true })), schemaVersion: '2.1.0' });

const shardsOf = (r: ConformanceReport): ConformanceReport[] => [1, 2].map((i) => ({
  ...clone(r), run: { ...clone(r.run), configuration: { ...r.run.configuration, shard: `${i}/2`, partial: true } },
  tests: r.tests.filter((_, k) => k % 2 === i - 1),
}));

test('cost: the schema version is 2.4.0 (minor rises: 2.x readers take 2.1, 2.2, 2.3 and 2.4 reports)', () => {
  assert.equal(REPORT_SCHEMA_VERSION, '2.4.0');
});

test('cost: raw results with usage annotations give requests per surface, per test and creations per kind', () => {
  const c = costReport().cost!;
  assert.deepEqual(c.sources, { tests: 6, usage: false, pacing: false, leftovers: false, plan: false });
  assert.equal(c.requests.total, 60);
  assert.deepEqual(c.requests.bySurface, { 'rest-v2': 52, graphql: 3, serverless: 1, 'rest-v1': 4 });
  assert.deepEqual(c.created.tests, { gpuPods: 2, cpuPods: 3, networkVolumes: 1, endpoints: 1, warmEndpoints: 1, templates: 1, secrets: 1 });
  assert.deepEqual(c.requests.top.map((t) => [t.id, t.total]), [['t-prop', 40], ['t-create', 8], ['t-v1', 4], ['t-auth', 3], ['t-both', 3], ['t-both-2', 2]]);
  assert.equal(c.requests.top[0]!.title, 'fixture › createPod accepts every valid request (seed 1234)');
  for (const k of ['run', 'planned', 'byShape'] as const) assert.equal(c.created[k], undefined);
  for (const k of ['podMinutes', 'estimatedCostUsd', 'rateLimit', 'leftovers', 'plan'] as const) assert.equal(c[k], undefined, `${k}: not measured without its file`);
  assert.deepEqual(validateReport(costReport()), { valid: true });
});

test('cost: a retried test counts every attempt, in the sums and in its line of the heaviest tests', () => {
  const c = costReport().cost!;
  const raw = costRaw(true);
  assert.equal(raw.filter((r) => r.id === 't-create').length, 2);
  const again = costModule.costFromRaw(raw)!;
  assert.equal(again.requests.total, c.requests.total + 6);
  assert.equal(again.created.tests.gpuPods, c.created.tests.gpuPods + 1);
  assert.deepEqual(again.requests.top.find((t) => t.id === 't-create')?.total, 14);
  assert.equal(again.sources.tests, 7);
});

test('cost: the heaviest tests are at most 10, most first; no usage at all gives no section', () => {
  const many = Array.from({ length: 14 }, (_, i) => ({ ...costRaw()[0]!, id: `t${i}`, title: `test ${String(i).padStart(2, '0')}`, usage: usage({ 'rest-v2': i + 1 }) }));
  const c = costModule.costFromRaw(many)!;
  assert.equal(c.requests.top.length, 10);
  assert.deepEqual(c.requests.top.map((t) => t.total), [14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
  assert.equal(costModule.costFromRaw(costRaw().map(({ usage: _u, ...t }) => t)), undefined);
  assert.equal(fixtureReport().cost, undefined, 'a run whose tests recorded no usage has no section');
});

test('cost: malformed usage reads as zeros, never as a broken report', () => {
  const raw = costRaw().slice(0, 2).map((t, i) => ({ ...t, usage: (i ? { requests: { total: -3, bySurface: { 'rest-v2': 'x' } }, created: { gpuPods: 1.6, cpuPods: Infinity } } : { requests: { bySurface: { graphql: 2 } } }) as never }));
  const c = costModule.costFromRaw(raw)!;
  assert.equal(c.requests.total, 2, 'a missing total is the surfaces\' sum; a negative one is 0');
  assert.deepEqual(c.requests.bySurface, { graphql: 2 });
  assert.equal(c.created.tests.gpuPods, 2);
  assert.equal(c.created.tests.cpuPods, 0);
});

test('cost: the files beside the report add cost, pod-minutes, shapes, plan, rate-limit waits and leftovers', () => {
  const { dir, done } = tempDir('cost-files');
  try {
    writeDeploymentFiles(dir);
    const report = costReport(readCostFiles(dir));
    const c = report.cost!;
    assert.deepEqual(c.sources, { tests: 6, usage: true, pacing: true, leftovers: true, plan: true });
    assert.equal(c.requests.run, 1234);
    assert.deepEqual(c.created.run, { gpuPods: 3, cpuPods: 5, networkVolumes: 2, endpoints: 1, warmEndpoints: 1, templates: 1, secrets: 1 });
    assert.deepEqual(c.created.planned, { gpuPods: 2, cpuPods: 5, networkVolumes: 2, endpoints: 1, warmEndpoints: 1, templates: 1, secrets: 1 });
    assert.deepEqual(c.created.byShape, { 'GPU NVIDIA A40 x1': 3, 'CPU cpu3c 2 vCPU': 5, 'network volume': 2 });
    assert.deepEqual(c.podMinutes, { gpu: { 'NVIDIA A40': 12.5 }, cpu: { cpu3c: 7.25 } });
    assert.equal(c.estimatedCostUsd, 0.4321);
    assert.equal(c.unpriced, 1);
    assert.deepEqual(c.plan, { pools: ['cpuPod', 'gpuPod'], requests: 1500, estimatedCostUsd: 2.5 });
    assert.deepEqual(c.rateLimit, { waitedMs: 12_345, retried: 3, gaveUp: 1, tests: 1 });
    assert.deepEqual(c.leftovers, { created: 14, items: [{ kind: 'pod', id: 'pod-9', name: 'cpc-r1-gpu ', reason: 'DELETE answered 500', test: 'pods › create ' }] });
    assert.deepEqual(validateReport(report), { valid: true });
  } finally {
    done();
  }
});

test('cost: publishing reads the files only when they were written during the run, and only once', () => {
  const { dir, done } = tempDir('cost-window');
  try {
    writeDeploymentFiles(dir, ['usage', 'pacing']);
    const now = Date.now();
    const during = costReport(undefined, { startedAt: new Date(now - 60_000), finishedAt: new Date(now + 1000) });
    const added = withCostFiles(during, dir);
    assert.equal(added.cost!.sources.usage, true);
    assert.equal(added.cost!.sources.pacing, true);
    assert.equal(added.cost!.sources.leftovers, false);
    assert.equal(added.cost!.requests.total, during.cost!.requests.total, 'the tests\' part is kept');
    // Once the section has a file's part, publishing again (cpc report --from) reads nothing more.
    writeDeploymentFiles(dir, ['leftovers']);
    assert.equal(withCostFiles(added, dir), added);
    // A file older than the run is another run's (a deployment run's pacing.json left in the folder).
    const old = (Date.now() - 3_600_000) / 1000;
    for (const f of [COST_FILES.usage, COST_FILES.pacing, COST_FILES.leftovers]) utimesSync(join(dir, f), old, old);
    assert.equal(withCostFiles(during, dir).cost!.sources.usage, false);
    assert.equal(withCostFiles(during, dir), during);
  } finally {
    done();
  }
});

test('cost: an older report, a merged report and an unreadable file are left as they are', () => {
  const { dir, done } = tempDir('cost-skip');
  try {
    writeDeploymentFiles(dir);
    const now = Date.now();
    const old = { ...oldReport(), run: { ...oldReport().run, startedAt: new Date(now - 60_000).toISOString(), finishedAt: new Date(now + 1000).toISOString() } };
    assert.equal(withCostFiles(old, dir), old, 'a 2.1 report renders as it was written');
    const merged = { ...costReport(undefined, { startedAt: new Date(now - 60_000), finishedAt: new Date(now + 1000) }) };
    merged.run.configuration = { ...merged.run.configuration, mergedShards: 2 };
    assert.equal(withCostFiles(merged, dir), merged, 'a merged report\'s section was summed from its shards');
    writeFileSync(join(dir, COST_FILES.usage), '{"runId": "r1", "crea');
    const files = readCostFiles(dir);
    assert.equal(files.usage, undefined, 'a torn file is not measured');
    assert.ok(files.pacing && files.leftovers && files.plan);
  } finally {
    done();
  }
});

test('cost: merging partial reports sums the section; a shard without one adds nothing', () => {
  const { dir, done } = tempDir('cost-merge');
  try {
    writeDeploymentFiles(dir);
    const whole = costReport(readCostFiles(dir));
    const [a, b] = shardsOf(whole);
    // Each shard has the part of its own tests and its own files.
    a!.cost = costModule.addCostFiles(costModule.costFromRaw(costRaw().filter((_, k) => k % 2 === 0)), readCostFiles(dir));
    b!.cost = costModule.addCostFiles(costModule.costFromRaw(costRaw().filter((_, k) => k % 2 === 1)), readCostFiles(dir));
    const merged = mergeReports([a!, b!]);
    const c = merged.cost!;
    assert.equal(merged.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.equal(c.requests.total, whole.cost!.requests.total);
    assert.deepEqual(c.requests.bySurface, whole.cost!.requests.bySurface);
    assert.deepEqual(c.created.tests, whole.cost!.created.tests);
    assert.deepEqual(c.requests.top, whole.cost!.requests.top);
    assert.equal(c.requests.run, 2468);
    assert.equal(c.created.run!.gpuPods, 6);
    assert.equal(c.created.planned!.cpuPods, 10);
    assert.deepEqual(c.podMinutes, { gpu: { 'NVIDIA A40': 25 }, cpu: { cpu3c: 14.5 } });
    assert.ok(Math.abs(c.estimatedCostUsd! - 0.8642) < 1e-9);
    assert.deepEqual(c.rateLimit, { waitedMs: 24_690, retried: 6, gaveUp: 2, tests: 2 });
    assert.equal(c.leftovers!.items.length, 2);
    assert.equal(c.leftovers!.created, 28);
    assert.deepEqual(c.plan, { pools: ['cpuPod', 'gpuPod'], requests: 3000, estimatedCostUsd: 5 });
    assert.deepEqual(validateReport(merged), { valid: true });

    // One shard from an older suite (2.1, no section): the merged report has the other's section.
    const oldShard = { ...b!, schemaVersion: '2.1.0' };
    delete oldShard.cost;
    const mixed = mergeReports([a!, oldShard]);
    assert.equal(mixed.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.deepEqual(mixed.cost, costModule.mergeCost([a!.cost]));
  } finally {
    done();
  }
});

test('cost: an older report without the section still validates, merges (no section) and diffs', () => {
  const old = oldReport();
  assert.equal(old.cost, undefined);
  assert.deepEqual(validateReport(old), { valid: true });
  const merged = mergeReports(shardsOf(old));
  assert.equal(merged.cost, undefined);
  assert.equal(merged.schemaVersion, '2.1.0');
  assert.deepEqual(validateReport(merged), { valid: true });
  // diff compares rules; the section never makes two reports differ, nor breaks the comparison.
  const withCost = { ...clone(old), schemaVersion: REPORT_SCHEMA_VERSION, cost: costReport().cost! };
  assert.deepEqual(validateReport(withCost), { valid: true });
  assert.equal(diffReports(old, withCost).identical, true);
  assert.equal(diffReports(withCost, old).identical, true);
});

test('cost: the schema takes the full section and refuses a broken one', () => {
  const { dir, done } = tempDir('cost-schema');
  try {
    writeDeploymentFiles(dir);
    const good = costReport(readCostFiles(dir));
    assert.deepEqual(validateReport(good), { valid: true });
    const spoilt: [string, (r: ConformanceReport) => void, RegExp][] = [
      ['a negative request count', (r) => { r.cost!.requests.total = -1; }, /\/cost\/requests\/total/],
      ['an unknown kind', (r) => { (r.cost!.created.tests as unknown as Record<string, number>).gpus = 1; }, /additional/],
      ['more than 10 heaviest tests', (r) => { r.cost!.requests.top = Array.from({ length: 11 }, () => r.cost!.requests.top[0]!); }, /\/cost\/requests\/top/],
      ['a leftover without a reason', (r) => { delete (r.cost!.leftovers!.items[0] as Partial<{ reason: string }>).reason; }, /reason/],
      ['no sources', (r) => { delete (r.cost as Partial<NonNullable<ConformanceReport['cost']>>).sources; }, /sources/],
    ];
    for (const [name, spoil, issue] of spoilt) {
      const r = clone(good);
      spoil(r);
      const result = validateReport(r);
      assert.ok(!result.valid && result.issues.some((i) => issue.test(i)), `${name}: ${JSON.stringify(result)}`);
    }
  } finally {
    done();
  }
});

/** A Playwright test case and result, as much of them as the reporter reads. */
function playwrightTest(annotations: { type: string; description?: string }[], resultAnnotations: { type: string; description?: string }[]): { test: TestCase; result: TestResult } {
  const test = {
    id: 'pw-1', title: 'creates a pod', titlePath: () => ['', 'contract', 'pods.spec.ts', 'pods', 'creates a pod'], expectedStatus: 'passed',
    parent: { project: () => ({ name: 'contract' }) }, location: { file: join(process.cwd(), 'contract/specs/pods.spec.ts') }, annotations,
  } as unknown as TestCase;
  const result = { status: 'passed', duration: 12, startTime: new Date(0), parallelIndex: 0, annotations: resultAnnotations, attachments: [] } as unknown as TestResult;
  return { test, result };
}

test('cost: the raw reporter carries the usage annotations into each record (summed per attempt, never counted twice)', () => {
  const { dir, done } = tempDir('cost-reporter');
  try {
    const u1 = { type: ANNOTATION.usage, description: JSON.stringify(usage({ 'rest-v2': 3, graphql: 1 }, { gpuPods: 1 })) };
    const u2 = { type: ANNOTATION.usage, description: JSON.stringify(usage({ serverless: 2 })) };
    const cases = [
      // Playwright 1.5x: the result has this attempt's annotations, the test repeats them.
      playwrightTest([{ type: ANNOTATION.rule, description: 'POD.CREATE.VALID_201' }, u1, u2], [u1, u2]),
      // An older runner: only the test has them.
      playwrightTest([u1], []),
      // Unreadable: no usage field.
      playwrightTest([{ type: ANNOTATION.usage, description: '{"requests": ' }], []),
    ];
    const reporter = new RawResultsReporter({ rawDir: dir });
    reporter.onBegin({ workers: 1 } as FullConfig, { allTests: () => cases.map((c) => c.test) } as unknown as Suite);
    for (const c of cases) reporter.onTestEnd(c.test, c.result);
    reporter.onEnd({ status: 'passed' } as never);
    const raw = readRaw(dir).tests;
    assert.deepEqual(raw[0]!.usage, { requests: { total: 6, bySurface: { 'rest-v2': 3, graphql: 1, serverless: 2 } }, created: { gpuPods: 1 } });
    assert.deepEqual(raw[1]!.usage, { requests: { total: 4, bySurface: { 'rest-v2': 3, graphql: 1 } }, created: { gpuPods: 1 } });
    assert.equal(raw[2]!.usage, undefined);
    assert.match(readFileSync(join(dir, 'playwright.jsonl'), 'utf8'), /"usage":\{"requests":\{"total":6/);
  } finally {
    done();
  }
});

test('cost: the files in the example shapes are what the model expects (deploymentFiles stays in step with lib/plan.ts)', () => {
  // A compile-time check: the usage file of the fixture has every field of lib/plan.ts UsageFile.
  const u: import('../lib/protocol.js').UsageFile = deploymentFiles().usage as import('../lib/protocol.js').UsageFile;
  assert.equal(typeof u.requests, 'number');
  assert.deepEqual(Object.keys(u).sort(), ['byShape', 'created', 'estimatedCostUsd', 'podMinutes', 'requests', 'runId', 'unpriced', 'writtenAt']);
});
