import type { IncomingHttpHeaders } from 'node:http';
import { extractKey } from '../auth.js';
import type { RouteDef } from '../types.js';
import type { ApiKey, World } from '../world.js';
import { Refusal } from './outcome.js';
import { problem } from './reply.js';

/**
 * The authenticate step: the key as the route's surface carries it (`auth.ts`), known in the
 * world and not expired, with the scope the route needs. Spec, Authentication: 401 for a
 * missing, malformed, expired or invalid key (`WWW-Authenticate: Bearer`, README #12), 403 for
 * a valid key without access.
 *
 * Faults (REST v2 only): `auth.malformed-accepted`, `auth.expired-accepted`,
 * `auth.missing-key-accepted`, `auth.invalid-as-403`, `auth.readonly-can-write`; on GraphQL,
 * `graphql.api-key-ignored`.
 */
export function authenticate(world: World, route: RouteDef, headers: IncomingHttpHeaders, query: URLSearchParams): ApiKey | Refusal {
  const restV2 = route.surface === 'rest-v2';
  let extracted = extractKey(route.auth, headers, query);
  if (extracted.kind === 'malformed' && restV2 && world.fault('auth.malformed-accepted')) {
    extracted = { kind: 'key', key: (headers.authorization ?? '').trim().split(/\s+/).pop() ?? '' };
  }
  let apiKey: ApiKey | undefined;
  let expired = false;
  if (extracted.kind === 'key') {
    apiKey = world.keys.get(extracted.key);
    if (apiKey?.expiresAt !== undefined && apiKey.expiresAt <= world.clock.now() && !(restV2 && world.fault('auth.expired-accepted'))) {
      apiKey = undefined;
      expired = true;
    }
  }
  if (!apiKey && extracted.kind === 'missing' && restV2 && world.fault('auth.missing-key-accepted')) {
    apiKey = world.keys.values().next().value;
  }
  if (!apiKey && route.surface === 'graphql' && world.fault('graphql.api-key-ignored')) {
    apiKey = world.keys.values().next().value;
  }
  if (!apiKey) {
    const detail = extracted.kind === 'missing' ? 'No API key was sent.'
      : extracted.kind === 'malformed' ? `The API key could not be read: ${extracted.reason}.`
      : expired ? 'The API key has expired.' : 'The API key is not valid.';
    const as403 = extracted.kind === 'key' && !expired && restV2 && world.fault('auth.invalid-as-403');
    return new Refusal(as403 ? problem('forbidden', detail) : problem('unauthorized', detail,
      undefined, { 'WWW-Authenticate': route.auth === 'graphql' ? 'Bearer realm="graphql"' : 'Bearer' }));
  }
  if (!apiKey.scopes.has(route.scope) && !(route.scope === 'write' && restV2 && world.fault('auth.readonly-can-write'))) {
    return new Refusal(problem('forbidden', `This API key does not grant ${route.scope} access for ${route.operation}.`));
  }
  return apiKey;
}
