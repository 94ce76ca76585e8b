import { fail, json } from '../http/reply.js';
import type { RouteDef } from '../http/route.js';
import { CPU_FLAVORS, DATA_CENTERS, GPU_TYPES, cpuFlavor, dataCenter, gpuType } from './catalog.js';

const read = { surface: 'rest-v2', auth: 'bearer', scope: 'read' } as const;

/** One catalog: the list at `path` (a JSON array) and each entry at `path/:id`. */
function catalogRoutes<T extends { id: string }>(path: string, noun: string, list: readonly T[], find: (id: string) => T | undefined, operation: string): RouteDef[] {
  return [
    { ...read, method: 'GET', path, operation, handle: () => json(200, list) },
    {
      ...read, method: 'GET', path: `${path}/:id`, operation,
      handle: (ctx) => {
        const entry = find(ctx.params.id ?? '');
        if (!entry) fail('not-found', `No ${noun} "${ctx.params.id}" in the catalog.`);
        return json(200, entry);
      },
    },
  ];
}

/**
 * `GET /v2/catalog/gpus|cpus|datacenters` and `/{id}` (spec names the cpus and datacenters
 * lists; platform-notes add gpus and the by-id forms). Internal pricing fields stay in: the
 * live catalog carries prices too.
 */
export const catalogRouteDefs: RouteDef[] = [
  ...catalogRoutes('/v2/catalog/gpus', 'GPU type', GPU_TYPES, gpuType, 'listGpuTypes'),
  ...catalogRoutes('/v2/catalog/cpus', 'CPU flavor', CPU_FLAVORS, cpuFlavor, 'listCpuFlavors'),
  ...catalogRoutes('/v2/catalog/datacenters', 'data center', DATA_CENTERS, dataCenter, 'listDataCenters'),
];
