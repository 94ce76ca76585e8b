/**
 * The optional top-level fields of a job request (platform notes: "The job request body is
 * open"): `webhook`, `policy` and `s3Config`. The spec names only `input`; the live platform
 * takes these and discards any other key, and both official clients send them when a user sets
 * them. The notes give each policy value's range but not what the platform does with a value
 * outside it, so such a value is not refused: it is left out and the default applies (CHOICES.md).
 */
export interface JobOptions {
  /** POSTed the job's /status body when it ends (webhook.ts). */
  webhook?: string;
  /** `policy.executionTimeout`: replaces the execution timeout for this job. */
  executionTimeoutMs?: number;
  /** `policy.ttl`: the job's whole lifespan from submission, queued, running or done. */
  ttlMs?: number;
  /** `policy.lowPriority`: the job does not make the endpoint start workers. */
  lowPriority?: boolean;
  /** Handed to the handler (an outside worker's job carries it). */
  s3Config?: Record<string, unknown>;
}

/** Platform notes: `executionTimeout` "more than 5000"; `ttl` "at least 10000, at most a week". */
export const POLICY_RANGES = {
  /** Exclusive lower bound; the upper bound is the emulator's (one day, as the `executionTimeoutMs` timing). */
  executionTimeout: { above: 5_000, max: 86_400_000 },
  ttl: { min: 10_000, max: 7 * 24 * 3_600_000 },
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The options a request body carries; keys the platform does not take are dropped here. */
export function jobOptionsOf(body: Record<string, unknown>): JobOptions {
  const options: JobOptions = {};
  if (typeof body.webhook === 'string' && body.webhook !== '') options.webhook = body.webhook;
  if (isObject(body.s3Config)) options.s3Config = body.s3Config;
  const policy = body.policy;
  if (!isObject(policy)) return options;
  const timeout = policy.executionTimeout;
  if (Number.isInteger(timeout) && (timeout as number) > POLICY_RANGES.executionTimeout.above && (timeout as number) <= POLICY_RANGES.executionTimeout.max) {
    options.executionTimeoutMs = timeout as number;
  }
  const ttl = policy.ttl;
  if (Number.isInteger(ttl) && (ttl as number) >= POLICY_RANGES.ttl.min && (ttl as number) <= POLICY_RANGES.ttl.max) options.ttlMs = ttl as number;
  if (policy.lowPriority === true) options.lowPriority = true;
  return options;
}
