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
 * Time is the target's (load/lib/target-clock.ts). On the emulator each VU's account lives in a
 * world of its own whose clock is manual: it stands still during a burst, however long the burst
 * takes on a busy machine, and waiting `Retry-After` is one step of that clock. On a real target
 * windows roll over in real time, also during a burst: each answer is judged in the window it
 * states, and a burst cut short by a new window is followed by another until one refuses.
 *
 *   k6 run -e CPC_BASE_URL=http://127.0.0.1:8787 load/rate-limit-headers.ts
 */
import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { intKnob, latencyThresholds } from './lib/config.ts';
import { CHECK } from './lib/ratelimit-checks.ts';
import { complete, headerValue, readRateLimit, type PolicyMember } from '../lib/iso/rate-limit-fields.ts';
import type { RateWindow } from '../lib/iso/spec-constants.ts';
import { createMonitor, type Observed, type Outcome, type RateLimitMonitor } from './lib/ratelimit-monitor.ts';
import { summaryOutputs, TREND_STATS, type K6SummaryData } from './lib/summary.ts';
import { bearer, closeTarget, openTargetPerAccount, type Target } from './lib/target.ts';
import { targetClock, type TargetClock } from './lib/target-clock.ts';

const VUS = intKnob(__ENV, 'CPC_LOAD_VUS', 2, 1, 1000);
const ITERATIONS = intKnob(__ENV, 'CPC_LOAD_ITERATIONS', 2, 1, 100000);
/** Concurrency of one batch (k6's `batchPerHost`); a burst larger than this goes out in several batches. */
const BATCH = intKnob(__ENV, 'CPC_LOAD_BATCH', 100, 1, 1000);
/** Requests beyond what the minute window has left in one burst. */
const EXTRA = intKnob(__ENV, 'CPC_LOAD_EXTRA', 5, 1, 10000);
/** The emulator worlds' minute quota. */
const QUOTA_MINUTE = intKnob(__ENV, 'CPC_LOAD_QUOTA_MINUTE', 20, 1, 100000);
/** Bursts sent before a target that never refuses is given up on, in minute quotas' worth (plus EXTRA each). */
const MAX_QUOTAS = 3;
/** Longest real wait for a Retry-After before the recovery step is skipped, in seconds (none on the emulator: its clock steps). */
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

/** `targets`: one per account on the emulator (each its own world and clock); one holding every key on a real target. */
interface SetupData { targets: Target[]; baseline: Record<RateWindow, PolicyMember> | null; sliceMs: number }

export function setup(): SetupData {
  // scale 0: the worlds' clocks are manual, moved only by the VU that owns each (targetClock).
  const targets = openTargetPerAccount(__ENV, { quotas: { minute: QUOTA_MINUTE, hour: 1000000, day: 10000000 }, scale: 0 }, VUS);
  const probe = http.get(`${targets[0]!.baseUrl}/v2/pods`, { headers: bearer(targets[0]!.keys[0]!), responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429) });
  const reading = readRateLimit(probe.headers);
  // Each iteration lets at most a minute window pass (its Retry-After), in the target's time.
  const expectedMs = ITERATIONS * (60000 * 1.2 + 1000);
  return { targets, baseline: complete(reading) ? reading.policy : null, sliceMs: Math.ceil(expectedMs / SLICES) };
}

/** One VU's own state: its target, key, clock (the target's time) and monitor. */
interface VuState { target: Target; key: string; clock: TargetClock; originMs: number; monitor: RateLimitMonitor }
let vu: VuState | undefined;

function vuState(setupData: SetupData): VuState {
  if (vu) return vu;
  const { targets, baseline } = setupData;
  const i = exec.vu.idInTest - 1;
  const target = targets[i % targets.length]!;
  const clock = targetClock(target);
  const accounts = targets.reduce((n, t) => n + t.keys.length, 0);
  vu = {
    target, key: target.keys[i % target.keys.length]!, clock, originMs: clock.at(exec.scenario.startTime),
    monitor: createMonitor({ baseline: baseline ?? undefined, ownAccount: accounts >= VUS }),
  };
  return vu;
}

function record(outcomes: Outcome[]): void {
  let logged = 0;
  for (const o of outcomes) {
    check(o.ok, { [o.name]: (v) => v });
    if (!o.ok && logged++ < 3) console.warn(`rate-limit: ${o.name}: ${o.why ?? ''}`);
  }
}

/** One batch of `count` concurrent requests; every time in the result is the target's (ms). */
function send(s: VuState, count: number, sliceMs: number): { observed: Observed[]; start: number; end: number } {
  const params = { headers: bearer(s.key), responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429) };
  const startReal = Date.now();
  const responses = http.batch(Array.from({ length: count }, () => ['GET', `${s.target.baseUrl}/v2/pods`, null, params] as [string, string, null, typeof params]));
  const end = s.clock.at(Date.now());
  // k6's timings place each answer's first byte: blocked (waiting for a connection) + connecting + TLS + sending + waiting.
  const observed = responses.map((r) => ({
    status: r.status, headers: r.headers, body: typeof r.body === 'string' ? r.body : null,
    atMs: s.clock.at(startReal + r.timings.blocked + r.timings.connecting + r.timings.tls_handshaking + r.timings.sending + r.timings.waiting),
  }));
  if (exec.vu.idInTest === 1) {
    const slice = Math.min(SLICES - 1, Math.max(0, Math.floor((end - s.originMs) / sliceMs)));
    const last = observed.map((o) => readRateLimit(o.headers).limit.minute?.r).filter((r): r is number => r !== undefined);
    if (last.length) remaining[slice]!.add(Math.min(...last));
  }
  return { observed, start: s.clock.at(startReal), end };
}

export default function (setupData: SetupData): void {
  const s = vuState(setupData);
  const { sliceMs } = setupData;
  const quota = setupData.baseline?.minute.q ?? 60;
  let sent = 0;
  let refused: Observed[] = [];
  // Each burst asks for what the minute window has left, plus EXTRA: a window that rolls over
  // during a burst (real time) leaves no refusal, so the next burst spends the new one.
  while (refused.length === 0 && sent < MAX_QUOTAS * (quota + EXTRA)) {
    const size = Math.min(BATCH, (s.monitor.remaining('minute') ?? quota) + EXTRA);
    const { observed, start, end } = send(s, size, sliceMs);
    sent += size;
    record(s.monitor.observeBatch(observed, start, end));
    refused = observed.filter((o) => o.status === 429);
  }
  if (refused.length === 0) { unexhausted.add(1); return; }
  refusals.add(refused.length);
  const waits = refused.map((o) => Number((headerValue(o.headers, 'Retry-After') ?? '').trim())).filter((n) => Number.isInteger(n) && n >= 0);
  if (waits.length === 0) return;
  const wait = Math.max(...waits);
  retryAfter.add(wait);
  if (s.clock.realSeconds(wait) > MAX_WAIT_S) { console.warn(`rate-limit: Retry-After ${wait}s exceeds CPC_LOAD_MAX_WAIT_S; recovery not checked this iteration`); return; }
  s.clock.pass(wait);
  const after = send(s, 1, sliceMs);
  record(s.monitor.observeBatch(after.observed, after.start, after.end));
  const ok = after.observed[0]!.status >= 200 && after.observed[0]!.status < 300;
  check(ok, { [CHECK.recovered]: (v) => v });
  if (ok) recoveries.add(1);
}

export function teardown(setupData: SetupData): void {
  for (const target of setupData.targets) closeTarget(target);
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
