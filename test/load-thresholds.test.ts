/**
 * The Node path's thresholds and metric arithmetic against k6's own rules: expression parsing
 * (metrics/thresholds_parser.go), evaluation, aggregation support per metric type, sinks
 * (metrics/sink.go: linear-interpolated percentiles, empty Rate quirk) and the engine's
 * sub-metrics and end-of-run evaluation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../run/k6node/duration.js';
import { EXIT } from '../run/k6node/exit-codes.js';
import { K6RunError } from '../lib/errors.js';
import { BUILTIN_METRICS, MetricsEngine, parseMetricName } from '../run/k6node/metrics-engine.js';
import { CounterSink, GaugeSink, RateSink, TrendSink } from '../run/k6node/sinks.js';
import { parseThreshold, runThreshold, validateAggregations } from '../run/k6node/thresholds.js';

const parses: [string, string, string, number, number?][] = [
  ['p(95)<500', 'p', '<', 500, 95],
  ['p(99.9) <= 2000', 'p', '<=', 2000, 99.9],
  ['avg<200', 'avg', '<', 200],
  ['max < 1e3', 'max', '<', 1000],
  ['min>=0', 'min', '>=', 0],
  ['med>1.5', 'med', '>', 1.5],
  ['rate>0.99', 'rate', '>', 0.99],
  ['rate==1', 'rate', '==', 1],
  ['count===0', 'count', '===', 0],
  ['count!=3', 'count', '!=', 3],
  ['value>-1', 'value', '>', -1],
];

test('threshold expressions parse as k6 parses them', () => {
  for (const [source, aggregation, operator, value, percentile] of parses) {
    const e = parseThreshold(source);
    assert.deepEqual([e.aggregation, e.operator, e.value, e.percentile], [aggregation, operator, value, percentile], source);
  }
});

test('malformed threshold expressions are invalid config (exit 104)', () => {
  for (const source of ['p95<500', 'p(x)<1', 'average<1', 'rate~1', 'rate>', 'rate>abc', '<5', 'p(95)']) {
    assert.throws(() => parseThreshold(source), (e: unknown) => e instanceof K6RunError && e.exitCode === EXIT.invalidConfig, source);
  }
});

test('each metric type accepts only its aggregations', () => {
  const table: [Parameters<typeof validateAggregations>[1], string, boolean][] = [
    ['counter', 'count>1', true], ['counter', 'rate>1', true], ['counter', 'avg<1', false],
    ['gauge', 'value<1', true], ['gauge', 'count<1', false],
    ['rate', 'rate>0.9', true], ['rate', 'count>0', false],
    ['trend', 'p(95)<1', true], ['trend', 'med<1', true], ['trend', 'rate<1', false], ['trend', 'count<1', false],
  ];
  for (const [type, source, ok] of table) {
    const run = () => validateAggregations('m', type, [{ expr: parseThreshold(source), abortOnFail: false }]);
    if (ok) assert.doesNotThrow(run, `${type} ${source}`);
    else assert.throws(run, (e: unknown) => e instanceof K6RunError && e.exitCode === EXIT.invalidConfig, `${type} ${source}`);
  }
});

test('threshold evaluation: pass, fail, and the missing-value error', () => {
  const values = { 'p(95)': 480, avg: 100, count: 0, rate: 1 };
  const table: [string, string][] = [
    ['p(95)<500', 'pass'], ['p(95)<480', 'fail'], ['p(95)<=480', 'pass'], ['avg>100', 'fail'], ['avg>=100', 'pass'],
    ['count==0', 'pass'], ['count!=0', 'fail'], ['rate==1', 'pass'], ['rate<1', 'fail'], ['p(99)<1', 'error'],
  ];
  for (const [source, kind] of table) assert.equal(runThreshold(parseThreshold(source), values).kind, kind, source);
});

test('trend percentiles interpolate linearly between ranks, as k6 does', () => {
  const t = new TrendSink();
  for (const v of [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]) t.add(v);
  assert.equal(t.p(0.5), 55);
  assert.equal(t.p(0.9), 91);
  assert.ok(Math.abs(t.p(0.95) - 95.5) < 1e-9);
  assert.equal(t.p(0), 10);
  assert.equal(t.p(1), 100);
  assert.deepEqual(t.summaryValues(0, ['avg', 'min', 'med', 'max', 'p(90)', 'count']), { avg: 55, min: 10, med: 55, max: 100, 'p(90)': 91, count: 10 });
  const empty = new TrendSink();
  assert.deepEqual(empty.thresholdValues(0, [95]), { min: 0, max: 0, avg: 0, med: 0, 'p(95)': 0 });
});

test('counter, gauge and rate sinks aggregate as k6 does', () => {
  const c = new CounterSink();
  c.add(2); c.add(3);
  assert.deepEqual(c.thresholdValues(2000), { count: 5, rate: 2.5 });
  const g = new GaugeSink();
  g.add(5); g.add(-1); g.add(3);
  assert.deepEqual(g.summaryValues(), { value: 3, min: -1, max: 5 });
  const r = new RateSink();
  for (const v of [1, 0, 1, 1]) r.add(v);
  assert.deepEqual(r.summaryValues(), { rate: 0.75, passes: 3, fails: 1 });
  // k6 leaves `rate` out of an empty Rate: its thresholds error instead of failing.
  assert.deepEqual(new RateSink().thresholdValues(), {});
});

test('durations and metric names parse as in k6 options', () => {
  assert.equal(parseDuration('1m30s', 'x'), 90_000);
  assert.equal(parseDuration('250ms', 'x'), 250);
  assert.equal(parseDuration(1500, 'x'), 1500);
  assert.equal(parseDuration('2', 'x'), 2000);
  assert.throws(() => parseDuration('soon', 'x'), K6RunError);
  assert.deepEqual(parseMetricName('http_req_duration{scenario:a,probe:"x y"}'), { name: 'http_req_duration', tags: { scenario: 'a', probe: 'x y' } });
  assert.throws(() => parseMetricName('m{a}'), K6RunError);
});

test('the engine fills sub-metrics by tags, skips empty sinks mid-run and evaluates every sink at the end', () => {
  const engine = new MetricsEngine([...BUILTIN_METRICS, { name: 'probes', type: 'counter', contains: 'default' }], {
    'http_req_duration{scenario:a}': ['p(95)<100'],
    checks: ['rate==1'],
    probes: ['count>0'],
  }, parseDuration);
  engine.ingest([
    { metric: 'http_req_duration', value: 50, tags: { scenario: 'a' } },
    { metric: 'http_req_duration', value: 500, tags: { scenario: 'b' } },
  ]);
  // Mid-run: `probes` and `checks` are empty, so only the sub-metric is judged (and holds).
  assert.deepEqual(engine.evaluate(1000, false).breached, []);
  // At the end: the empty counter fails `count>0`; the empty Rate errors and is skipped, as in k6.
  assert.deepEqual(engine.evaluate(1000, true).breached, ['probes']);
  const summary = engine.summary(1000, ['p(95)']) as Record<string, { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;
  assert.equal(summary['http_req_duration{scenario:a}']!.values['p(95)'], 50);
  assert.equal(summary.http_req_duration!.values['p(95)'], 477.5);
  assert.deepEqual(summary.probes!.thresholds, { 'count>0': { ok: false } });
  assert.ok(summary.checks, 'a metric with thresholds appears in the summary without samples');
});

test('a threshold on a metric the script never defines is invalid config (exit 104)', () => {
  assert.throws(() => new MetricsEngine(BUILTIN_METRICS, { nope: ['count>0'] }, parseDuration),
    (e: unknown) => e instanceof K6RunError && e.exitCode === EXIT.invalidConfig);
});
