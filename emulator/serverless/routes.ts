import type { RouteDef } from '../http/route.js';
import type { WorldSeeder } from '../routes/index.js';

/** Routes of the serverless surface. */
export const serverlessRoutes: RouteDef[] = [];

/** World seeders of the serverless surface. */
export const serverlessSeeders: WorldSeeder[] = [];
