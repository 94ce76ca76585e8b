import type { RouteDef } from '../types.js';
import type { WorldSeeder } from '../types.js';
import { modelRoutes } from './models.js';
import { manageRoutes } from './ops-manage.js';
import { readRoutes } from './ops-read.js';
import { submitRoutes } from './ops-submit.js';
import { seedServerless } from './seed.js';
import { v1Routes } from './v1-endpoints.js';
import { workerRoutes } from './worker-routes.js';

/**
 * Routes of the serverless surface: public models first (static paths), then the job
 * operations under `/v2/<endpoint_id>/` (the worker side's too), then REST v1 endpoint creation.
 */
export const serverlessRoutes: RouteDef[] = [...modelRoutes, ...submitRoutes, ...readRoutes, ...manageRoutes, ...workerRoutes, ...v1Routes];

/** World seeders of the serverless surface: the conformance-handler template and endpoint. */
export const serverlessSeeders: WorldSeeder[] = [seedServerless];
