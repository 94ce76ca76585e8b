/**
 * The contracts between the request pipeline (`app.ts`, `http/`), the surfaces (`pods/`,
 * `serverless/`, `graphql/`) and the control surface (`routes/control.ts`): what a route is,
 * what its handler sees, what a world seeder and a control route are. Types only, below all
 * of their users, so that a surface never imports the pipeline that calls it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http/reply.js';
import type { Account, ApiKey, Scope, World } from './world.js';
import type { WorldRegistry } from './worlds.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
  /**
   * The `operationId` of `schemas/openapi.yaml` that the route serves (`createPod`, `runSync`,
   * `getJobStatus`...), the name the client and the rule catalog use too; a route beyond
   * openapi.yaml has a name of its own (`getInterfaceDescription`).
   */
  operation: string;
  surface: RouteSurface;
  auth: AuthStyle;
  /** The scope the key needs; a valid key without it gets 403. */
  scope: Scope;
  /** Maximum body in bytes (default `DEFAULT_MAX_BODY` of `http/decode.ts`, 1 MiB). */
  maxBody?: number;
  /** The body is read as JSON whatever content type it declares (the worker library sends JSON as `application/x-www-form-urlencoded`). */
  anyBodyType?: boolean;
  /** Traffic of the platform's own workers (the worker side): it counts against no user's rate limit. */
  unmetered?: boolean;
  handle(ctx: Ctx): Reply | Promise<Reply>;
}

/** Seeders run when a world is created through the control surface; each returns what it made. */
export type WorldSeeder = (world: World, accountId: string) => Record<string, unknown>;

/** What a control route sees: the emulator's worlds, and the request. */
export interface ControlCtx { registry: WorldRegistry; params: Record<string, string>; body: unknown; query: URLSearchParams }

/** A route of the control surface (`/__emulator`): never authenticated, never rate limited. */
export interface ControlRoute { method: HttpMethod; path: string; handle(ctx: ControlCtx): Reply | Promise<Reply> }
