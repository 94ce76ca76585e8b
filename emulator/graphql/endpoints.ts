import { endpointPodProviders, endpointsSlice, type EndpointPodView, type EndpointRecord } from '../state/endpoints.js';
import { volumesSlice } from '../pods/volumes.js';
import { templatesSlice } from '../state/templates.js';
import type { World } from '../world.js';
import { providedInputFields, type GqlContext, type RootResolver } from './context.js';
import { endpointPatch, newEndpointFields, type EndpointInputArgs } from './endpoint-input.js';
import { GqlOpError } from './errors.js';

/**
 * The GraphQL view of an endpoint (type `Endpoint`); `pods`, `env` and `networkVolume` resolve
 * when selected. The live fields (platform-notes) follow the record: `aiKey` is null (the
 * emulator gives endpoints no keys of their own), `workersStandby` the workers kept warm
 * (`workersMin`), `env` the template's.
 */
export function endpointView(world: World, e: EndpointRecord): Record<string, unknown> {
  return {
    id: e.id, name: e.name, gpuIds: e.gpuIds, templateId: e.templateId, type: e.type, idleTimeout: e.idleTimeout,
    locations: e.locations, flashBootType: e.flashBootType, scalerType: e.scalerType, scalerValue: e.scalerValue,
    workersMin: e.workersMin, workersMax: e.workersMax, networkVolumeId: e.networkVolumeId,
    pods: () => podsOf(world, e),
    gpuCount: e.gpuCount ?? 1,
    allowedCudaVersions: e.allowedCudaVersions && e.allowedCudaVersions.length > 0 ? e.allowedCudaVersions.join(',') : null,
    aiKey: null,
    userId: e.accountId,
    version: e.version ?? 0,
    workersStandby: e.workersMin,
    env: () => world.get(templatesSlice).get(e.templateId)?.env.map((v) => ({ key: v.key, value: v.value })) ?? [],
    createdAt: new Date(e.createdAt).toISOString(),
    networkVolume: () => {
      if (e.networkVolumeId === null) return null;
      const volume = world.get(volumesSlice).get(e.networkVolumeId, e.accountId);
      return { id: e.networkVolumeId, dataCenterId: volume?.dataCenter ?? null };
    },
  };
}

function podsOf(world: World, e: EndpointRecord): EndpointPodView[] {
  for (const provider of endpointPodProviders) {
    const pods = provider(world, e);
    if (pods) return pods;
  }
  return Array.from({ length: e.workersMin }, () => ({ desiredStatus: 'RUNNING' }));
}

/** The caller's endpoint, or NOT_FOUND: another account's endpoint is indistinguishable from none. */
function ownEndpoint(ctx: GqlContext, id: string): EndpointRecord {
  const owner = ctx.world.fault('graphql.other-account-writable') ? undefined : ctx.account.id;
  const record = ctx.world.get(endpointsSlice).get(id, owner);
  if (!record || record.publicModel) throw new GqlOpError('NOT_FOUND', `No endpoint "${id}" in this account.`);
  return record;
}

/** The template an endpoint runs: it must be the caller's and a serverless one (CHOICES.md). */
function checkTemplate(ctx: GqlContext, templateId: string): void {
  const template = ctx.world.get(templatesSlice).get(templateId, ctx.account.id);
  if (!template) throw new GqlOpError('BAD_USER_INPUT', `No template "${templateId}" in this account.`, ['/templateId: unknown template']);
  if (!template.isServerless) {
    throw new GqlOpError('BAD_USER_INPUT', `Template "${templateId}" is not a serverless template (isServerless is false).`, ['/templateId: not a serverless template']);
  }
}

/** `saveEndpoint(input:)`: creates without `id`, modifies the caller's endpoint with it. */
export const saveEndpoint: RootResolver<{ input: EndpointInputArgs }> = ({ input }, ctx, info) => {
  const store = ctx.world.get(endpointsSlice);
  const provided = providedInputFields(info, 'input', ctx.rawVariables);
  const updating = typeof input.id === 'string' && !ctx.world.fault('graphql.update-creates-new');
  const existing = updating ? ownEndpoint(ctx, input.id!) : undefined;
  const patch = endpointPatch(ctx.world, input, provided, existing);
  if (patch.templateId !== undefined && patch.templateId !== existing?.templateId) {
    checkTemplate(ctx, patch.templateId);
    if (existing) patch.version = (existing.version ?? 0) + 1;
  }
  const record = existing ? store.update(existing.id, patch) : store.create(ctx.account.id, newEndpointFields(patch));
  return endpointView(ctx.world, record);
};

/**
 * `updateEndpointTemplate(input: {endpointId, templateId})` (live, platform-notes): moves the
 * caller's endpoint to another of its serverless templates and answers the endpoint.
 */
export const updateEndpointTemplate: RootResolver<{ input: { endpointId: string; templateId: string } }> = ({ input }, ctx) => {
  const record = ownEndpoint(ctx, input.endpointId);
  if (input.templateId === record.templateId) return endpointView(ctx.world, record);
  checkTemplate(ctx, input.templateId);
  return endpointView(ctx.world, ctx.world.get(endpointsSlice).update(record.id, { templateId: input.templateId, version: (record.version ?? 0) + 1 }));
};

/** `deleteEndpoint(id:)`: only when workersMin and workersMax are both 0 (lifecycle rule 1). */
export const deleteEndpoint: RootResolver<{ id: string }> = ({ id }, ctx) => {
  const record = ownEndpoint(ctx, id);
  if ((record.workersMin !== 0 || record.workersMax !== 0) && !ctx.world.fault('graphql.delete-endpoint-with-workers')) {
    throw new GqlOpError('CONFLICT',
      `Endpoint "${id}" has workersMin ${record.workersMin} and workersMax ${record.workersMax}; scale both to 0 before deleting it.`);
  }
  ctx.world.get(endpointsSlice).delete(record.id);
  return ctx.world.fault('graphql.delete-endpoint-returns-true') ? true : null;
};

/** Endpoints `myself` lists: the caller's own (a fault leaks every account's). */
export function endpointsOf(ctx: GqlContext): Record<string, unknown>[] {
  const store = ctx.world.get(endpointsSlice);
  const records = ctx.world.fault('graphql.myself-leaks-other-accounts')
    ? [...ctx.world.accounts.keys()].flatMap((a) => store.listByAccount(a))
    : store.listByAccount(ctx.account.id);
  return records.map((e) => endpointView(ctx.world, e));
}
