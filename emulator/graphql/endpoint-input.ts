import { validate } from '../../lib/schema-registry.js';
import type { EndpointFields, EndpointRecord, EndpointType } from '../state/endpoints.js';
import type { World } from '../world.js';
import { GqlOpError } from './errors.js';

/** `saveEndpoint(input:)` as graphql-js coerces it (absent fields are undefined). */
export interface EndpointInputArgs {
  id?: string | null;
  name?: string | null;
  gpuIds: string;
  templateId: string;
  type?: string | null;
  idleTimeout?: number | null;
  locations?: string | null;
  flashBootType?: string | null;
  scalerType?: string | null;
  scalerValue?: number | null;
  workersMin?: number | null;
  workersMax?: number | null;
  networkVolumeId?: string | null;
  gpuCount?: number | null;
  allowedCudaVersions?: string | null;
}

/**
 * Live input fields (platform-notes: "`gpuCount` (Int), `allowedCudaVersions` (String, comma
 * list)"), outside `schemas/endpoint-input.schema.json`, the spec's fields: checked here.
 */
function liveIssues(given: Record<string, unknown>): string[] {
  const issues: string[] = [];
  if (typeof given.gpuCount === 'number' && given.gpuCount < 1) issues.push('/gpuCount: must be >= 1');
  const cuda = given.allowedCudaVersions;
  if (typeof cuda === 'string' && cuda !== '' && !/^\d+\.\d+( *, *\d+\.\d+)*$/.test(cuda)) {
    issues.push('/allowedCudaVersions: must be a comma list of CUDA versions (major.minor), or "" for any');
  }
  return issues;
}
const LIVE_ENDPOINT_FIELDS = new Set(['gpuCount', 'allowedCudaVersions']);

/**
 * Values of a new endpoint for the optional fields the spec leaves without a default ("not
 * shown"); they follow the live platform's console defaults. `type` is the spec's: QB.
 */
export const ENDPOINT_DEFAULTS = {
  type: 'QB', idleTimeout: 5, scalerType: 'QUEUE_DELAY', scalerValue: 4, workersMin: 0, workersMax: 3,
} as const;

/** Worker counts the emulator accepts (the spec: "Limits on worker counts ... not shown"). */
export const WORKER_LIMITS = { min: 0, max: 100 } as const;

/** Fields an explicit null clears; for the others null means "not given" (CHOICES.md). */
const CLEARABLE = new Set(['locations', 'networkVolumeId', 'flashBootType']);

/** Schema checks a fault switches off, by the input field they concern. */
const UNCHECKED_BY_FAULT = {
  gpuIds: 'graphql.gpu-ids-unchecked',
  locations: 'graphql.locations-unchecked',
  scalerType: 'graphql.scaler-type-unchecked',
  type: 'graphql.type-unchecked',
} as const;

export type EndpointPatch = Partial<EndpointFields>;

/**
 * Validates the input against `schemas/endpoint-input.schema.json` plus the emulator's own
 * ranges, and returns the fields it sets. `provided` names the fields the client wrote, so
 * an update keeps the others (and a defaulted `type` does not overwrite an LB endpoint).
 */
export function endpointPatch(world: World, args: EndpointInputArgs, provided: ReadonlySet<string>, existing?: EndpointRecord): EndpointPatch {
  const given: Record<string, unknown> = {};
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || key === 'id') continue;
    if (key === 'type' && existing && !provided.has('type')) continue;
    if (value === null) {
      if (CLEARABLE.has(key)) patch[key] = null;
      continue;
    }
    given[key] = value;
  }
  // A new endpoint whose workersMin passes the default workersMax gets workersMax = workersMin.
  if (!existing && given.workersMax === undefined && typeof given.workersMin === 'number' && given.workersMin > ENDPOINT_DEFAULTS.workersMax) {
    given.workersMax = given.workersMin;
  }
  const forSchema: Record<string, unknown> = { ...(args.id ? { id: args.id } : {}) };
  for (const [key, value] of Object.entries(given)) if (!LIVE_ENDPOINT_FIELDS.has(key)) forSchema[key] = value;
  // A fault may drop `name` from the required fields; the schema still lists it.
  if (world.fault('graphql.save-endpoint-name-optional') && forSchema.name === undefined) forSchema.name = '';
  const result = validate('endpoint-input', forSchema);
  const issues = result.valid ? [] : result.issues.filter((i) => {
    const field = i.path.split('/')[1] as keyof typeof UNCHECKED_BY_FAULT | undefined;
    return !(field && field in UNCHECKED_BY_FAULT && world.fault(UNCHECKED_BY_FAULT[field]));
  }).map((i) => `${i.path || '(input)'}: ${i.message}`);
  issues.push(...liveIssues(given));

  const merged = { ...ENDPOINT_DEFAULTS, ...existing, ...given } as Record<string, unknown>;
  for (const key of ['workersMin', 'workersMax'] as const) {
    const v = merged[key];
    if (typeof v === 'number' && (v < WORKER_LIMITS.min || v > WORKER_LIMITS.max)) {
      issues.push(`/${key}: must be from ${WORKER_LIMITS.min} to ${WORKER_LIMITS.max}`);
    }
  }
  if (typeof merged.workersMin === 'number' && typeof merged.workersMax === 'number' && merged.workersMin > merged.workersMax) {
    issues.push(`/workersMin: must not exceed workersMax (${merged.workersMin} > ${merged.workersMax})`);
  }
  if (typeof given.idleTimeout === 'number' && given.idleTimeout < 0) issues.push('/idleTimeout: must be >= 0 seconds');
  if (typeof given.scalerValue === 'number' && given.scalerValue < 1) issues.push('/scalerValue: must be >= 1');
  if (issues.length > 0) throw new GqlOpError('BAD_USER_INPUT', `Invalid endpoint input: ${issues.join('; ')}.`, issues);

  Object.assign(patch, given);
  if (patch.locations === '') patch.locations = null;
  if (patch.networkVolumeId === '') patch.networkVolumeId = null;
  if (typeof patch.allowedCudaVersions === 'string') {
    patch.allowedCudaVersions = patch.allowedCudaVersions === '' ? [] : patch.allowedCudaVersions.split(',').map((v) => v.trim());
  }
  return patch as EndpointPatch;
}

/** A complete record's fields for a new endpoint: the patch over the defaults. */
export function newEndpointFields(patch: EndpointPatch): EndpointFields {
  return {
    name: patch.name ?? '',
    templateId: patch.templateId!,
    gpuIds: patch.gpuIds!,
    gpuTypeIds: [],
    type: (patch.type ?? ENDPOINT_DEFAULTS.type) as EndpointType,
    idleTimeout: patch.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout,
    locations: patch.locations ?? null,
    flashBootType: patch.flashBootType ?? null,
    scalerType: patch.scalerType ?? ENDPOINT_DEFAULTS.scalerType,
    scalerValue: patch.scalerValue ?? ENDPOINT_DEFAULTS.scalerValue,
    workersMin: patch.workersMin ?? ENDPOINT_DEFAULTS.workersMin,
    workersMax: patch.workersMax ?? ENDPOINT_DEFAULTS.workersMax,
    networkVolumeId: patch.networkVolumeId ?? null,
    gpuCount: patch.gpuCount ?? 1,
    allowedCudaVersions: patch.allowedCudaVersions ?? [],
    origin: 'graphql',
  };
}
