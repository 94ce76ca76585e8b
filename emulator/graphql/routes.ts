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
  return (await loadGraphql()).handleGraphql(ctx);
}

const loadGraphql = (): Promise<Handler> => (handler ??= import('./handler.js'));

/**
 * Loads the GraphQL surface now, in the background: the standalone emulator, which a client
 * will ask GraphQL of, does it at start, so that on a busy machine the first query is not also
 * the one that waits for graphql-js to load (a client's time limit counts from its request).
 */
export function warmGraphql(): void {
  void loadGraphql();
}

/** Routes of the GraphQL surface: one, as the spec has it. */
export const graphqlRoutes: RouteDef[] = [
  { method: 'POST', path: '/graphql', operation: 'graphql', surface: 'graphql', auth: 'graphql', scope: 'read', handle: handleGraphql },
];
