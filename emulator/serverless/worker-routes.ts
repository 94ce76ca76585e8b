import { fail, json, noContent } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { queueEndpoint, requireWrite, type QueueTarget } from './access.js';
import type { JobRecord } from './job.js';
import type { OutsideWorker } from './outside.js';
import type { AttemptEnd } from './runtime.js';
import { streamItem } from './stream-items.js';

/**
 * The platform's worker side (platform notes, "How a worker talks to the platform"): the routes
 * a worker on the official library calls when a world's endpoints are served by outside workers
 * (`outsideWorkers`, emulator/README.md). The key comes as the `Authorization` header with no
 * scheme; the results come as JSON declared `application/x-www-form-urlencoded` (`anyBodyType`).
 * Workers poll all the time: their requests count against no user's rate limit (`unmetered`).
 * Bad input answers problem+json, as everywhere.
 */
const path = (op: string): string => `/v2/:endpointId/${op}`;

/** Worker ids: the library's `RUNPOD_POD_ID`, or a UUID it makes up. */
const WORKER_ID = /^[\w.-]{1,128}$/;
/** The library asks for at most its concurrency; a bound keeps one answer small. */
const MAX_BATCH = 100;

interface WorkerCall { target: QueueTarget; worker: OutsideWorker }

function workerCall(ctx: Ctx): WorkerCall {
  requireWrite(ctx, 'serverless.readonly-can-run');
  const target = queueEndpoint(ctx);
  const outside = target.runtime.outside;
  if (!outside) fail('conflict', `Endpoint ${target.endpoint.id} runs its jobs on the emulator's built-in handler; start the emulator with --outside-workers (or a world with outsideWorkers) to serve it from outside.`);
  const id = ctx.params.workerId ?? '';
  if (!WORKER_ID.test(id)) fail('bad-request', `A worker id is 1 to 128 letters, digits, '.', '_' or '-', got "${id.slice(0, 40)}".`);
  return { target, worker: outside!.seen(id) };
}

/** A query parameter that must be one of `allowed` when present. */
function oneOf(ctx: Ctx, name: string, allowed: readonly string[]): string | undefined {
  const value = ctx.query.get(name);
  if (value !== null && !allowed.includes(value)) fail('bad-request', `The query parameter ${name} is ${allowed.join(' or ')}, got "${value.slice(0, 40)}".`);
  return value ?? undefined;
}

/** The job a worker names: it must be this endpoint's. */
function namedJob(ctx: Ctx, call: WorkerCall): JobRecord {
  const job = call.target.store.find(call.target.endpoint.id, ctx.params.jobId ?? '');
  if (!job) fail('not-found', `No job ${ctx.params.jobId ?? ''} on endpoint ${call.target.endpoint.id} (unknown, or its result has expired).`);
  return job!;
}

function objectBody(ctx: Ctx): Record<string, unknown> {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('bad-request', 'The body is a JSON object: {"output": ...} or {"error": "..."}.');
  return body as Record<string, unknown>;
}

/** What a worker is handed: `id`, `input`, and `s3Config` when the request carried one. */
const takenJob = (job: JobRecord): Record<string, unknown> => ({ id: job.id, input: job.input, ...(job.options.s3Config ? { s3Config: job.options.s3Config } : {}) });

/** A job-done body as the end of the job's attempt: a non-empty `error` fails it, else `output` (if any) completes it. */
function endOf(body: Record<string, unknown>): AttemptEnd {
  const error = body.error;
  if (error !== undefined && error !== null && error !== '') return { kind: 'fail', error: typeof error === 'string' ? error : JSON.stringify(error) };
  return { kind: 'complete', output: body.output };
}

async function take(ctx: Ctx, batch: boolean): Promise<ReturnType<typeof json>> {
  const call = workerCall(ctx);
  oneOf(ctx, 'job_in_progress', ['0', '1']);
  let max = 1;
  if (batch) {
    const raw = ctx.query.get('batch_size') ?? '';
    max = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(max >= 1 && max <= MAX_BATCH)) fail('bad-request', `The query parameter batch_size is an integer from 1 to ${MAX_BATCH}, got "${raw.slice(0, 40)}".`);
  }
  const jobs = await call.target.runtime.take(call.worker, max);
  if (jobs.length === 0) return noContent();
  return json(200, batch ? jobs.map(takenJob) : takenJob(jobs[0]!));
}

export const workerRoutes: RouteDef[] = [
  { method: 'GET', path: path('job-take/:workerId'), operation: 'workerJobTake', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true, handle: (ctx) => take(ctx, false) },
  { method: 'GET', path: path('job-take-batch/:workerId'), operation: 'workerJobTakeBatch', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true, handle: (ctx) => take(ctx, true) },
  {
    method: 'POST', path: path('job-done/:workerId/:jobId'), operation: 'workerJobDone', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true, anyBodyType: true, maxBody: 20 * 1024 * 1024,
    handle(ctx) {
      const call = workerCall(ctx);
      oneOf(ctx, 'isStream', ['true', 'false']);
      const job = namedJob(ctx, call);
      const accepted = call.target.runtime.done(call.worker, job, endOf(objectBody(ctx)));
      // A result for a job the platform already stopped (a cancel, a timeout) is discarded, not refused.
      return json(200, { accepted });
    },
  },
  {
    method: 'POST', path: path('job-stream/:workerId/:jobId'), operation: 'workerJobStream', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true, anyBodyType: true, maxBody: 2 * 1024 * 1024,
    handle(ctx) {
      const call = workerCall(ctx);
      oneOf(ctx, 'isStream', ['true', 'false']);
      const job = namedJob(ctx, call);
      const body = objectBody(ctx);
      if (!('output' in body)) fail('bad-request', 'A stream item is {"output": ...}.');
      const held = call.worker.jobs.has(job) && job.status === 'IN_PROGRESS';
      if (held) {
        // The platform adds the spec's `metrics` to the worker's `{output}` (HANDLER.md, "Who adds metrics").
        const before = job.stream ?? [];
        call.target.runtime.pushItem(job, streamItem(body.output, before.length, before.at(-1)?.metrics.output_tokens ?? 0));
      }
      return json(200, { accepted: held });
    },
  },
  {
    // Long-polled: answers the ids to stop as soon as there are some, else 204 after a while.
    method: 'GET', path: path('job-stop/:workerId'), operation: 'workerJobStop', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true,
    async handle(ctx) {
      const call = workerCall(ctx);
      const ids = await call.target.runtime.outside!.stopSignals(call.worker);
      return ids.length > 0 ? json(200, { jobsToStop: ids }) : noContent();
    },
  },
  {
    method: 'GET', path: path('ping/:workerId'), operation: 'workerPing', surface: 'serverless', auth: 'serverless', scope: 'read', unmetered: true,
    handle(ctx) {
      workerCall(ctx);
      const version = ctx.query.get('runpod_version');
      if (version !== null && version.length > 64) fail('bad-request', 'The query parameter runpod_version is at most 64 characters.');
      return json(200, {});
    },
  },
];
