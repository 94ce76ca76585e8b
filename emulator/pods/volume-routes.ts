import type { NetworkVolumeRequest, NetworkVolumeUpdateRequest } from '../../lib/types.gen.js';
import { fail, json, noContent } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { dataCenter } from './catalog.js';
import { listAnswer } from './list-answer.js';
import { conflict, validateBody } from './validation.js';
import { volumesSlice, volumeView, type VolumeRecord } from './volumes.js';

const rest = { surface: 'rest-v2', auth: 'bearer' } as const;

function ownVolume(ctx: Ctx): VolumeRecord {
  const v = ctx.world.get(volumesSlice).get(ctx.params.networkVolumeId ?? '', ctx.account.id);
  if (!v) fail('not-found', `No network volume ${ctx.params.networkVolumeId} exists for this account.`);
  return v!;
}

/**
 * Network volumes (`GET/POST /v2/network-volumes`, `GET/PATCH/DELETE /v2/network-volumes/{networkVolumeId}`;
 * platform-notes). The spec shows none of this; see CHOICES.md for the emulator's choices.
 */
export const volumeRouteDefs: RouteDef[] = [
  {
    ...rest, method: 'GET', path: '/v2/network-volumes', operation: 'listNetworkVolumes', scope: 'read',
    handle: (ctx) => listAnswer(ctx.world, 'networkVolumes', ctx.world.get(volumesSlice).list(ctx.account.id).map(volumeView)),
  },
  {
    ...rest, method: 'POST', path: '/v2/network-volumes', operation: 'createNetworkVolume', scope: 'write',
    handle: (ctx) => {
      validateBody(ctx.world, 'network-volume-request', ctx.body);
      const req = ctx.body as NetworkVolumeRequest;
      if (!dataCenter(req.dataCenter)) throw conflict('/dataCenter', `unknown data center "${req.dataCenter}" (see GET /v2/catalog/datacenters)`);
      const v = ctx.world.get(volumesSlice).create(ctx.account.id, { name: req.name, size: req.size, dataCenter: req.dataCenter, type: req.type ?? 'STANDARD' });
      return json(201, volumeView(v));
    },
  },
  { ...rest, method: 'GET', path: '/v2/network-volumes/:networkVolumeId', operation: 'getNetworkVolume', scope: 'read', handle: (ctx) => json(200, volumeView(ownVolume(ctx))) },
  {
    ...rest, method: 'PATCH', path: '/v2/network-volumes/:networkVolumeId', operation: 'updateNetworkVolume', scope: 'write',
    handle: (ctx) => {
      const v = ownVolume(ctx);
      validateBody(ctx.world, 'network-volume-update-request', ctx.body);
      const req = ctx.body as NetworkVolumeUpdateRequest;
      // Network storage can grow but not shrink: data would be lost.
      if (req.size !== undefined && req.size < v.size) throw conflict('/size', `a volume cannot shrink (from ${v.size} GB to ${req.size} GB)`);
      if (req.name !== undefined) v.name = req.name;
      if (req.size !== undefined) v.size = req.size;
      return json(200, volumeView(v));
    },
  },
  {
    ...rest, method: 'DELETE', path: '/v2/network-volumes/:networkVolumeId', operation: 'deleteNetworkVolume', scope: 'write',
    handle: (ctx) => {
      const v = ownVolume(ctx);
      if (v.mountedBy.size > 0) fail('conflict', `Network volume ${v.id} is mounted by ${[...v.mountedBy].join(', ')}; delete or change those pods first.`);
      ctx.world.get(volumesSlice).delete(v.id);
      return noContent();
    },
  },
];
