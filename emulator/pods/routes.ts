import type { RouteDef } from '../types.js';
import type { WorldSeeder } from '../types.js';
import { catalogRouteDefs } from './catalog-routes.js';
import { descriptionRoute } from './description.js';
import { podOperationRoutes } from './pod-routes.js';
import { volumeRouteDefs } from './volume-routes.js';
import { volumesSlice } from './volumes.js';

/** Routes of the pods surface: pods, the catalog, network volumes and the interface description (REST v2). */
export const podRoutes: RouteDef[] = [...podOperationRoutes, ...catalogRouteDefs, ...volumeRouteDefs, descriptionRoute];

/**
 * Seeds each world's main account with two network volumes, in a data center with global
 * networking and in one without, so a standalone emulator has something to mount. Tests
 * create their own volumes and never depend on these.
 */
export const podSeeders: WorldSeeder[] = [
  (world, accountId) => {
    const volumes = world.get(volumesSlice);
    const models = volumes.create(accountId, { name: 'models-us-tx', size: 100, dataCenter: 'US-TX-3', type: 'STANDARD' });
    const datasets = volumes.create(accountId, { name: 'datasets-eu-se', size: 500, dataCenter: 'EU-SE-1', type: 'HIGH_PERFORMANCE' });
    return { CPC_NETWORK_VOLUME_IDS: `${models.id},${datasets.id}` };
  },
];
