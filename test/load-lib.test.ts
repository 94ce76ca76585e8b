/**
 * The scenarios' pure helpers (load/lib): payload sizes around both readings of MB, job bodies
 * of an exact size, the on-time window of a wait, out-of-range classification, knobs, and the
 * summary handleSummary writes, checked against the report's own schema for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intKnob, latencyThresholds, numberKnob, targetUrls, timingMode } from '../load/lib/config.ts';
import { LoadConfigError } from '../lib/iso/errors.ts';
import { jobBody, limitSizes } from '../load/lib/payload.ts';
import { MB, MIB } from '../lib/iso/spec-constants.ts';
import { summaryOutputs, toLoadSummary, type K6SummaryData } from '../load/lib/summary.ts';
import { classifyOutOfRange, waitProbes, waitWindow } from '../load/lib/wait-timing.ts';
import { validateLoadSummary } from '../reports/validate.js';

test('payload sizes keep a margin around both readings of MB', () => {
  for (const limit of [10, 20]) {
    const s = limitSizes(limit);
    assert.ok(s.accept < limit * MB, 'accept is under the decimal reading');
    assert.ok(s.between > limit * MB && s.between < limit * MIB, 'between lies between the readings');
    assert.ok(s.refuse > limit * MIB, 'refuse is over the binary reading');
  }
  assert.deepEqual(limitSizes(20), { accept: 19_500_000, between: 20_485_760, refuse: 21_495_808 });
});

test('a job body has exactly the size asked, and streams one small item instead of echoing', () => {
  for (const n of [40, 1000, 1_234_567]) {
    const body = jobBody(n);
    assert.equal(Buffer.byteLength(body), n);
    assert.equal((JSON.parse(body) as { input: { stream: number } }).input.stream, 1);
  }
  assert.throws(() => jobBody(10), RangeError);
});

test('a wait is on time from W/scale (less a virtual millisecond) to W/scale plus the tolerance', () => {
  const tol = { virtualMs: 5000, realFloorMs: 400 };
  assert.deepEqual(waitWindow(300_000, 100, tol), { earliestMs: 2998.99, latestMs: 3400 });
  assert.deepEqual(waitWindow(1000, 1, tol), { earliestMs: 998, latestMs: 6000 });
  const probes = waitProbes();
  assert.deepEqual(probes.filter((p) => p.kind === 'slow').map((p) => p.wait), [1000, 300_000, undefined]);
  for (const p of probes) assert.ok(p.kind === 'slow' ? p.sleepMs > p.effectiveMs : p.sleepMs < p.effectiveMs, JSON.stringify(p));
});

test('out-of-range waits are classified by status and elapsed target time', () => {
  assert.equal(classifyOutOfRange(500, 400, 3), 'refused with 400');
  assert.equal(classifyOutOfRange(500, 200, 1000), 'clamped into 1000..300000');
  assert.equal(classifyOutOfRange(400_000, 200, 300_100), 'clamped into 1000..300000');
  assert.equal(classifyOutOfRange(400_000, 200, 400_050), 'honoured as given');
  assert.equal(classifyOutOfRange(500, 500, 0), 'answered 500');
  assert.equal(classifyOutOfRange(500, 200, 90_000), 'answered after 90000 ms');
});

test('knobs take their defaults, accept valid values and refuse the rest', () => {
  assert.equal(intKnob({}, 'N', 3), 3);
  assert.equal(intKnob({ N: '7' }, 'N', 3), 7);
  assert.equal(numberKnob({ S: '2.5' }, 'S', 1), 2.5);
  for (const bad of ['0', '-1', '1.5', 'many']) assert.throws(() => intKnob({ N: bad }, 'N', 3), LoadConfigError, bad);
  assert.deepEqual(targetUrls({ CPC_BASE_URL: 'http://h:1/' }), { baseUrl: 'http://h:1', serverlessUrl: 'http://h:1' });
  assert.throws(() => targetUrls({}), LoadConfigError);
  assert.throws(() => targetUrls({ CPC_BASE_URL: 'ftp://h' }), LoadConfigError);
});

const data: K6SummaryData = {
  state: { testRunDurationMs: 1234.4 },
  setup_data: { keys: ['secret-key'] },
  root_group: {
    name: '', path: '', checks: [{ name: 'a check', passes: 3, fails: 1 }],
    groups: [{ name: 'g', path: '::g', groups: [], checks: [{ name: 'inner', passes: 1, fails: 0 }] }],
  },
  metrics: {
    http_req_duration: { type: 'trend', contains: 'time', values: { avg: 2, min: 1, med: 2, max: 9, 'p(50)': 2, 'p(90)': 5, 'p(95)': 7, 'p(99)': 9 }, thresholds: { 'p(95)<500': { ok: true } } },
    http_reqs: { type: 'counter', values: { count: 10, rate: 8.1 } },
    checks: { type: 'rate', values: { rate: 0.8, passes: 4, fails: 1 }, thresholds: { 'rate==1': { ok: false } } },
    rl_s00: { type: 'gauge', values: { value: 5, min: 5, max: 5 } },
    rl_s03: { type: 'gauge', values: { value: 0, min: 0, max: 0 } },
  },
};
const meta = { scenario: 'demo', description: 'a demo', rules: ['RATE.WINDOWS'], series: { ratelimitRemaining: { prefix: 'rl_s', sliceMs: 100 } } };

test('the summary has the report\'s shape: thresholds by name, flat checks, p50..p99, series from slice gauges', () => {
  const s = toLoadSummary(data, meta, Date.parse('2026-01-01T00:00:01.234Z'), 'node');
  assert.equal(s.runner, 'node');
  // The report keeps the fields it knows (reports/load-model.ts) and validates those.
  const { runner: _runner, ...known } = s;
  assert.deepEqual(validateLoadSummary(known), { valid: true });
  assert.deepEqual(s.thresholds, { 'checks rate==1': { ok: false }, 'http_req_duration p(95)<500': { ok: true } });
  assert.deepEqual(s.checks, [{ name: 'a check', passes: 3, fails: 1 }, { name: 'g › inner', passes: 1, fails: 0 }]);
  const metrics = s.metrics as Record<string, Record<string, number>>;
  assert.deepEqual([metrics.http_req_duration!.p50, metrics.http_req_duration!.p95, metrics.http_req_duration!.p99, metrics.http_req_duration!.max], [2, 7, 9, 9]);
  assert.equal(metrics.rl_s00, undefined, 'slice gauges become the series, not metrics');
  assert.deepEqual(s.series, { ratelimitRemaining: [[0, 5], [300, 0]] });
  assert.equal(s.startedAt, '2026-01-01T00:00:00.000Z');
});

test('handleSummary writes the JSON under CPC_LOAD_OUT_DIR and never the setup data (it holds keys)', () => {
  const out = summaryOutputs(data, meta, { CPC_LOAD_OUT_DIR: '/tmp/x/' });
  assert.deepEqual(Object.keys(out).sort(), ['/tmp/x/demo.json', 'stdout']);
  assert.ok(!out['/tmp/x/demo.json']!.includes('secret-key'));
  assert.match(out.stdout!, /FAILED \(1 threshold\)/);
});

test('beside the suites, the wait-range scenario runs in a process of its own and the others share one, in their order', async () => {
  const { besideGroups } = await import('../run/load-beside.js');
  assert.deepEqual(besideGroups(['payload-limits', 'rate-limit-headers', 'wait-range']), [['payload-limits', 'rate-limit-headers'], ['wait-range']]);
  assert.deepEqual(besideGroups(['wait-range']), [['wait-range']]);
  assert.deepEqual(besideGroups(['rate-limit-headers']), [['rate-limit-headers']]);
});

test('CPC_LOAD_TIMING: latency thresholds judged on a real load run, left out where durations are only observed', () => {
  const p95 = { 'http_req_duration{probe:x}': ['p(95)<2000'] };
  assert.equal(timingMode({}), 'judge');
  assert.deepEqual(latencyThresholds({}, p95), p95);
  assert.deepEqual(latencyThresholds({ CPC_LOAD_TIMING: 'judge' }, p95), p95);
  assert.deepEqual(latencyThresholds({ CPC_LOAD_TIMING: 'observe' }, p95), {});
  assert.throws(() => timingMode({ CPC_LOAD_TIMING: 'fast' }), (e) => e instanceof LoadConfigError && /CPC_LOAD_TIMING must be judge or observe, got "fast"/.test(e.message));
});
