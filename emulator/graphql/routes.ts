import type { Reply } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';

type Handler = typeof import('./handler.js');
let handler: Promise<Handler> | undefined;

/**
 * `POST {base_url}/graphql` (emulator/graphql/handler.ts). graphql-js and the surface's modules
 * load with the first GraphQL request: an emulator that never gets one (a load scenario's, most
 * of the unit tests') does not pay the CPU time of loading graphql-js.
 */
async function handleGraphql(ctx: Ctx): Promise<Reply> {
  return (await (handler ??= import('./handler.js'))).handleGraphql(ctx);
}

/** Routes of the GraphQL surface: one, as the spec has it. */
export const graphqlRoutes: RouteDef[] = [
  { method: 'POST', path: '/graphql', operation: 'graphql', surface: 'graphql', auth: 'graphql', scope: 'read', handle: handleGraphql },
];
