import type { ApiResult } from '../../lib/client/api.js';
import type { Health } from '../../lib/types.gen.js';
import { validate } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';
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
  return result.issues.map((i) => ({
    rule: i.path.startsWith('/jobs') ? 'HEALTH.JOBS' : i.path.startsWith('/workers') ? 'HEALTH.WORKERS' : 'HEALTH.RESPONSE',
    message: `${res.operation}: ${i.path || '(root)'} ${i.message}`,
  }));
}

/** The job counters of a valid health answer (zeros when a counter is missing, already reported). */
export function jobCounters(res: ApiResult): Health['jobs'] {
  const jobs = (res.body as Partial<Health> | undefined)?.jobs;
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return { completed: n(jobs?.completed), failed: n(jobs?.failed), inProgress: n(jobs?.inProgress), inQueue: n(jobs?.inQueue), retried: n(jobs?.retried) };
}
