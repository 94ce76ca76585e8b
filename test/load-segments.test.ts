// @own-process: runs split k6 processes when k6 is there.
/**
 * Distributed load as k6-operator runs it: every scenario as two k6 processes at once against
 * one embedded emulator, `--execution-segment 0:1/2` and `1/2:1` with
 * `--execution-segment-sequence 0,1/2,1`. Both processes pass, and their summaries combine into
 * the scenario's one summary, which the report reads. Skipped without real k6. The arithmetic of
 * combining is tested without k6.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadScenarios } from '../run/load.js';
import { scenarioNames } from '../run/paths.js';
import { combineSummaries, executionSegments } from '../run/k6node/combine.js';
import { findK6 } from '../run/k6node/k6-binary.js';
import { loadRules } from '../lib/rules.js';
import type { LoadSummary } from '../reports/load-model.js';
import { readLoadResults } from '../reports/load.js';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../run/paths.js';

let outDir: string;
before(() => { outDir = mkdtempSync(join(tmpdir(), 'load-segments-')); });
after(() => { rmSync(outDir, { recursive: true, force: true }); });

test('an n-way split has the segments and sequence k6-operator gives its runners', () => {
  assert.deepEqual(executionSegments(2), { segments: ['0:1/2', '1/2:1'], sequence: '0,1/2,1' });
  assert.deepEqual(executionSegments(3), { segments: ['0:1/3', '1/3:2/3', '2/3:1'], sequence: '0,1/3,2/3,1' });
  assert.deepEqual(executionSegments(1), { segments: ['0:1'], sequence: '0,1' });
});

test('the k6-operator example splits as this test does: parallelism 2, at least one VU per runner', () => {
  const run = parseYaml(readFileSync(join(PROJECT_ROOT, 'load', 'k6-operator-testrun.yaml'), 'utf8')) as { spec: { parallelism: number; runner: { env: { name: string; value: string }[] } } };
  assert.equal(run.spec.parallelism, executionSegments(2).segments.length);
  const vus = Number(run.spec.runner.env.find((e) => e.name === 'CPC_LOAD_VUS')?.value);
  assert.ok(vus >= run.spec.parallelism, `CPC_LOAD_VUS ${vus} gives every runner a VU`);
});

test('combined summaries: thresholds hold only where every segment held, checks and counters add up', () => {
  const part = (ok: boolean, passes: number, fails: number, count: number, p95: number, startedAt: string): LoadSummary => ({
    scenario: 's', description: 'd.', rules: ['R'], startedAt, durationMs: count * 100,
    thresholds: { 'checks rate==1': { ok: true }, 'p count>0': { ok } },
    checks: [{ name: 'c', passes, fails }],
    metrics: { p: { count, rate: count / 10 }, checks: { rate: passes / (passes + fails), passes, fails }, http_req_duration: { p95, min: p95 / 2, max: p95 * 2 }, g: { value: count, min: 0, max: count } },
    series: { r: [[count * 10, count]] },
  });
  const c = combineSummaries([part(true, 3, 0, 2, 40, '2026-01-01T00:00:01.000Z'), part(false, 1, 1, 5, 30, '2026-01-01T00:00:00.000Z')], ['0:1/2', '1/2:1']);
  assert.deepEqual(c.thresholds, { 'checks rate==1': { ok: true }, 'p count>0': { ok: false } });
  assert.deepEqual(c.checks, [{ name: 'c', passes: 4, fails: 1 }]);
  assert.deepEqual(c.metrics.p, { count: 7, rate: 0.7 });
  assert.deepEqual(c.metrics.checks, { rate: 0.8, passes: 4, fails: 1 });
  assert.deepEqual(c.metrics.http_req_duration, { p95: 40, min: 15, max: 80 });
  assert.deepEqual(c.metrics.g, { value: 5, min: 0, max: 5 });
  assert.deepEqual(c.series, { r: [[20, 2], [50, 5]] });
  assert.equal(c.startedAt, '2026-01-01T00:00:00.000Z');
  assert.equal(c.durationMs, 500);
  assert.match(c.description!, /Combined from 2 k6 execution segments \(0:1\/2, 1\/2:1\)/);
  assert.throws(() => combineSummaries([part(true, 1, 0, 1, 1, 'x'), { ...part(true, 1, 0, 1, 1, 'x'), scenario: 'other' }], ['a', 'b']), /different scenarios/);
});

const k6 = findK6();
test('every scenario split in two k6 processes passes in both, and the report reads their combined summary', { skip: k6.found ? false : k6.reason }, async () => {
  const lines: string[] = [];
  const result = await runLoadScenarios({ env: { ...process.env, CPC_LOAD_VUS: '' }, runner: 'k6', segments: 2, outDir, quietScripts: true, print: (l) => lines.push(l) });
  assert.deepEqual(result.scenarios.map((s) => s.scenario), scenarioNames());
  for (const run of result.scenarios) {
    assert.deepEqual(run.segments?.map((s) => [s.segment, s.exitCode]), [['0:1/2', 0], ['1/2:1', 0]], `${run.scenario} with k6 ${k6.found ? k6.version : ''}:\n${lines.join('\n')}`);
    const parts = run.segments!.map((s) => JSON.parse(readFileSync(s.summaryFile, 'utf8')) as LoadSummary);
    const combined = JSON.parse(readFileSync(run.summaryFile, 'utf8')) as LoadSummary;
    // Both processes did work of their own, and the combination counts both.
    for (const p of parts) assert.ok(p.checks.some((c) => c.passes > 0), `${run.scenario}: a segment ran checks`);
    const total = (s: LoadSummary): number => s.checks.reduce((n, c) => n + c.passes + c.fails, 0);
    assert.equal(total(combined), total(parts[0]!) + total(parts[1]!));
    assert.ok(Object.values(combined.thresholds).every((t) => t.ok), `${run.scenario}: combined thresholds hold`);
  }
  assert.equal(result.exitCode, 0);
  const section = readLoadResults(outDir, outDir, new Set(loadRules().map((r) => r.id)));
  assert.deepEqual(section?.errors, []);
  assert.deepEqual(section?.scenarios.map((s) => [s.summary.scenario, s.ok]), scenarioNames().map((n) => [n, true]));
  for (const s of section!.scenarios) assert.match(s.summary.description ?? '', /Combined from 2 k6 execution segments/);
});
