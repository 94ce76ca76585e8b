import { validate } from '../../lib/schema-registry.js';
import { fail } from '../http/reply.js';
import type { Ctx } from '../types.js';
import { endpointsSlice, type EndpointRecord } from '../state/endpoints.js';
import type { JobRecord } from './job.js';
import { jobOptionsOf, type JobOptions } from './job-options.js';
import type { EndpointRuntime } from './runtime.js';
import { jobsSlice, type JobStore } from './store.js';

export interface QueueTarget { endpoint: EndpointRecord; runtime: EndpointRuntime; store: JobStore }

/**
 * The caller's queue-based endpoint named by the path. Another account's endpoint is as
 * unknown as a missing one (404, CHOICES.md); so is a load-balancing endpoint, which takes
 * no jobs (spec: "requests go directly over HTTP to workers").
 */
export function queueEndpoint(ctx: Ctx): QueueTarget {
  const id = ctx.params.endpointId ?? '';
  const accountId = ctx.world.fault('serverless.other-account-visible') ? undefined : ctx.account.id;
  const endpoint = ctx.world.get(endpointsSlice).get(id, accountId);
  const store = ctx.world.get(jobsSlice);
  const runtime = endpoint && !endpoint.publicModel ? store.runtimeOf(endpoint) : undefined;
  if (!endpoint || !runtime) {
    fail('not-found', endpoint?.type === 'LB'
      ? `Endpoint ${id} is load-balancing (LB); job operations serve queue-based (QB) endpoints.`
      : `No queue-based endpoint ${id} in this account.`);
  }
  return { endpoint: endpoint!, runtime: runtime!, store };
}

/** The job named by the path on this endpoint; unknown, another endpoint's, and expired are alike. */
export function jobOf(ctx: Ctx, target: QueueTarget): JobRecord {
  const id = ctx.params.jobId ?? '';
  const job = target.store.find(target.endpoint.id, id);
  if (!job) fail('not-found', `No job ${id} on endpoint ${target.endpoint.id} (unknown, or its result has expired).`);
  return job!;
}

/**
 * Operations that run or change jobs need a key with write access (spec: "A valid key lacking
 * access to a resource or action gets 403"). Checked here rather than by the route's scope so
 * the `serverless.readonly-can-run` fault can switch it off per world.
 */
export function requireWrite(ctx: Ctx, fault: 'serverless.readonly-can-run' | 'v1.readonly-can-create'): void {
  if (!ctx.apiKey.scopes.has('write') && !ctx.world.fault(fault)) {
    fail('forbidden', `This API key does not grant write access, which ${ctx.method} ${ctx.path} needs.`);
  }
}

/** The `{input: object}` body of /run and /runsync (schemas/job-request.schema.json). */
export function jobInput(ctx: Ctx): Record<string, unknown> {
  return jobRequest(ctx).input;
}

/** The body of /run and /runsync: `input`, and the optional fields the platform takes (other keys dropped). */
export function jobRequest(ctx: Ctx): { input: Record<string, unknown>; options: JobOptions } {
  if (ctx.body === undefined) fail('validation-failed', 'Send a JSON body {"input": {...}}.', ['(root): must be an object with property input']);
  const result = validate('job-request', ctx.body);
  if (!result.valid) fail('validation-failed', 'The body must be {"input": <object>}.', result.issues.map((i) => `${i.path || '(root)'}: ${i.message}`));
  const body = ctx.body as { input: Record<string, unknown> };
  return { input: body.input, options: jobOptionsOf(body) };
}
