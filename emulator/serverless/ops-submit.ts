import { fail, json } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { jobRequest, queueEndpoint, requireWrite } from './access.js';
import { jobObject, type JobRecord } from './job.js';
import { waitParam } from './params.js';

/** Spec, Limits: "Maximum payload | 20 MB | `/runsync`" and "10 MB | `/run`" (read as MiB, the larger reading). */
export const MAX_BODY = { runsync: 20 * 1024 * 1024, run: 10 * 1024 * 1024 } as const;

/** Faults that lower a payload limit below the route's own (the pipeline enforces the real one). */
function faultLimit(ctx: Ctx, fault: 'serverless.run-limit-5mb' | 'serverless.runsync-limit-10mb', bytes: number): void {
  if (ctx.world.fault(fault) && ctx.bodyBytes > bytes) fail('payload-too-large', `The body exceeds the maximum payload of ${bytes} bytes.`);
}

/** The job object a /runsync or /status answer shows, with the response faults and variants applied. */
export function shownJob(ctx: Ctx, job: JobRecord): Record<string, unknown> {
  const body = jobObject(job, job.status === 'COMPLETED' && ctx.world.fault('serverless.completed-no-delay-time'));
  if (job.status === 'COMPLETED' && ctx.world.fault('serverless.status-no-output') && ctx.path.includes('/status/')) delete body.output;
  // Variant `jobs.failed-shows-output` (and the fault `serverless.retry-keeps-output`): a FAILED job
  // shows the items it streamed as output (the spec: "output ... Optional").
  if (job.status === 'FAILED' && job.stream?.length && (ctx.world.variant('jobs.failed-shows-output') || ctx.world.fault('serverless.retry-keeps-output'))) {
    body.output = job.stream.map((i) => i.output);
  }
  return body;
}

const path = (op: string): string => `/v2/:endpointId/${op}`;

/** The success status of /run and /runsync: 200 (platform notes), or 201 / 202 with the variants `jobs.submit-201` / `jobs.submit-202`. */
export const submitStatus = (ctx: Ctx): number => ctx.world.variant('jobs.submit-202') ? 202 : ctx.world.variant('jobs.submit-201') ? 201 : 200;

/**
 * The success status of the other job operations (status, stream, health, cancel, retry,
 * purge-queue, a public model's runsync): 200, or with the variant `serverless.other-2xx` 203
 * for a read and 202 for a POST, with the same body. The spec shows their bodies, no status.
 */
export const okStatus = (ctx: Ctx): number => !ctx.world.variant('serverless.other-2xx') ? 200 : ctx.method === 'GET' ? 203 : 202;

export const submitRoutes: RouteDef[] = [
  {
    // The job is queued and answered at once (spec, Job status: "Returns immediately with id and status").
    method: 'POST', path: path('run'), operation: 'run', surface: 'serverless', auth: 'serverless', scope: 'read', maxBody: MAX_BODY.run,
    handle(ctx) {
      requireWrite(ctx, 'serverless.readonly-can-run');
      faultLimit(ctx, 'serverless.run-limit-5mb', 5 * 1024 * 1024);
      const target = queueEndpoint(ctx);
      const { input, options } = jobRequest(ctx);
      const job = target.store.submit(target.runtime, input, { sync: false, waitGiven: false, options });
      return json(submitStatus(ctx), { id: job.id, status: ctx.world.fault('serverless.run-status-in-progress') ? 'IN_PROGRESS' : 'IN_QUEUE' });
    },
  },
  {
    // Waits (virtual time) for the job to end or the wait to elapse; either way 200 with the job object.
    method: 'POST', path: path('runsync'), operation: 'runSync', surface: 'serverless', auth: 'serverless', scope: 'read', maxBody: MAX_BODY.runsync,
    async handle(ctx) {
      requireWrite(ctx, 'serverless.readonly-can-run');
      faultLimit(ctx, 'serverless.runsync-limit-10mb', 10 * 1024 * 1024);
      const target = queueEndpoint(ctx);
      const { input, options } = jobRequest(ctx);
      const wait = waitParam(ctx);
      const job = target.store.submit(target.runtime, input, { sync: true, waitGiven: wait.given, options });
      return json(submitStatus(ctx), await target.store.waitFor(job, wait.ms, () => shownJob(ctx, job)));
    },
  },
];
