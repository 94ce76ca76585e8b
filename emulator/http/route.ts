import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './reply.js';
import type { Account, ApiKey, Scope, World } from '../world.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every method a route may serve; a 405's `Allow` names those its path serves (RFC 9110, 15.5.6). */
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export type RouteSurface = 'rest-v2' | 'serverless' | 'rest-v1' | 'graphql';

/**
 * How a surface carries the key (spec, Authentication):
 * - `bearer`: `Authorization: Bearer <key>` (REST v2, REST v1, public model endpoints);
 * - `serverless`: `authorization: <key>`, and `Bearer <key>` which live clients also send;
 * - `graphql`: query parameter `api_key`, and `Authorization: Bearer <key>`.
 */
export type AuthStyle = 'bearer' | 'serverless' | 'graphql';

/** Everything a handler sees about one authenticated request. */
export interface Ctx {
  world: World;
  account: Account;
  apiKey: ApiKey;
  method: HttpMethod;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  /** Parsed JSON body; `undefined` when the request had none. */
  body: unknown;
  /** Raw body size in bytes (0 when none). */
  bodyBytes: number;
}

export interface RouteDef {
  method: HttpMethod;
  /** find-my-way path syntax, e.g. `/v2/pods/:podId`. */
  path: string;
  /** Operation name as the rule catalog uses it (`createPod`, `runsync`...). */
  operation: string;
  surface: RouteSurface;
  auth: AuthStyle;
  /** The scope the key needs; a valid key without it gets 403. */
  scope: Scope;
  /** Maximum body in bytes (default {@link DEFAULT_MAX_BODY}). */
  maxBody?: number;
  handle(ctx: Ctx): Reply | Promise<Reply>;
}

/** Default maximum body for operations the spec gives no limit: 1 MiB. */
export const DEFAULT_MAX_BODY = 1024 * 1024;
