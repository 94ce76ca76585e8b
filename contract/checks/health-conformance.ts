import type { ApiResult } from '../../lib/client/api.js';
import type { Health } from '../../lib/types.gen.js';
import { validate } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';
import { readFrom } from '../../lib/errors.js';
import { isSuccess, statusCodeConformance } from './status.js';

/**
 * A health object (schemas/health.schema.json): `jobs` with integers `completed`, `failed`,
 * `inProgress`, `inQueue`, `retried` (HEALTH.JOBS); `workers` with integers `idle`, `running`
 * (HEALTH.WORKERS). Extra worker counters are allowed (platform notes).
 */
export function healthConformance(res: ApiResult): Finding[] {
  // The spec gives /health no success status ("Response: Health object"): any 2xx answers it.
  if (!isSuccess(res)) return statusCodeConformance('HEALTH.RESPONSE', res, 'success');
  const result = validate('health', res.body);
  if (result.valid) return [];
  return readFrom(res, result.issues.map((i) => ({
    rule: i.path.startsWith('/jobs') ? 'HEALTH.JOBS' : i.path.startsWith('/workers') ? 'HEALTH.WORKERS' : 'HEALTH.RESPONSE',
    message: `${res.operation}: ${i.path || '(root)'} ${i.message}`,
  })));
}

/** The job counters of a valid health answer (zeros when a counter is missing, already reported). */
export function jobCounters(res: ApiResult): Health['jobs'] {
  const jobs = (res.body as Partial<Health> | undefined)?.jobs;
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return { completed: n(jobs?.completed), failed: n(jobs?.failed), inProgress: n(jobs?.inProgress), inQueue: n(jobs?.inQueue), retried: n(jobs?.retried) };
}

/**
 * HEALTH.JOBS.COUNTS at one instant: `inQueue` and `inProgress`, whose names say how many jobs
 * wait and run now, moved from `baseline` (read before the jobs existed) by as many of the
 * jobs as /status showed IN_QUEUE and IN_PROGRESS at that instant. `completed`, `failed` and
 * `retried` are integers whose meaning over time the spec does not state: the schema holds them.
 */
export function activeCountsConformance(health: ApiResult, baseline: Health['jobs'], statuses: readonly (string | undefined)[], when: string): Finding[] {
  if (!isSuccess(health)) return [];
  const got = jobCounters(health);
  const waiting = statuses.filter((s) => s === 'IN_QUEUE').length;
  const running = statuses.filter((s) => s === 'IN_PROGRESS').length;
  const ok = got.inQueue - baseline.inQueue === waiting && got.inProgress - baseline.inProgress === running;
  return ok ? [] : [{
    rule: 'HEALTH.JOBS.COUNTS',
    message: `${when}: /status shows ${waiting} job(s) IN_QUEUE and ${running} IN_PROGRESS (${statuses.join(', ')}); /health moved inQueue ${baseline.inQueue} → ${got.inQueue} and inProgress ${baseline.inProgress} → ${got.inProgress}`,
  }];
}

/** A job status's place in a job's course as the state table orders it: waiting, running, ended (undefined: no status read). */
const stage = (s: string | undefined): number | undefined => (s === undefined ? undefined : s === 'IN_QUEUE' ? 0 : s === 'IN_PROGRESS' ? 1 : 2);

/**
 * The jobs (by index) whose status read after an instant is earlier in their course than one
 * read before it (a running attempt back in the queue: the spec's "automatic retries on
 * failure"). The spec shows no move between statuses ("not shown"), so such a job's status at
 * the instant is unknown: a check of that instant cannot be made from these reads.
 */
export function movedBack(before: readonly (string | undefined)[], after: readonly (string | undefined)[]): number[] {
  return after.flatMap((s, i) => {
    const [a, b] = [stage(s), stage(before[i])];
    return a !== undefined && b !== undefined && a < b ? [i] : [];
  });
}

/**
 * Whether counters that disagree with `statuses` (read after /health) would agree had one job
 * read IN_PROGRESS before and after been IN_QUEUE at the /health instant: an attempt re-queued
 * and taken again between the reads, which no read on either side can rule out. Such counters
 * decide nothing; any other disagreement breaks HEALTH.JOBS.COUNTS whatever moves the jobs made.
 */
export function requeueExplains(health: ApiResult, baseline: Health['jobs'], statuses: readonly (string | undefined)[]): boolean {
  const got = jobCounters(health);
  const waiting = statuses.filter((s) => s === 'IN_QUEUE').length;
  const running = statuses.filter((s) => s === 'IN_PROGRESS').length;
  return running > 0 && got.inQueue - baseline.inQueue === waiting + 1 && got.inProgress - baseline.inProgress === running - 1;
}
