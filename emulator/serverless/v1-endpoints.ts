import { validate } from '../../lib/schema-registry.js';
import { liveFields, withLiveFields } from '../http/live-fields.js';
import { fail, json } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { endpointsSlice, type EndpointRecord } from '../state/endpoints.js';
import { templatesSlice } from '../state/templates.js';
import { requireWrite } from './access.js';
import { GPU_TIERS, gpuAvailabilitySlice, knownGpuTypeIds, tierOf } from './gpu-types.js';
import { checkLiveRequest, liveEndpointFields, type V1Request } from './v1-live.js';

/** Values for the fields the request may omit (the live platform's defaults; CHOICES.md, platform-notes). */
export const V1_DEFAULTS = { workersMin: 0, workersMax: 3, idleTimeout: 5 } as const;
/** Platform-notes: "`idleTimeout` default 5 (1 to 3600)". */
export const V1_IDLE_TIMEOUT_MAX = 3600;

/** The live fields besides the spec's six (platform-notes; schemas/rest-v1-endpoint-live-fields). */
const LIVE = liveFields('rest-v1-endpoint-live-fields');

/**
 * Checks the spec leaves to the platform: a usable template (platform-notes: "`templateId` is
 * its only required field"), a non-blank name when one is given, known GPU types (all of them,
 * in tier order, when a GPU endpoint names none), sane counts, and the live fields' rules.
 */
function checkRequest(ctx: Ctx, req: V1Request): string[] {
  const errors: string[] = [];
  if (req.name !== undefined && req.name.trim() === '') errors.push('/name: a non-empty string when given');
  if (req.templateId === undefined) errors.push('/templateId: required');
  else {
    const template = ctx.world.get(templatesSlice).get(req.templateId, ctx.account.id);
    if (!template) errors.push(`/templateId: no template "${req.templateId}" in this account`);
    else if (!template.isServerless) errors.push(`/templateId: template "${req.templateId}" is not a serverless template`);
  }
  if (req.gpuTypeIds !== undefined && req.gpuTypeIds.length === 0) errors.push('/gpuTypeIds: at least one GPU type when given (omit it for any)');
  const catalogOnly = ctx.world.variant('v1.catalog-gpu-ids');
  req.gpuTypeIds?.forEach((id, i) => { if (!tierOf(id, catalogOnly)) errors.push(`/gpuTypeIds/${i}: unknown GPU type "${id}" (known: ${knownGpuTypeIds(catalogOnly).join(', ')})`); });
  const min = req.workersMin ?? V1_DEFAULTS.workersMin;
  const max = req.workersMax ?? V1_DEFAULTS.workersMax;
  if (min < 0) errors.push('/workersMin: must be >= 0');
  if (max < 0) errors.push('/workersMax: must be >= 0');
  if (min > max) errors.push('/workersMin: must not exceed workersMax');
  if (req.idleTimeout !== undefined && (req.idleTimeout < 1 || req.idleTimeout > V1_IDLE_TIMEOUT_MAX)) errors.push(`/idleTimeout: must be from 1 to ${V1_IDLE_TIMEOUT_MAX} (seconds)`);
  errors.push(...checkLiveRequest(ctx, req));
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

/** The answer's shape is "not shown": the endpoint as created, with the allocated GPU type (null for CPU workers; CHOICES.md). */
function endpointBody(e: EndpointRecord, allocated: string | null, req: V1Request): Record<string, unknown> {
  return {
    id: e.id, name: e.name, templateId: e.templateId, gpuTypeIds: e.gpuTypeIds, allocatedGpuTypeId: allocated, gpuIds: e.gpuIds,
    type: e.type, workersMin: e.workersMin, workersMax: e.workersMax, idleTimeout: e.idleTimeout, createdAt: new Date(e.createdAt).toISOString(),
    computeType: req.computeType ?? 'GPU', gpuCount: e.gpuCount ?? 1, cpuFlavorIds: req.cpuFlavorIds ?? [], dataCenterIds: req.dataCenterIds ?? [],
    allowedCudaVersions: e.allowedCudaVersions ?? [], flashboot: e.flashBootType !== null, networkVolumeId: e.networkVolumeId,
    scalerType: e.scalerType, scalerValue: e.scalerValue,
  };
}

export const v1Routes: RouteDef[] = [
  {
    method: 'POST', path: '/v1/endpoints', operation: 'createEndpointV1', surface: 'rest-v1', auth: 'bearer', scope: 'read',
    handle(ctx) {
      requireWrite(ctx, 'v1.readonly-can-create');
      if (ctx.body === undefined) fail('validation-failed', 'Send a JSON body with name, templateId and gpuTypeIds.', ['(root): must be an object']);
      const result = validate('rest-v1-endpoint-request', ctx.body);
      const issues = result.valid ? [] : withLiveFields(LIVE, ctx.body, result.issues);
      if (issues.length > 0) fail('validation-failed', 'The body breaks the endpoint request schema.', issues.map((i) => `${i.path || '(root)'}: ${i.message}`));
      const req = ctx.body as V1Request;
      const errors = checkRequest(ctx, req);
      if (errors.length) fail('validation-failed', 'The endpoint cannot be created as requested.', errors);
      const cpu = req.computeType === 'CPU';
      const gpuTypeIds = cpu ? [] : [...(req.gpuTypeIds ?? (ctx.world.variant('v1.catalog-gpu-ids') ? knownGpuTypeIds(true) : GPU_TIERS))];
      const allocated = cpu ? null : allocateGpu(ctx, gpuTypeIds);
      if (allocated === undefined) fail('bad-request', `None of the GPU types in gpuTypeIds is available now (${gpuTypeIds.join(', ')}).`);
      const template = ctx.world.get(templatesSlice).get(req.templateId!, ctx.account.id)!;
      const record = ctx.world.get(endpointsSlice).create(ctx.account.id, {
        name: req.name ?? template.name, templateId: req.templateId!, gpuIds: allocated ? tierOf(allocated)! : '', gpuTypeIds, type: 'QB',
        idleTimeout: req.idleTimeout ?? V1_DEFAULTS.idleTimeout, locations: null,
        workersMin: req.workersMin ?? V1_DEFAULTS.workersMin, workersMax: req.workersMax ?? V1_DEFAULTS.workersMax, origin: 'rest-v1',
        ...liveEndpointFields(req),
      });
      ctx.world.get(templatesSlice).touch(record.templateId);
      // Platform-notes: "REST v1 `POST /v1/endpoints` answers **200**."
      return json(200, endpointBody(record, allocated ?? null, req));
    },
  },
];
