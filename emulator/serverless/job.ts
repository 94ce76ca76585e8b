import type { JobStatus, StreamItem } from '../../lib/types.gen.js';
import type { TimerHandle } from '../clock.js';
import type { World } from '../world.js';
import type { JobOptions } from './job-options.js';

/** A job of a queue-based endpoint, as the emulator keeps it until its result expires. */
export interface JobRecord {
  id: string;
  endpointId: string;
  accountId: string;
  /** Submitted by /runsync (sync-prefixed id, 1-minute retention) or /run (30 minutes). */
  sync: boolean;
  /** /runsync was given `wait`: retention 5 minutes (spec, Limits). */
  waitGiven: boolean;
  input: Record<string, unknown>;
  status: JobStatus;
  /** When the current attempt entered the queue (the start of its `delayTime`). */
  queuedAt: number;
  startedAt: number | undefined;
  finishedAt: number | undefined;
  output: unknown;
  error: string | undefined;
  /** Attempts of the current run, for the automatic retries; reset by /retry. */
  attempt: number;
  /** Items the current attempt has streamed (undefined before it starts); `/stream` hands out those past `streamCursor`. */
  stream: StreamItem[] | undefined;
  streamCursor: number;
  /** The pending execution step (next chunk, end or timeout). */
  step: TimerHandle | undefined;
  expiry: TimerHandle | undefined;
  expiresAt: number | undefined;
  /** `ttl` given on /status: it, not the retention limit, sets when the job goes. */
  ttlSet: boolean;
  /** Bumped on every (re)queue so stale queue entries are recognised. */
  queueToken: number;
  workerId: string | undefined;
  /** The request's optional fields (`webhook`, `policy`, `s3Config`; job-options.ts). */
  options: JobOptions;
}

/**
 * A synchronous job's id (spec: "Synchronous jobs carry an identifier with a sync prefix"):
 * `sync-<plain>` as the live platform, or `rs_<plain>` with the variant `jobs.sync-prefix-other`.
 */
export const syncId = (world: World, plain: string): string => `${world.variant('jobs.sync-prefix-other') ? 'rs_' : 'sync-'}${plain}`;

export const ACTIVE: ReadonlySet<JobStatus> = new Set(['IN_QUEUE', 'IN_PROGRESS']);
export const RETRYABLE: ReadonlySet<JobStatus> = new Set(['FAILED', 'TIMED_OUT']);
export const isTerminal = (status: JobStatus): boolean => !ACTIVE.has(status);

export function newJob(id: string, endpointId: string, accountId: string, input: Record<string, unknown>, sync: boolean, waitGiven: boolean, now: number, options: JobOptions = {}): JobRecord {
  return {
    id, endpointId, accountId, sync, waitGiven, input, status: 'IN_QUEUE', queuedAt: now, startedAt: undefined, finishedAt: undefined,
    output: undefined, error: undefined, attempt: 1, stream: undefined, streamCursor: 0,
    step: undefined, expiry: undefined, expiresAt: undefined, ttlSet: false, queueToken: 0, workerId: undefined, options,
  };
}

/**
 * The job object (spec, Serverless job): `id`, `status`; `delayTime` once the job started
 * (milliseconds spent waiting), `executionTime` once it ended (milliseconds in the handler);
 * `output` when available; `error` for a failed job (the live platform's field).
 */
export function jobObject(job: JobRecord, omitDelayTime = false): Record<string, unknown> {
  const body: Record<string, unknown> = { id: job.id, status: job.status };
  if (job.startedAt !== undefined && !omitDelayTime) body.delayTime = job.startedAt - job.queuedAt;
  if (job.startedAt !== undefined && job.finishedAt !== undefined) body.executionTime = job.finishedAt - job.startedAt;
  if (job.output !== undefined) body.output = job.output;
  if (job.error !== undefined) body.error = job.error;
  if (job.workerId !== undefined) body.workerId = job.workerId;
  return body;
}

/** `{id, status}`: the answer of /run, /cancel and /retry. */
export const jobHandle = (job: Pick<JobRecord, 'id' | 'status'>, status: JobStatus = job.status): { id: string; status: JobStatus } => ({ id: job.id, status });
