// Load results: reading k6 summaries from reports/out/load/*.json, merging them as tests of
// kind `load`, and rendering thresholds and charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadOutcomes, readLoadResults } from '../reports/load.js';
import { buildReport } from '../reports/build.js';
import { validateReport } from '../reports/validate.js';
import { htmlRenderer } from '../reports/render/html.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { lineChart } from '../reports/render/svg/line.js';
import { barChart } from '../reports/render/svg/bars.js';
import { fixtureRules } from '../reports/test/fixture.js';
import { tempDir } from './reports-support.js';

const summary = (scenario: string, ok: boolean, extra: Record<string, unknown> = {}) => ({
  scenario, rules: ['RATE.HEADERS.ON_SUCCESS'], thresholds: { 'checks: rate>0.99': { ok, extraField: 'dropped' } }, checks: [{ name: 'has RateLimit', passes: 10, fails: ok ? 0 : 3 }],
  metrics: { http_req_duration: { p50: 1.5, p90: 2, p95: 3, p99: 9, max: 12 } }, series: { ratelimitRemaining: [[0, 60], [500, 58], [1000, 55]] }, state: { testRunDurationMs: 1000 }, ...extra,
});

test('load: every summary file is read, extra fields dropped, bad files listed as errors', () => {
  const { dir, done } = tempDir('load');
  try {
    writeFileSync(join(dir, 'a-ok.json'), JSON.stringify(summary('ok-scenario', true)));
    writeFileSync(join(dir, 'b-two.json'), JSON.stringify([summary('first', true), summary('second', false, { rules: ['RATE.HEADERS.ON_SUCCESS', 'NOPE.NOT.A_RULE'] })]));
    writeFileSync(join(dir, 'c-torn.json'), '{"scenario":');
    writeFileSync(join(dir, 'd-shape.json'), JSON.stringify({ scenario: 'x', thresholds: [], checks: [], metrics: {} }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const load = readLoadResults(dir, dir, new Set(fixtureRules.map((r) => r.id)))!;
    assert.deepEqual(load.scenarios.map((s) => [s.summary.scenario, s.ok, s.file]), [['ok-scenario', true, 'a-ok.json'], ['first', true, 'b-two.json[0]'], ['second', false, 'b-two.json[1]']]);
    assert.deepEqual(load.scenarios[2]!.failedThresholds, ['checks: rate>0.99']);
    assert.deepEqual(load.scenarios[0]!.summary.thresholds, { 'checks: rate>0.99': { ok: true } }, 'unknown fields are dropped');
    assert.equal((load.scenarios[0]!.summary as unknown as Record<string, unknown>).state, undefined);
    assert.deepEqual(load.errors.map((e) => e.file), ['b-two.json[1]', 'c-torn.json', 'd-shape.json']);
    assert.match(load.errors[0]!.message, /unknown rule ids: NOPE\.NOT\.A_RULE/);
    assert.match(load.errors[1]!.message, /not JSON/);
    assert.match(load.errors[2]!.message, /not a load summary/);
  } finally {
    done();
  }
});

test('load: no folder or an empty one means no load section', () => {
  const { dir, done } = tempDir('load-empty');
  try {
    assert.equal(readLoadResults(join(dir, 'missing')), undefined);
    mkdirSync(join(dir, 'empty'));
    assert.equal(readLoadResults(join(dir, 'empty')), undefined);
  } finally {
    done();
  }
});

test('load: a failed threshold fails the rules the scenario declares; the report validates and renders', () => {
  const { dir, done } = tempDir('load-merge');
  try {
    writeFileSync(join(dir, 'rl.json'), JSON.stringify(summary('ratelimit', false)));
    const load = readLoadResults(dir, dir)!;
    const [outcome] = loadOutcomes(load);
    assert.equal(outcome!.kind, 'load');
    assert.equal(outcome!.status, 'failed');
    assert.match(outcome!.error!, /thresholds not met: checks: rate>0\.99/);
    const report = buildReport({ rules: fixtureRules, raw: [], load, target: { kind: 'embedded', keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] },
      startedAt: new Date(0), finishedAt: new Date(1), complete: true, suiteVersion: '0' });
    assert.deepEqual(validateReport(report), { valid: true });
    assert.equal(report.rules.find((r) => r.id === 'RATE.HEADERS.ON_SUCCESS')!.verdict, 'fail');
    assert.equal(report.summary.conformant, false);
    const page = htmlRenderer.render(report);
    assert.match(page, /<svg class="chart bars"[^>]*aria-label="Latency percentiles \(http_req_duration\)"/);
    assert.match(page, /<svg class="chart line"[^>]*aria-label="RateLimit remaining over time"/);
    assert.match(page, /thresholds not met/);
    assert.match(markdownRenderer.render(report), /\| ratelimit \| ❌ not met \| 1\.5 ms \| 3\.0 ms \| 9\.0 ms \| checks: rate&gt;0\.99 \|/);
  } finally {
    done();
  }
});

test('load: a breached latency threshold is reported but fails no rule (the spec states no latency); a spec threshold beside it still does', () => {
  const { dir, done } = tempDir('load-latency');
  try {
    const latency = { 'checks rate==1': { ok: true }, 'http_req_duration{probe:during-storm} p(95)<2000': { ok: false }, 'payload_rejection_duration p(95)<3000': { ok: false } };
    writeFileSync(join(dir, 'a-latency.json'), JSON.stringify(summary('slow', true, { thresholds: latency })));
    writeFileSync(join(dir, 'b-both.json'), JSON.stringify(summary('slow-and-wrong', true, { thresholds: { ...latency, 'payload_refusals count>0': { ok: false } } })));
    const load = readLoadResults(dir, dir)!;
    assert.deepEqual(load.scenarios.map((s) => [s.ok, s.failedThresholds.length]), [[false, 2], [false, 3]], 'every breach is still reported');
    const [slow, wrong] = loadOutcomes(load);
    assert.deepEqual([slow!.status, slow!.failedRules, slow!.error], ['passed', [], undefined]);
    assert.deepEqual([wrong!.status, wrong!.failedRules], ['failed', ['RATE.HEADERS.ON_SUCCESS']]);
    assert.match(wrong!.error!, /thresholds not met: payload_refusals count>0/);
    const report = buildReport({ rules: fixtureRules, raw: [], load: { ...load, scenarios: [load.scenarios[0]!] }, target: { kind: 'embedded', keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] },
      startedAt: new Date(0), finishedAt: new Date(1), complete: true, suiteVersion: '0' });
    assert.equal(report.rules.find((r) => r.id === 'RATE.HEADERS.ON_SUCCESS')!.verdict, 'pass');
    assert.equal(report.summary.conformant, true);
  } finally {
    done();
  }
});

test('charts: bars scale to the largest value; the line steps through every point', () => {
  const bars = barChart('t', [['p50', 10], ['max', 40]]).text;
  const widths = [...bars.matchAll(/<rect [^>]*width="(\d+)"/g)].map((m) => Number(m[1]));
  assert.equal(widths.length, 2);
  assert.ok(Math.abs(widths[1]! / widths[0]! - 4) < 0.05, `widths ${widths.join(", ")} are in proportion 1:4`);
  assert.equal(barChart('t', []).text, '', 'nothing to draw, no chart');
  const line = lineChart('t', [[2000, 5], [0, 10], [1000, 7]], 'r').text;
  const d = /<path d="([^"]+)"/.exec(line)![1]!;
  assert.equal((d.match(/V/g) ?? []).length, 2, 'one vertical step per later point');
  assert.match(line, />10</, 'the y axis shows the maximum');
  assert.match(line, />2\.0 s</, 'the x axis spans the series');
});
