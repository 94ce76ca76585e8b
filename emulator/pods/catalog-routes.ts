import { fail, json } from '../http/reply.js';
import type { RouteDef } from '../types.js';
import type { World } from '../world.js';
import { CPU_FLAVORS, DATA_CENTERS, GPU_TYPES, catalogViews, cpuFlavor, dataCenter, gpuType } from './catalog.js';
import { listAnswer } from './list-answer.js';

const read = { surface: 'rest-v2', auth: 'bearer', scope: 'read' } as const;

interface Catalog<T> {
  path: string;
  noun: string;
  /** The member of the wrapped list answer (`{gpus: [...]}`). */
  member: string;
  list: readonly T[];
  find(id: string): T | undefined;
  /** The entry as answered; `query` is the read's (a GPU read may ask for availability). */
  view(entry: T, world: World, query: URLSearchParams): Record<string, unknown>;
  /** The operationIds of the list and of one entry (schemas/openapi.yaml). */
  operations: { list: string; get: string };
  /** The entry's path parameter, as openapi.yaml names it. */
  param: string;
}

/** One catalog: the list at `path` (wrapped, or bare with `lists.bare`) and each entry at `path/:<param>`. */
function catalogRoutes<T extends { id: string }>(c: Catalog<T>): RouteDef[] {
  return [
    { ...read, method: 'GET', path: c.path, operation: c.operations.list, handle: (ctx) => listAnswer(ctx.world, c.member, c.list.map((e) => c.view(e, ctx.world, ctx.query))) },
    {
      ...read, method: 'GET', path: `${c.path}/:${c.param}`, operation: c.operations.get,
      handle: (ctx) => {
        const id = ctx.params[c.param] ?? '';
        const entry = c.find(id);
        if (!entry) fail('not-found', `No ${c.noun} "${id}" in the catalog.`);
        return json(200, c.view(entry!, ctx.world, ctx.query));
      },
    },
  ];
}

/**
 * `GET /v2/catalog/gpus|cpus|datacenters` and `/{id}` (spec names the cpus and datacenters
 * lists; platform-notes add gpus and the by-id forms), in the live platform's shapes (catalog.ts).
 */
export const catalogRouteDefs: RouteDef[] = [
  ...catalogRoutes({ path: '/v2/catalog/gpus', noun: 'GPU type', member: 'gpus', list: GPU_TYPES, find: gpuType, view: catalogViews.gpu, operations: { list: 'listGpuTypes', get: 'getGpuType' }, param: 'gpuTypeId' }),
  ...catalogRoutes({ path: '/v2/catalog/cpus', noun: 'CPU flavor', member: 'cpus', list: CPU_FLAVORS, find: cpuFlavor, view: catalogViews.cpu, operations: { list: 'listCpuFlavors', get: 'getCpuFlavor' }, param: 'cpuFlavorId' }),
  ...catalogRoutes({ path: '/v2/catalog/datacenters', noun: 'data center', member: 'dataCenters', list: DATA_CENTERS, find: dataCenter, view: catalogViews.dataCenter, operations: { list: 'listDataCenters', get: 'getDataCenter' }, param: 'dataCenterId' }),
];
