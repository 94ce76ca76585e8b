import type { RouteDef } from '../http/route.js';
import type { WorldSeeder } from '../routes/index.js';

/** Routes of the pods surface. */
export const podRoutes: RouteDef[] = [];

/** World seeders of the pods surface. */
export const podSeeders: WorldSeeder[] = [];
