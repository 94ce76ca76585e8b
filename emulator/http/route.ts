import FindMyWay, { type Config, type HTTPVersion, type Instance } from 'find-my-way';
import { graphqlRoutes } from '../graphql/routes.js';
import { podRoutes } from '../pods/routes.js';
import { serverlessRoutes } from '../serverless/routes.js';
import type { HttpMethod, RouteDef } from '../types.js';
import { Refusal } from './outcome.js';
import { problem } from './reply.js';

/**
 * Every route of the four surfaces, in registration order: one table, each route named by the
 * `operationId` of `schemas/openapi.yaml` that it serves (test/operations.test.ts holds the
 * table, the client and the rule catalog to the operations generated from it). Static paths
 * (`/v2/pods`) win over parametric ones (`/v2/:endpointId/run`) in the router, so the REST v2
 * and serverless surfaces share one origin.
 */
export const ROUTES: readonly RouteDef[] = [...podRoutes, ...serverlessRoutes, ...graphqlRoutes];

/** Every method a route may serve; a 405's `Allow` names those its path serves (RFC 9110, 15.5.6). */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A matched route and its path parameters. */
export interface Routed<R> { route: R; params: Record<string, string> }

/** A table of routes (find-my-way's radix tree), each path under `prefix`. */
export class Router<R extends { method: HttpMethod; path: string }> {
  readonly #tree: Instance<HTTPVersion.V1>;

  constructor(routes: readonly R[], options: Config<HTTPVersion.V1>, prefix = '') {
    this.#tree = FindMyWay(options);
    for (const r of routes) this.#tree.on(r.method, prefix + r.path, () => undefined, r);
  }

  find(method: HttpMethod, path: string): Routed<R> | undefined {
    const found = this.#tree.find(method, path);
    return found ? { route: found.store as R, params: found.params as Record<string, string> } : undefined;
  }

  /** The methods served at `path` other than `method`. */
  allowedBesides(method: HttpMethod, path: string): HttpMethod[] {
    return HTTP_METHODS.filter((m) => m !== method && this.#tree.find(m, path));
  }
}

/** The router of the surfaces' routes: case-sensitive paths, a trailing slash ignored, long ids allowed. */
export const surfaceRouter = (): Router<RouteDef> => new Router(ROUTES, { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 });

/**
 * The route step: the operation served at this method and path, or a refusal: 404 when no
 * operation is served at the path, 405 with `Allow` when the path serves other methods
 * (README #2, #3: routing comes before authentication).
 */
export function route(router: Router<RouteDef>, method: HttpMethod, path: string): Routed<RouteDef> | Refusal {
  const found = router.find(method, path);
  if (found) return found;
  const allowed = router.allowedBesides(method, path);
  return new Refusal(allowed.length > 0
    ? problem('method-not-allowed', `${method} is not served at ${path}.`, undefined, { Allow: allowed.join(', ') })
    : problem('route-not-found', `No operation is served at ${method} ${path}.`));
}
