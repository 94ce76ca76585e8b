/**
 * The `/runsync` wait range (spec, Limits: "`wait` range | 1000 to 300000 milliseconds; it
 * controls how long the request waits", "Default wait | 90 seconds"). With a job slower than
 * the wait (the conformance handler's `sleepMs`), `/runsync` answers when the wait elapses: not
 * before, and not much after; a job that ends within the wait comes back COMPLETED before it
 * elapses. Waits outside the range are sent too, and what the target does is recorded.
 *
 * On the emulator the world's clock runs `CPC_LOAD_SCALE` times faster than real time, so the
 * 300 s wait takes 300 / scale real seconds; every expected duration is divided by the scale.
 *
 *   k6 run -e CPC_BASE_URL=http://127.0.0.1:8787 load/wait-range.ts
 */
import http from 'k6/http';
import { check } from 'k6';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { intKnob, numberKnob, timingMode } from './lib/config.ts';
import { bodyJson, cancelJob, endpointOf, jobParams, jobUrl } from './lib/jobs.ts';
import { summaryOutputs, TREND_STATS, type K6SummaryData } from './lib/summary.ts';
import { closeTarget, openTarget, type Target } from './lib/target.ts';
import { WAIT_MS } from '../lib/iso/spec-constants.ts';
import { classifyOutOfRange, latenessVirtualMs, OUT_OF_RANGE_WAITS, waitProbes, waitWindow, type Tolerance } from './lib/wait-timing.ts';

const VUS = intKnob(__ENV, 'CPC_LOAD_VUS', 1, 1, 100);
const ITERATIONS = intKnob(__ENV, 'CPC_LOAD_ITERATIONS', 1, 1, 1000);
const SCALE = numberKnob(__ENV, 'CPC_LOAD_SCALE', 50, 0, 10000);
const TOLERANCE: Tolerance = {
  virtualMs: intKnob(__ENV, 'CPC_LOAD_WAIT_TOLERANCE_MS', 5000, 0, 600000),
  realFloorMs: intKnob(__ENV, 'CPC_LOAD_WAIT_TOLERANCE_FLOOR_MS', 250, 0, 600000),
};
/** Whether lateness is a check (a real load run) or an observation (a test: CPC_LOAD_TIMING=observe). */
const JUDGE_LATENESS = timingMode(__ENV) === 'judge';

export const options = {
  scenarios: { waits: { executor: 'per-vu-iterations', vus: VUS, iterations: ITERATIONS, maxDuration: '60m' } },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '2m',
  thresholds: {
    checks: ['rate==1'],
    wait_probes: ['count>0'],
    'http_req_failed{probe:wait}': ['rate==0'],
  },
};

const probes = new Counter('wait_probes');
const lateness = new Trend('wait_lateness_virtual_ms');
// Observed, never failed, when timing is observed: answers later than the lateness checks allow.
const lateAnswers = new Counter('observed_wait_late_answers');
// Observed, never failed: what the target answered to each out-of-range wait, and after how long (target time).
const outOfRange: Record<number, { status: Gauge; elapsed: Gauge }> = {};
for (const w of OUT_OF_RANGE_WAITS) outOfRange[w] = { status: new Gauge(`observed_wait_${w}_http_status`), elapsed: new Gauge(`observed_wait_${w}_answer_virtual_ms`) };

export function setup(): Target {
  const target = openTarget(__ENV, { quotas: { minute: 100000, hour: 1000000, day: 10000000 }, scale: SCALE }, 1);
  endpointOf(target);
  // One untimed /runsync before the probes: the first exchange pays for the connection and for
  // code run the first time (a 1 s wait lasts 20 ms at the default scale, so that would count).
  runsync(target, WAIT_MS.min, 0, 'warm-up');
  return target;
}

const runsync = (target: Target, wait: number | undefined, sleepMs: number, tag: string) => {
  const timeoutMs = Math.ceil((wait ?? WAIT_MS.default) / target.scale) + 120000;
  return http.post(`${jobUrl(target, 'runsync')}${wait === undefined ? '' : `?wait=${wait}`}`, JSON.stringify({ input: { sleepMs } }),
    jobParams(target, { probe: tag }, timeoutMs, tag === 'wait' ? [{ min: 200, max: 299 }] : [{ min: 200, max: 499 }]));
};

/** A lateness bound in real time: a check on a real load run, an observation in a test. */
function onTime(res: Parameters<typeof check>[0], name: string, held: boolean): void {
  if (JUDGE_LATENESS) check(res, { [name]: () => held });
  else if (!held) lateAnswers.add(1);
}

export default function (target: Target): void {
  for (const p of waitProbes()) {
    const name = p.wait === undefined ? 'without wait (default 90 s)' : `with wait=${p.wait}`;
    const res = runsync(target, p.wait, p.sleepMs, 'wait');
    const job = bodyJson(res);
    const elapsed = res.timings.duration;
    probes.add(1);
    check(res, { [`/runsync ${name} is accepted`]: (r) => r.status >= 200 && r.status < 300 && typeof job?.id === 'string' });
    if (p.kind === 'slow') {
      const window = waitWindow(p.effectiveMs, target.scale, TOLERANCE);
      lateness.add(latenessVirtualMs(elapsed, p.effectiveMs, target.scale), { wait: String(p.wait ?? 'default') });
      // "Not before" holds on any machine (a busy one only makes answers later); "soon after" is a duration measured here.
      check(res, {
        [`/runsync ${name} holds a slower job until the wait elapses, not before`]: () => elapsed >= window.earliestMs,
        [`/runsync ${name} does not answer a slower job as COMPLETED`]: () => job?.status !== 'COMPLETED',
      });
      onTime(res, `/runsync ${name} answers a slower job soon after the wait elapses`, elapsed <= window.latestMs);
      if (elapsed > window.latestMs || elapsed < window.earliestMs) console.warn(`wait-range: ${name}: answered after ${Math.round(elapsed)} ms real, expected ${Math.round(window.earliestMs)}..${Math.round(window.latestMs)}`);
      if (job?.status !== 'COMPLETED') cancelJob(target, job?.id);
    } else {
      check(res, { [`/runsync ${name} answers a job that ends within the wait as COMPLETED`]: () => job?.status === 'COMPLETED' });
      onTime(res, `/runsync ${name} answers a job that ends within the wait before the wait elapses`, elapsed < p.effectiveMs / target.scale);
    }
  }
  for (const wait of OUT_OF_RANGE_WAITS) {
    const res = runsync(target, wait, 460000, 'out-of-range');
    const elapsedVirtual = res.timings.duration * target.scale;
    outOfRange[wait]!.status.add(res.status);
    outOfRange[wait]!.elapsed.add(Math.round(elapsedVirtual));
    console.info(`wait-range: wait=${wait} (outside ${WAIT_MS.min}..${WAIT_MS.max}): ${classifyOutOfRange(wait, res.status, elapsedVirtual)}`);
    check(res, { [`/runsync with wait=${wait} (outside the range) answers without a 5xx`]: (r) => r.status > 0 && r.status < 500 });
    const job = bodyJson(res);
    if (res.status >= 200 && res.status < 300 && job?.status !== 'COMPLETED') cancelJob(target, job?.id);
  }
}

export function teardown(target: Target): void {
  closeTarget(target);
}

export function handleSummary(summary: K6SummaryData): Record<string, string> {
  return summaryOutputs(summary, {
    scenario: 'wait-range',
    description: '/runsync with wait=1000, wait=300000 and the default 90 s: answered when the wait elapses for a slower job, COMPLETED for a faster one; out-of-range waits recorded.',
    rules: ['LIMIT.RUNSYNC.WAIT_RANGE', 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S'],
  }, __ENV);
}
