import { validate } from '../../lib/schema-registry.js';
import type { RestV1EndpointRequest } from '../../lib/types.gen.js';
import { fail, json } from '../http/reply.js';
import type { Ctx, RouteDef } from '../http/route.js';
import { endpointsSlice, type EndpointRecord } from '../state/endpoints.js';
import { templatesSlice } from '../state/templates.js';
import { requireWrite } from './access.js';
import { gpuAvailabilitySlice, knownGpuTypeIds, tierOf } from './gpu-types.js';

/** Values for the fields the request may omit (the live platform's defaults; CHOICES.md). */
export const V1_DEFAULTS = { workersMin: 0, workersMax: 3, idleTimeout: 5 } as const;

/** Checks the spec leaves to the platform: required fields, a usable template, known GPU types, sane counts. */
function checkRequest(ctx: Ctx, req: RestV1EndpointRequest): string[] {
  const errors: string[] = [];
  if (req.name === undefined || req.name.trim() === '') errors.push('/name: required, a non-empty string');
  if (req.templateId === undefined) errors.push('/templateId: required');
  else {
    const template = ctx.world.get(templatesSlice).get(req.templateId, ctx.account.id);
    if (!template) errors.push(`/templateId: no template "${req.templateId}" in this account`);
    else if (!template.isServerless) errors.push(`/templateId: template "${req.templateId}" is not a serverless template`);
  }
  if (req.gpuTypeIds === undefined || req.gpuTypeIds.length === 0) errors.push('/gpuTypeIds: required, at least one GPU type');
  req.gpuTypeIds?.forEach((id, i) => { if (!tierOf(id)) errors.push(`/gpuTypeIds/${i}: unknown GPU type "${id}" (known: ${knownGpuTypeIds().join(', ')})`); });
  const min = req.workersMin ?? V1_DEFAULTS.workersMin;
  const max = req.workersMax ?? V1_DEFAULTS.workersMax;
  if (min < 0) errors.push('/workersMin: must be >= 0');
  if (max < 0) errors.push('/workersMax: must be >= 0');
  if (min > max) errors.push('/workersMin: must not exceed workersMax');
  if (req.idleTimeout !== undefined && req.idleTimeout < 1) errors.push('/idleTimeout: must be >= 1 (seconds)');
  return errors;
}

/**
 * Spec: "GPU types in priority order; the first available is allocated, otherwise the next."
 * Under the `v1.ignores-gpu-priority` fault the last available one is taken instead.
 */
export function allocateGpu(ctx: Ctx, gpuTypeIds: readonly string[]): string | undefined {
  const availability = ctx.world.get(gpuAvailabilitySlice);
  const available = gpuTypeIds.filter((id) => availability.isAvailable(id));
  return ctx.world.fault('v1.ignores-gpu-priority') ? available.at(-1) : available[0];
}

/** The answer's shape is "not shown": the endpoint as created, with the allocated GPU type (CHOICES.md). */
function endpointBody(e: EndpointRecord, allocated: string): Record<string, unknown> {
  return {
    id: e.id, name: e.name, templateId: e.templateId, gpuTypeIds: e.gpuTypeIds, allocatedGpuTypeId: allocated, gpuIds: e.gpuIds,
    type: e.type, workersMin: e.workersMin, workersMax: e.workersMax, idleTimeout: e.idleTimeout, createdAt: new Date(e.createdAt).toISOString(),
  };
}

export const v1Routes: RouteDef[] = [
  {
    method: 'POST', path: '/v1/endpoints', operation: 'createEndpointV1', surface: 'rest-v1', auth: 'bearer', scope: 'read',
    handle(ctx) {
      requireWrite(ctx, 'v1.readonly-can-create');
      if (ctx.body === undefined) fail('validation-failed', 'Send a JSON body with name, templateId and gpuTypeIds.', ['(root): must be an object']);
      const result = validate('rest-v1-endpoint-request', ctx.body);
      if (!result.valid) fail('validation-failed', 'The body breaks the endpoint request schema.', result.issues.map((i) => `${i.path || '(root)'}: ${i.message}`));
      const req = ctx.body as RestV1EndpointRequest;
      const errors = checkRequest(ctx, req);
      if (errors.length) fail('validation-failed', 'The endpoint cannot be created as requested.', errors);
      const allocated = allocateGpu(ctx, req.gpuTypeIds!);
      if (!allocated) fail('bad-request', `None of the GPU types in gpuTypeIds is available now (${req.gpuTypeIds!.join(', ')}).`);
      const record = ctx.world.get(endpointsSlice).create(ctx.account.id, {
        name: req.name!, templateId: req.templateId!, gpuIds: tierOf(allocated!)!, gpuTypeIds: [...req.gpuTypeIds!], type: 'QB',
        idleTimeout: req.idleTimeout ?? V1_DEFAULTS.idleTimeout, locations: null, flashBootType: null, scalerType: 'QUEUE_DELAY', scalerValue: 4,
        workersMin: req.workersMin ?? V1_DEFAULTS.workersMin, workersMax: req.workersMax ?? V1_DEFAULTS.workersMax, networkVolumeId: null, origin: 'rest-v1',
      });
      ctx.world.get(templatesSlice).touch(record.templateId);
      return json(201, endpointBody(record, allocated!));
    },
  },
];
