import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay, { type HTTPVersion, type Instance } from 'find-my-way';
import type { ApiKey, World } from './world.js';
import { WorldRegistry, type RegistryOptions } from './worlds.js';
import { SWITCHES } from './catalog.js';
import { extractKey, anyKey } from './auth.js';
import { readBody, readBodyAsync, jsonDepth, MAX_JSON_DEPTH, type BodyResult, type BodySink } from './http/body.js';
import { problem, ProblemError, type Reply } from './http/reply.js';
import { endThisTurn } from './http/outbox.js';
import { DEFAULT_MAX_BODY, HTTP_METHODS } from './http/route.js';
import type { ControlRoute, Ctx, HttpMethod, RouteDef } from './types.js';
import { rateLimitHeaders, type WindowState } from './rate-limit.js';
import { surfaceRoutes } from './routes/index.js';
import { controlRoutes } from './routes/control.js';

export const EMULATOR_NAME = 'compute-platform-emulator';
export const CONTROL_PREFIX = '/__emulator';
/** Header a client may send so unauthenticated requests land in its world (tests only). */
export const WORLD_HEADER = 'x-emulator-world';

export interface EmulatorOptions extends RegistryOptions {
  /** Called for each request that ends in a 5xx, with the error (the response never shows it). */
  onInternalError?: (error: unknown) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The query of a URL without one; handlers only read queries. */
const NO_QUERY: URLSearchParams = new URLSearchParams();

/**
 * The emulator as a request handler. It never listens: `server.ts` binds a port. Pipeline:
 * control surface, route, world, authentication, rate limit, body, handler, serialisation, and
 * the outbox (`http/outbox.ts`: answers leave at the end of the event-loop turn).
 */
export class Emulator extends WorldRegistry {
  readonly #router: Instance<HTTPVersion.V1>;
  readonly #control: Instance<HTTPVersion.V1>;
  readonly #onInternalError: (error: unknown) => void;

  constructor(options: EmulatorOptions = {}) {
    super(SWITCHES, options);
    this.#onInternalError = options.onInternalError ?? ((e) => { process.stderr.write(`emulator: internal error: ${e instanceof Error ? e.message : String(e)}\n`); });
    this.#router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 });
    for (const r of surfaceRoutes) this.#router.on(r.method, r.path, () => undefined, { route: r });
    this.#control = FindMyWay({ ignoreTrailingSlash: true });
    for (const r of controlRoutes) this.#control.on(r.method, CONTROL_PREFIX + r.path, () => undefined, { route: r });
  }

  /**
   * Answers one request. The usual path runs without promises: routing, authentication and the
   * rate limit synchronously, the body through a callback, and the handler's answer directly
   * unless the handler returns a promise.
   */
  readonly handle: Handler = (req, res) => {
    try {
      this.#dispatch(req, res);
    } catch (error) {
      this.#failed(res, error);
    }
  };

  /** A request the emulator failed to answer: reported, and a 500 without details (or a reset once headers left). */
  readonly #failed = (res: ServerResponse, error: unknown): void => {
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

    if (path === CONTROL_PREFIX || path.startsWith(CONTROL_PREFIX + '/')) {
      this.#dispatchControl(req, res, method, path, query).catch((error: unknown) => { this.#failed(res, error); });
      return;
    }

    const world = this.worldFor(anyKey(req.headers, query), req.headers[WORLD_HEADER]);

    const found = this.#router.find(method, path);
    if (!found) {
      const allowed = HTTP_METHODS.filter((m) => m !== method && this.#router.find(m, path));
      return send(res, allowed.length > 0
        ? problem('method-not-allowed', `${method} is not served at ${path}.`, undefined, { Allow: allowed.join(', ') })
        : problem('route-not-found', `No operation is served at ${method} ${path}.`), world);
    }
    const route = (found.store as { route: RouteDef }).route;

    // Authentication (spec: 401 for a missing, malformed, expired or invalid key; 403 for a valid key without access).
    const restV2 = route.surface === 'rest-v2';
    let extracted = extractKey(route.auth, req.headers, query);
    if (extracted.kind === 'malformed' && restV2 && world.fault('auth.malformed-accepted')) {
      extracted = { kind: 'key', key: (req.headers.authorization ?? '').trim().split(/\s+/).pop() ?? '' };
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
      return send(res, as403 ? problem('forbidden', detail) : problem('unauthorized', detail,
        undefined, { 'WWW-Authenticate': route.auth === 'graphql' ? 'Bearer realm="graphql"' : 'Bearer' }), world);
    }
    if (!apiKey.scopes.has(route.scope) && !(route.scope === 'write' && restV2 && world.fault('auth.readonly-can-write'))) {
      return send(res, problem('forbidden', `This API key does not grant ${route.scope} access for ${route.operation}.`), world);
    }
    const account = world.accounts.get(apiKey.accountId)!;

    // Per-user rate limiting: three windows; headers on every authenticated response.
    const decision = world.rateLimiter.check(world.fault('ratelimit.shared-across-users') ? '*' : account.id, world.clock.now());
    // Variant `ratelimit.rest-v2-only`: only REST v2 answers carry the headers (a 429 always does).
    const rlHeaders = world.fault('ratelimit.no-headers-on-success') || (route.surface !== 'rest-v2' && world.variant('ratelimit.rest-v2-only')) ? undefined : rateLimitHeadersFor(decision.windows, world);
    if (!decision.allowed && !world.fault('ratelimit.never-429')) {
      const h: Record<string, string | number> = world.fault('ratelimit.no-headers-on-429') ? {} : { ...rateLimitHeadersFor(decision.windows, world) };
      if (!world.fault('ratelimit.no-retry-after')) h['Retry-After'] = world.fault('ratelimit.retry-after-early') ? 1 : decision.exceeded.resetSeconds;
      const detail = world.fault('ratelimit.vague-detail') ? 'Too many requests; slow down.' : `rate limit exceeded for the ${decision.exceeded.name} window`;
      return send(res, problem('rate-limited', detail, undefined, h), world);
    }

    const ctx: Ctx = { world, account, apiKey, method, path, query, headers: req.headers, params: found.params as Record<string, string>, body: undefined, bodyBytes: 0 };
    if (method === 'GET' || method === 'DELETE') answer(res, route, ctx, rlHeaders, this.#failed);
    else readBody(req, route.maxBody ?? DEFAULT_MAX_BODY, new Exchange(req, res, route, ctx, rlHeaders, this.#failed));
  }

  async #dispatchControl(req: IncomingMessage, res: ServerResponse, method: HttpMethod, path: string, query: URLSearchParams): Promise<void> {
    const found = this.#control.find(method, path);
    if (!found) return send(res, problem('route-not-found', `No control operation at ${method} ${path}.`), undefined);
    const route = (found.store as { route: ControlRoute }).route;
    let body: unknown;
    if (method !== 'GET' && method !== 'DELETE') {
      const result = await readBodyAsync(req, DEFAULT_MAX_BODY);
      if (result.kind === 'aborted') { res.destroy(); return; }
      if (result.kind === 'too-large') return send(res, problem('payload-too-large', 'Control bodies are limited to 1 MiB.'), undefined);
      if (result.bytes.length > 0) {
        try { body = JSON.parse(result.bytes.toString('utf8')); } catch (e) {
          return send(res, problem('malformed-json', `The body is not valid JSON: ${(e as Error).message}.`), undefined);
        }
      }
    }
    let reply: Reply;
    try {
      reply = await route.handle({ registry: this, params: found.params as Record<string, string>, body, query });
    } catch (e) {
      if (e instanceof ProblemError) reply = e.reply;
      else throw e;
    }
    send(res, reply, undefined);
  }
}

type Failed = (res: ServerResponse, error: unknown) => void;

/** A request past authentication and the rate limit, waiting for its body: bounded, JSON only. */
class Exchange implements BodySink {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly route: RouteDef,
    private readonly ctx: Ctx,
    private readonly rlHeaders: Record<string, string> | undefined,
    private readonly failed: Failed,
  ) {}

  bodyRead(result: BodyResult): void {
    try {
      this.#withBody(result);
    } catch (error) {
      this.failed(this.res, error);
    }
  }

  #withBody(result: BodyResult): void {
    const { res, route, ctx, rlHeaders } = this;
    const world = ctx.world;
    if (result.kind === 'aborted') { res.destroy(); return; }
    if (result.kind === 'too-large') {
      // No `Connection: close`: the body's rest is read and discarded within bounds (http/body.ts,
      // LINGER), so a client still sending reads this answer, and one that finishes keeps its connection.
      return send(res, problem('payload-too-large', `The body exceeds the maximum payload of ${result.limit} bytes for ${route.operation}.`,
        undefined, rlHeaders), world);
    }
    const bodyBytes = result.bytes.length;
    if (bodyBytes > 0) {
      const type = mediaType(this.req.headers['content-type']);
      if (type !== 'application/json' && !type.endsWith('+json')) {
        return send(res, problem('unsupported-media-type', `Send the body as application/json (got ${type || 'no content type'}).`, undefined, rlHeaders), world);
      }
      const text = result.bytes.toString('utf8');
      // Nesting deeper than the limit takes more opening brackets than a shorter text holds.
      if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
        return send(res, problem('malformed-json', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, undefined, rlHeaders), world);
      }
      try {
        ctx.body = JSON.parse(text);
      } catch (e) {
        return send(res, problem(world.fault('body.malformed-json-422') ? 'unprocessable' : 'malformed-json', `The body is not valid JSON: ${(e as Error).message}.`, undefined, rlHeaders), world);
      }
      ctx.bodyBytes = bodyBytes;
    }
    answer(res, route, ctx, rlHeaders, this.failed);
  }
}

/** Runs the route's handler and sends its reply; most handlers answer synchronously, so a promise is awaited only when one comes back. */
function answer(res: ServerResponse, route: RouteDef, ctx: Ctx, rlHeaders: Record<string, string> | undefined, failed: Failed): void {
  let reply: Reply;
  try {
    const answered = route.handle(ctx);
    if (answered instanceof Promise) {
      answered.then((r) => { send(res, r, ctx.world, rlHeaders); }, (e: unknown) => {
        if (e instanceof ProblemError) send(res, e.reply, ctx.world, rlHeaders);
        else failed(res, e);
      }).catch((e: unknown) => { failed(res, e); });
      return;
    }
    reply = answered;
  } catch (e) {
    if (e instanceof ProblemError) reply = e.reply;
    else throw e;
  }
  send(res, reply, ctx.world, rlHeaders);
}

/** The rate-limit headers, as the world's faults would have them. */
function rateLimitHeadersFor(windows: readonly WindowState[], world: World): Record<string, string> {
  let shown = windows;
  if (world.fault('ratelimit.no-day-window')) shown = shown.filter((w) => w.name !== 'day');
  if (world.fault('ratelimit.reset-beyond-window')) shown = shown.map((w) => ({ ...w, resetSeconds: w.resetSeconds + w.seconds }));
  if (world.fault('ratelimit.policy-wrong-window')) shown = shown.map((w) => ({ ...w, seconds: w.seconds * 2 }));
  const headers: Record<string, string> = rateLimitHeaders(shown);
  if (world.fault('ratelimit.policy-string-quota')) headers['RateLimit-Policy'] = shown.map((w) => `"${w.name}";q="${w.quota}";w=${w.seconds}`).join(', ');
  if (world.fault('ratelimit.limit-float-params')) headers.RateLimit = shown.map((w) => `"${w.name}";r=${w.remaining}.0;t=${w.resetSeconds}`).join(', ');
  return headers;
}

/** The media type of a `Content-Type` value, lower case, without parameters. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  if (header === 'application/json') return header;
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}

/** `Content-Type` values, built once per media type (every response sends one). */
const CONTENT_TYPES = new Map<string, string>();
const contentTypeHeader = (type: string): string => {
  let value = CONTENT_TYPES.get(type);
  if (value === undefined) { value = `${type}; charset=utf-8`; CONTENT_TYPES.set(type, value); }
  return value;
};

/**
 * Serialises a reply; the only place that writes responses. The reply's headers win over
 * `base`, which belongs to this request alone (the rate-limit headers), so it is written into.
 */
function send(res: ServerResponse, reply: Reply, world: World | undefined, base?: Record<string, string>): void {
  const headers: Record<string, string | number> = base ?? {};
  if (reply.headers) Object.assign(headers, reply.headers);
  let payload: string | undefined;
  if (reply.text !== undefined) {
    payload = reply.text;
    headers['Content-Type'] = contentTypeHeader(reply.contentType ?? 'text/plain');
    headers['Content-Length'] = Buffer.byteLength(payload);
  } else if (reply.status !== 204 && reply.body !== undefined) {
    let body = reply.body;
    let type = reply.contentType ?? 'application/json';
    if (type === 'application/problem+json' && world) {
      if (world.fault('problem.plain-json')) type = 'application/json';
      const copy = { ...(body as Record<string, unknown>) };
      if (world.fault('problem.no-title')) delete copy.title;
      if (world.fault('problem.no-detail')) delete copy.detail;
      if (world.fault('problem.status-mismatch')) copy.status = reply.status === 400 ? 422 : 400;
      if (world.fault('problem.errors-objects')) copy.errors = [{ message: 'see detail' }];
      body = copy;
    }
    try {
      payload = JSON.stringify(body);
    } catch {
      payload = JSON.stringify(problem('internal', 'The response could not be serialised.').body);
      reply = { ...reply, status: 500 };
      type = 'application/problem+json';
    }
    headers['Content-Type'] = contentTypeHeader(type);
    headers['Content-Length'] = Buffer.byteLength(payload);
  }
  // writeHead only validates and stores the head (a bad header throws here, inside the pipeline's
  // error handling); the bytes leave with the other answers of this event-loop turn.
  res.writeHead(reply.status, headers);
  endThisTurn(res, payload);
}
