import { json } from '../http/reply.js';
import type { RouteDef } from '../types.js';
import { jobOf, queueEndpoint } from './access.js';
import { okStatus, shownJob } from './ops-submit.js';
import { ttlParam, waitParam } from './params.js';

const path = (op: string): string => `/v2/:endpointId/${op}`;

/** Reads: status (with `ttl`), the status-sync long poll, stream and health. */
export const readRoutes: RouteDef[] = [
  {
    method: 'GET', path: path('status/:jobId'), operation: 'getJobStatus', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      const ttl = ttlParam(ctx);
      const target = queueEndpoint(ctx);
      const job = jobOf(ctx, target);
      if (ttl !== undefined) target.store.setTtl(job, ttl);
      return json(okStatus(ctx), shownJob(ctx, job));
    },
  },
  {
    // Platform notes: the official SDK long-polls here after a /runsync that was not finished.
    method: 'GET', path: path('status-sync/:jobId'), operation: 'getJobStatusSync', surface: 'serverless', auth: 'serverless', scope: 'read',
    async handle(ctx) {
      const wait = waitParam(ctx);
      const target = queueEndpoint(ctx);
      const job = jobOf(ctx, target);
      return json(okStatus(ctx), await target.store.waitFor(job, wait.ms, () => shownJob(ctx, job)));
    },
  },
  {
    // Platform notes: `{status, stream: [...]}`, `stream` always present; each item is handed out once.
    method: 'GET', path: path('stream/:jobId'), operation: 'streamJob', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      const target = queueEndpoint(ctx);
      const job = jobOf(ctx, target);
      let stream = target.store.takeStream(job) as unknown[];
      if (ctx.world.fault('serverless.stream-metrics-no-scenario')) {
        stream = stream.map((item) => {
          const { metrics, ...rest } = item as { metrics?: Record<string, unknown> };
          if (!metrics) return item;
          const { scenario: _scenario, ...others } = metrics;
          return { ...rest, metrics: others };
        });
      }
      return json(okStatus(ctx), { status: job.status, stream });
    },
  },
  {
    method: 'GET', path: path('health'), operation: 'getHealth', surface: 'serverless', auth: 'serverless', scope: 'read',
    handle(ctx) {
      const { runtime, store, endpoint } = queueEndpoint(ctx);
      const c = ctx.world.variant('jobs.health-held-counts') ? { ...runtime.counters, ...store.heldCounts(endpoint.id) } : runtime.counters;
      const frozen = ctx.world.fault('serverless.health-counters-frozen');
      const jobs: Record<string, number> = { completed: c.completed, failed: c.failed, inProgress: frozen ? 0 : c.inProgress, inQueue: frozen ? 0 : c.inQueue, retried: c.retried };
      if (ctx.world.fault('serverless.health-missing-retried')) delete jobs.retried;
      const w = runtime.workers();
      const workers: Record<string, number> = { idle: w.idle, running: w.running, initializing: w.initializing, throttled: 0, unhealthy: 0 };
      if (ctx.world.fault('serverless.health-no-idle-workers')) delete workers.idle;
      return json(okStatus(ctx), { jobs, workers });
    },
  },
];
