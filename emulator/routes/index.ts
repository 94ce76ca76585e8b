import type { RouteDef } from '../types.js';
import { podRoutes } from '../pods/routes.js';
import { serverlessRoutes } from '../serverless/routes.js';
import { graphqlRoutes } from '../graphql/routes.js';

/**
 * Every surface's routes, in registration order. Static paths (`/v2/pods`) win over
 * parametric ones (`/v2/:endpointId/run`) in the router, so the REST v2 and serverless
 * surfaces can share one origin.
 */
export const surfaceRoutes: RouteDef[] = [...podRoutes, ...serverlessRoutes, ...graphqlRoutes];
