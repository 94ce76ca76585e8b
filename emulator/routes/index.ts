import type { RouteDef } from '../http/route.js';
import type { World } from '../world.js';
import { podRoutes, podSeeders } from '../pods/routes.js';
import { serverlessRoutes, serverlessSeeders } from '../serverless/routes.js';
import { graphqlRoutes } from '../graphql/routes.js';

/**
 * Every surface's routes, in registration order. Static paths (`/v2/pods`) win over
 * parametric ones (`/v2/:endpointId/run`) in the router, so the REST v2 and serverless
 * surfaces can share one origin.
 */
export const surfaceRoutes: RouteDef[] = [...podRoutes, ...serverlessRoutes, ...graphqlRoutes];

/** Seeders run when a world is created through the control surface; each returns what it made. */
export type WorldSeeder = (world: World, accountId: string) => Record<string, unknown>;
export const worldSeeders: WorldSeeder[] = [...podSeeders, ...serverlessSeeders];
