import { fail, json } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { jobOf, queueEndpoint, requireWrite } from './access.js';
import { ACTIVE, RETRYABLE, jobHandle } from './job.js';
import { okStatus } from './ops-submit.js';

const path = (op: string): string => `/v2/:endpointId/${op}`;

/** The fault that refuses the spec's bodiless form ("Request: none") of cancel, retry and purge. */
function refuseBodyless(ctx: Ctx): void {
  if (ctx.bodyBytes === 0 && ctx.world.fault('serverless.bodyless-post-refused')) fail('bad-request', 'A JSON body is required.');
}

/**
 * Cancel, retry and purge. Any body is ignored: clients send none (with or without
 * `Content-Type: application/json`) or `{}` (platform notes), and both work.
 */
export const manageRoutes: RouteDef[] = [
  {
    method: 'POST', path: path('cancel/:jobId'), operation: 'cancelJob', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      requireWrite(ctx, 'serverless.readonly-can-run');
      refuseBodyless(ctx);
      const target = queueEndpoint(ctx);
      const job = jobOf(ctx, target);
      // A job that already ended keeps its status; the answer says which (CHOICES.md).
      if (!ACTIVE.has(job.status)) return json(okStatus(ctx), jobHandle(job));
      const ignored = (job.status === 'IN_PROGRESS' && ctx.world.fault('serverless.cancel-running-ignored'))
        || (job.status === 'IN_QUEUE' && ctx.world.fault('serverless.cancel-queued-still-runs'));
      if (!ignored) target.runtime.cancel(job);
      return json(okStatus(ctx), jobHandle(job, 'CANCELLED'));
    },
  },
  {
    method: 'POST', path: path('retry/:jobId'), operation: 'retryJob', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      requireWrite(ctx, 'serverless.readonly-can-run');
      refuseBodyless(ctx);
      const target = queueEndpoint(ctx);
      const expired = ctx.world.fault('serverless.retry-after-expiry') ? target.store.findExpired(target.endpoint.id, ctx.params.jobId ?? '') : undefined;
      const job = expired ?? jobOf(ctx, target);
      const retryable = (RETRYABLE.has(job.status) && !(job.status === 'TIMED_OUT' && ctx.world.fault('serverless.retry-timed-out-refused')))
        || (job.status === 'COMPLETED' && ctx.world.fault('serverless.retry-completed-accepted'));
      if (!retryable) {
        fail('conflict', `Job ${job.id} is ${job.status}; only FAILED or TIMED_OUT jobs can be retried.`);
      }
      target.store.retry(target.runtime, job);
      const id = ctx.world.fault('serverless.retry-new-id') ? ctx.world.nextId('job-') : job.id;
      return json(okStatus(ctx), { id, status: 'IN_QUEUE' });
    },
  },
  {
    method: 'POST', path: path('purge-queue'), operation: 'purgeQueue', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      requireWrite(ctx, 'serverless.readonly-can-run');
      refuseBodyless(ctx);
      const target = queueEndpoint(ctx);
      const removed = target.store.purge(target.runtime);
      return json(okStatus(ctx), {
        removed: removed + (ctx.world.fault('serverless.purge-count-off-by-one') ? 1 : 0),
        status: ctx.world.fault('serverless.purge-status-uppercase') ? 'COMPLETED' : 'completed',
      });
    },
  },
];
