import type { RouteDef } from '../http/route.js';

/** Routes of the GraphQL surface. */
export const graphqlRoutes: RouteDef[] = [];
