/**
 * Rate-limit headers under concurrency (spec, Limits and Errors): every answer's `RateLimit`
 * and `RateLimit-Policy` parse as structured-field Lists with `minute`, `hour` and `day`; `q`
 * and `w` stay constant; within a window `r` only falls and never below 0, and `t` never
 * exceeds `w`; a 429 comes exactly when a window is exhausted, with `Retry-After` no earlier
 * than that window's `t`, a detail naming the window, and after the wait requests succeed.
 *
 * Each VU sends bursts of concurrent `GET /v2/pods` (http.batch) until the minute window
 * refuses, waits `Retry-After`, and checks that it is admitted again. On the emulator every VU
 * has its own account (limits are per user), so refusals can be counted exactly; on a real
 * target give one key per VU in CPC_LOAD_API_KEYS for the same, otherwise the VUs share one.
 *
 *   k6 run -e CPC_BASE_URL=http://127.0.0.1:8787 load/rate-limit-headers.ts
 */
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { intKnob, latencyThresholds, numberKnob } from './lib/config.ts';
import { CHECK } from './lib/ratelimit-checks.ts';
import { complete, headerValue, readRateLimit, type PolicyMember } from '../lib/iso/rate-limit-fields.ts';
import type { RateWindow } from '../lib/iso/spec-constants.ts';
import { createMonitor, type Observed, type Outcome, type RateLimitMonitor } from './lib/ratelimit-monitor.ts';
import { summaryOutputs, TREND_STATS, type K6SummaryData } from './lib/summary.ts';
import { bearer, closeTarget, openTarget, type Target } from './lib/target.ts';

const VUS = intKnob(__ENV, 'CPC_LOAD_VUS', 2, 1, 1000);
const ITERATIONS = intKnob(__ENV, 'CPC_LOAD_ITERATIONS', 2, 1, 100000);
/** Concurrency of one batch (k6's `batchPerHost`); a burst larger than this goes out in several batches. */
const BATCH = intKnob(__ENV, 'CPC_LOAD_BATCH', 100, 1, 1000);
/** Requests beyond the minute quota in one burst. */
const EXTRA = intKnob(__ENV, 'CPC_LOAD_EXTRA', 5, 1, 10000);
/** The emulator world's minute quota and clock scale (a 60 s window lasts 60/scale real seconds). */
const QUOTA_MINUTE = intKnob(__ENV, 'CPC_LOAD_QUOTA_MINUTE', 20, 1, 100000);
const SCALE = numberKnob(__ENV, 'CPC_LOAD_SCALE', 40, 0, 10000);
/** Longest real wait for a Retry-After before the recovery step is skipped, in seconds. */
const MAX_WAIT_S = intKnob(__ENV, 'CPC_LOAD_MAX_WAIT_S', 120, 1, 86400);
const P95_MS = intKnob(__ENV, 'CPC_LOAD_P95_MS', 2000, 1, 600000);
const SLICES = 30;

export const options = {
  scenarios: { bursts: { executor: 'per-vu-iterations', vus: VUS, iterations: ITERATIONS, maxDuration: '10m' } },
  batch: BATCH,
  batchPerHost: BATCH,
  summaryTrendStats: TREND_STATS,
  thresholds: {
    checks: ['rate==1'],
    'http_req_failed{scenario:bursts}': ['rate==0'],
    ...latencyThresholds(__ENV, { 'http_req_duration{scenario:bursts}': [`p(95)<${P95_MS}`] }),
    ratelimit_refusals: ['count>0'],
    ratelimit_recoveries: ['count>0'],
  },
};

const refusals = new Counter('ratelimit_refusals');
const recoveries = new Counter('ratelimit_recoveries');
const unexhausted = new Counter('ratelimit_bursts_not_exhausted');
const retryAfter = new Trend('ratelimit_retry_after_s');
// Gauges per time slice carry the first VU's minute `r` to handleSummary (the report's series).
const remaining = Array.from({ length: SLICES }, (_, i) => new Gauge(`ratelimit_remaining_s${String(i).padStart(2, '0')}`));

interface SetupData { target: Target; baseline: Record<RateWindow, PolicyMember> | null; sliceMs: number }

export function setup(): SetupData {
  const target = openTarget(__ENV, { quotas: { minute: QUOTA_MINUTE, hour: 1000000, day: 10000000 }, scale: SCALE }, VUS);
  const probe = http.get(`${target.baseUrl}/v2/pods`, { headers: bearer(target.keys[0]!), responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429) });
  const reading = readRateLimit(probe.headers);
  const expectedMs = ITERATIONS * ((60000 / target.scale) * 1.2 + 1000);
  return { target, baseline: complete(reading) ? reading.policy : null, sliceMs: Math.ceil(expectedMs / SLICES) };
}

let monitor: RateLimitMonitor | undefined;

function record(outcomes: Outcome[]): void {
  let logged = 0;
  for (const o of outcomes) {
    check(o.ok, { [o.name]: (v) => v });
    if (!o.ok && logged++ < 3) console.warn(`rate-limit: ${o.name}: ${o.why ?? ''}`);
  }
}

function send(target: Target, key: string, count: number, sliceMs: number): { observed: Observed[]; start: number; end: number } {
  const params = { headers: bearer(key), responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429) };
  const start = Date.now();
  const responses = http.batch(Array.from({ length: count }, () => ['GET', `${target.baseUrl}/v2/pods`, null, params] as [string, string, null, typeof params]));
  const end = Date.now();
  // k6's timings place each answer's first byte: blocked (waiting for a connection) + connecting + TLS + sending + waiting.
  const observed = responses.map((r) => ({
    status: r.status, headers: r.headers, body: typeof r.body === 'string' ? r.body : null,
    atMs: start + r.timings.blocked + r.timings.connecting + r.timings.tls_handshaking + r.timings.sending + r.timings.waiting,
  }));
  if (exec.vu.idInTest === 1) {
    const slice = Math.min(SLICES - 1, Math.floor((end - exec.scenario.startTime) / sliceMs));
    const last = observed.map((o) => readRateLimit(o.headers).limit.minute?.r).filter((r): r is number => r !== undefined);
    if (last.length) remaining[slice]!.add(Math.min(...last));
  }
  return { observed, start, end };
}

export default function (setupData: SetupData): void {
  const { target, sliceMs } = setupData;
  const key = target.keys[(exec.vu.idInTest - 1) % target.keys.length]!;
  const quota = setupData.baseline?.minute.q ?? 60;
  let sent = 0;
  let refused: Observed[] = [];
  while (refused.length === 0 && sent < quota + EXTRA) {
    const size = Math.min(BATCH, quota + EXTRA - sent);
    const { observed, start, end } = send(target, key, size, sliceMs);
    sent += size;
    if (!monitor) monitor = createMonitor({ scale: target.scale, baseline: setupData.baseline ?? undefined, ownAccount: target.keys.length >= VUS });
    record(monitor.observeBatch(observed, start, end));
    refused = observed.filter((o) => o.status === 429);
  }
  if (refused.length === 0) { unexhausted.add(1); return; }
  refusals.add(refused.length);
  const waits = refused.map((o) => Number((headerValue(o.headers, 'Retry-After') ?? '').trim())).filter((n) => Number.isInteger(n) && n >= 0);
  if (waits.length === 0) return;
  const wait = Math.max(...waits);
  retryAfter.add(wait);
  const realWaitS = wait / target.scale;
  if (realWaitS > MAX_WAIT_S) { console.warn(`rate-limit: Retry-After ${wait}s exceeds CPC_LOAD_MAX_WAIT_S; recovery not checked this iteration`); return; }
  sleep(realWaitS + 0.01);
  const after = send(target, key, 1, sliceMs);
  record(monitor!.observeBatch(after.observed, after.start, after.end));
  const ok = after.observed[0]!.status >= 200 && after.observed[0]!.status < 300;
  check(ok, { [CHECK.recovered]: (v) => v });
  if (ok) recoveries.add(1);
}

export function teardown(setupData: SetupData): void {
  closeTarget(setupData.target);
}

export function handleSummary(summary: K6SummaryData): Record<string, string> {
  const setupData = summary.setup_data as SetupData | undefined;
  return summaryOutputs(summary, {
    scenario: 'rate-limit-headers',
    description: 'RateLimit and RateLimit-Policy under concurrent bursts until the minute window refuses, then recovery after Retry-After.',
    rules: ['RATE.RATELIMIT.MEMBERS', 'RATE.POLICY.MEMBERS', 'RATE.WINDOWS', 'RATE.POLICY.WINDOW_LENGTHS', 'RATE.RATELIMIT.BOUNDS',
      'RATE.HEADERS.ON_SUCCESS', 'RATE.429.ON_EXCEEDED', 'RATE.429.HEADERS', 'RATE.429.RETRY_AFTER_INTEGER', 'RATE.429.DETAIL_NAMES_WINDOW'],
    series: setupData ? { ratelimitRemaining: { prefix: 'ratelimit_remaining_s', sliceMs: setupData.sliceMs } } : {},
  }, __ENV);
}
