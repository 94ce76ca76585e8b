import type { IncomingMessage, ServerResponse } from 'node:http';
import { anyKey } from './auth.js';
import { SWITCHES } from './assembly.js';
import { authenticate } from './http/authenticate.js';
import { readBody, type BodyResult, type BodySink } from './http/body.js';
import { ControlSurface, isControlPath } from './http/control.js';
import { DEFAULT_MAX_BODY, decode } from './http/decode.js';
import { handle } from './http/handle.js';
import { Refusal } from './http/outcome.js';
import { rateLimit, type RateLimitHeaders } from './http/rate-limit.js';
import { problem, type Reply } from './http/reply.js';
import { route, surfaceRouter, type Routed, type Router } from './http/route.js';
import { missingOperation } from './http/missing.js';
import { send } from './http/send.js';
import { controlRoutes } from './routes/control.js';
import { chaosEngine } from './chaos/engine.js';
import type { Ctx, HttpMethod, RouteDef } from './types.js';
import type { World } from './world.js';
import { WorldRegistry, type RegistryOptions } from './worlds.js';

/** Header a client may send so unauthenticated requests land in its world (tests only). */
export const WORLD_HEADER = 'x-emulator-world';

export interface EmulatorOptions extends RegistryOptions {
  /** Called for each request that ends in a 5xx, with the error (the response never shows it). */
  onInternalError?: (error: unknown) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Failed = (res: ServerResponse, error: unknown) => void;

/** The query of a URL without one; handlers only read queries. */
const NO_QUERY: URLSearchParams = new URLSearchParams();

/** The path parameters of an unrouted request. */
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The emulator as a request handler. It never listens: `server.ts` binds a port. It composes the
 * pipeline's steps (`http/`), each of which answers its value for the next step or a refusal:
 *
 *   route → authenticate → rate-limit → (read the body) decode → handle → send
 *
 * after choosing the request's world (`worlds.ts`); the control surface (`/__emulator`) has its
 * own short pipeline (`http/control.ts`). The usual path runs without promises: the body
 * arrives through a callback, and the handler's answer is sent directly unless it is a promise.
 */
export class Emulator extends WorldRegistry {
  readonly #router: Router<RouteDef>;
  readonly #control: ControlSurface;
  readonly #onInternalError: (error: unknown) => void;

  constructor(options: EmulatorOptions = {}) {
    super(SWITCHES, { ...options, chaosEngine });
    this.#onInternalError = options.onInternalError ?? ((e) => { process.stderr.write(`emulator: internal error: ${e instanceof Error ? e.message : String(e)}\n`); });
    this.#router = surfaceRouter();
    this.#control = new ControlSurface(controlRoutes, this);
  }

  /** Answers one request; a failure of the emulator itself is a 500 without details. */
  readonly handle: Handler = (req, res) => {
    try {
      this.#dispatch(req, res);
    } catch (error) {
      this.#failed(res, error);
    }
  };

  /** A request the emulator failed to answer: reported, and a 500 without details (or a reset once headers left). */
  readonly #failed: Failed = (res, error) => {
    this.#onInternalError(error);
    if (!res.headersSent) send(res, problem('internal', 'The emulator failed while answering this request.'), undefined);
    else res.destroy();
  };

  #dispatch(req: IncomingMessage, res: ServerResponse): void {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? NO_QUERY : new URLSearchParams(rawUrl.slice(q + 1));
    const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;

    if (isControlPath(path)) {
      this.#control.answer(req, res, method, path, query).catch((error: unknown) => { this.#failed(res, error); });
      return;
    }
    const world = this.worldFor(anyKey(req.headers, query), req.headers[WORLD_HEADER]);
    const routed = route(this.#router, method, path);
    // Legal chaos (chaos/engine.ts) resets the request here or lets it go on, now or after its latency.
    if (world.chaos !== undefined) {
      const found = routed instanceof Refusal ? undefined : routed;
      world.chaos.admit(req, res, found?.route.operation ?? 'unrouted', found?.route.surface ?? 'none', found?.params ?? NO_PARAMS, () => {
        try { this.#serve(req, res, method, path, query, world, routed); } catch (error) { this.#failed(res, error); }
      });
      return;
    }
    this.#serve(req, res, method, path, query, world, routed);
  }

  /** The pipeline from authentication on, for a request whose world and route are known. */
  #serve(req: IncomingMessage, res: ServerResponse, method: HttpMethod, path: string, query: URLSearchParams, world: World, routed: Routed<RouteDef> | Refusal): void {
    if (routed instanceof Refusal) return send(res, routed.reply, world);
    const missing = missingOperation(world, routed.route, method, path);
    if (missing) return send(res, missing.reply, world);
    const apiKey = authenticate(world, routed.route, req.headers, query);
    if (apiKey instanceof Refusal) return send(res, apiKey.reply, world);
    const limits = routed.route.unmetered === true ? undefined : rateLimit(world, apiKey.accountId, routed.route);
    if (limits instanceof Refusal) return send(res, limits.reply, world);

    const ctx: Ctx = {
      world, account: world.accounts.get(apiKey.accountId)!, apiKey, method, path, query,
      headers: req.headers, params: routed.params, body: undefined, bodyBytes: 0,
    };
    if (method === 'GET' || method === 'DELETE') answer(res, routed.route, ctx, limits, this.#failed);
    else readBody(req, routed.route.maxBody ?? DEFAULT_MAX_BODY, new Exchange(res, routed.route, ctx, limits, this.#failed));
  }
}

/** A request past the rate limit, waiting for its body (one small object, no closures). */
class Exchange implements BodySink {
  constructor(
    private readonly res: ServerResponse,
    private readonly route: RouteDef,
    private readonly ctx: Ctx,
    private readonly limits: RateLimitHeaders | undefined,
    private readonly failed: Failed,
  ) {}

  bodyRead(result: BodyResult): void {
    const { res, route, ctx, limits } = this;
    try {
      const decoded = decode(result, route, ctx.headers, ctx.world);
      if (decoded === undefined) { res.destroy(); return; }
      if (decoded instanceof Refusal) return send(res, decoded.reply, ctx.world, limits);
      ctx.body = decoded.body;
      ctx.bodyBytes = decoded.bytes;
      answer(res, route, ctx, limits, this.failed);
    } catch (error) {
      this.failed(res, error);
    }
  }
}

/** The handle and send steps: the handler's reply, sent now or when its promise settles. */
function answer(res: ServerResponse, route: RouteDef, ctx: Ctx, limits: RateLimitHeaders | undefined, failed: Failed): void {
  // The draws a handler makes (capacity, queueing, provisioning) are recorded on this exchange.
  const chaos = ctx.world.chaos;
  chaos?.enter(res);
  let reply: Reply | Promise<Reply>;
  try { reply = handle(route, ctx); } finally { chaos?.leave(); }
  if (reply instanceof Promise) {
    reply.then((r: Reply) => { send(res, r, ctx.world, limits); }).catch((e: unknown) => { failed(res, e); });
    return;
  }
  send(res, reply, ctx.world, limits);
}
