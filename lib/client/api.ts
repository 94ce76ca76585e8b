import { draftEvidence, redactEvidence, type Evidence } from '../evidence.js';
import { MissingKeyError } from '../errors.js';
import type { Transport } from './transport.js';
import { fillPath, operations, type ApiSurface, type Method, type OperationName, type ParamsOf } from './operations.js';
import { absenceOf, probePath, sameAsUnknownRoute, type UnknownRouteAnswer } from './absence.js';

/** The three keys a target may offer, and the environment variable each comes from. */
export interface Keys { main?: string; readonly?: string; other?: string }
export type KeyRole = keyof Keys;
const KEY_VARIABLE: Record<KeyRole, string> = { main: 'CPC_API_KEY', readonly: 'CPC_API_KEY_READONLY', other: 'CPC_API_KEY_OTHER' };

export interface SurfaceUrls { baseUrl: string; serverlessUrl: string; restV1Url: string }

/**
 * How to authenticate one call:
 * - a role (`main` default, `readonly`, `other`): that key, in the surface's own style;
 * - `none`: no credentials at all;
 * - `{ key }`: this literal key in the surface's style (for invalid-key checks);
 * - `{ authorization }`: this exact Authorization header (for malformed-header checks);
 * - `{ role, style }`: a role's key in another surface's style (e.g. Bearer on serverless).
 */
export type AuthChoice = KeyRole | 'none' | { key: string } | { authorization: string } | { role: KeyRole; style: AuthStyle };
export type AuthStyle = 'bearer' | 'raw' | 'query';

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body; serialised with Content-Type application/json. */
  body?: unknown;
  /** Raw body bytes or text, sent as is (with `contentType` if given). */
  rawBody?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  auth?: AuthChoice;
  timeoutMs?: number;
  /** `false`: this call is not paced and gets any 429 (tests that exhaust a window on purpose). */
  pace?: boolean;
  /**
   * `true`: a connection that breaks before an answer is this call's result, thrown to the
   * test (a body past a payload limit, which a server may refuse by closing). Otherwise the
   * fixtures treat a lost answer as the network's doing, not the target's: the test is blocked.
   */
  brokenConnectionExpected?: boolean;
}

/** Options of a call by operationId: its path parameters by the operation's names. */
export type OpOptions<N extends OperationName> = Omit<CallOptions, 'params'> & { params?: ParamsOf<N>; surface?: ApiSurface };

/** A response with its parsed body and the evidence to show in a report. */
export interface ApiResult<T = unknown> {
  operation: string;
  status: number;
  headers: Record<string, string>;
  /** Media type without parameters, lower-cased (`application/problem+json`). */
  contentType: string;
  text: string;
  /** Parsed JSON when the body is JSON, else undefined. */
  body: T;
  bytes: number;
  durationMs: number;
  /**
   * Set when the answer says the operation itself is missing (lib/client/absence.ts): the line
   * naming it ("GET /v2/{endpointId}/status/{jobId} answered 405").
   */
  absent?: string;
  /** Built (and redacted) when first read. */
  readonly evidence: Evidence;
}

/** One call as observers see it (the cleanup registry reads creations and deletions from these). */
export interface Exchange {
  operation: string;
  surface: ApiSurface;
  auth: AuthChoice;
  params?: Record<string, string>;
  /** The JSON body sent (undefined for raw bodies). */
  requestBody?: unknown;
  status: number;
  responseBody: unknown;
  /** Set when the answer says the operation is missing (see {@link ApiResult.absent}). */
  absent?: string;
}
export type ExchangeObserver = (exchange: Exchange) => void;

/** A call about to be sent, as a gate sees it: a gate may throw (a budget reached) and nothing is sent. */
export interface OutgoingCall { operation: string; surface: ApiSurface; method: string; auth: AuthChoice; requestBody?: unknown }
export type SendGate = (call: OutgoingCall) => void;

const DEFAULT_STYLE: Record<ApiSurface, AuthStyle> = {
  'rest-v2': 'bearer', 'rest-v1': 'bearer', 'public-model': 'bearer', serverless: 'raw', graphql: 'query',
};

/**
 * A typed client for the four surfaces and their three auth styles. It records every
 * exchange as evidence and keeps the latest 20 for failure reports ({@link recentEvidence}).
 * Evidence is drafted per call (bodies clipped) and redacted when it is read: a test attaches its
 * last few exchanges, and a property test makes hundreds (redacting each against every key the
 * worker registered would be a large share of a worker's time).
 */
/**
 * The target's answer to a route it does not serve, per target, world and operation: asked once
 * in a process, on the first JSON 404 of the operation (whether a route is served does not
 * change during a run, and every test that meets a 404 would otherwise ask again).
 */
const unknownRouteProbes = new Map<string, Promise<UnknownRouteAnswer | undefined>>();

export class ApiClient {
  readonly #history: (() => Evidence)[] = [];
  #historyLimit = 20;

  constructor(
    readonly urls: SurfaceUrls,
    readonly keys: Keys,
    readonly transport: Transport,
    /** Extra headers on every call (the emulator's world header, when the target is one). */
    readonly defaultHeaders: Record<string, string> = {},
    /** Called when a call needs a key the target lacks; test fixtures turn it into a skip. */
    readonly onMissingKey: (role: KeyRole) => void = () => undefined,
    /** Told of every answered call; shared with {@link withKeys} copies. */
    readonly observers: ExchangeObserver[] = [],
    readonly gates: SendGate[] = [],
  ) {}

  /**
   * Calls an operation by its operationId (lib/operations.gen.ts). `surface: 'public-model'` calls
   * `runSync` on a public model endpoint, with that surface's bearer authentication.
   */
  op<T = unknown, N extends OperationName = OperationName>(name: N, options: OpOptions<N> = {}): Promise<ApiResult<T>> {
    const def = operations[name];
    return this.call<T>(options.surface ?? def.surface, def.method, fillPath(def.path, options.params), options as CallOptions, name);
  }

  /** Calls any path on a surface (for unknown-route and hygiene checks). */
  async call<T = unknown>(surface: ApiSurface, method: Method | string, path: string, options: CallOptions = {}, operation = `${method} ${path}`): Promise<ApiResult<T>> {
    const base = surface === 'serverless' || surface === 'public-model' ? this.urls.serverlessUrl : surface === 'rest-v1' ? this.urls.restV1Url : this.urls.baseUrl;
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...this.defaultHeaders };
    const { key, keyVariable } = this.#applyAuth(surface, options.auth ?? 'main', headers, url);

    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      if (options.contentType) headers['content-type'] = options.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    Object.assign(headers, options.headers);
    const bodyBytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : `<${bodyBytes} bytes>`;
    const curlInput = { operation, method, url: url.toString(), headers, ...(bodyText !== undefined ? { body: bodyText } : {}), bodyBytes, ...(key ? { key } : {}), ...(keyVariable ? { keyVariable } : {}) };

    for (const gate of this.gates) gate({ operation, surface, method, auth: options.auth ?? 'main', ...(options.body !== undefined ? { requestBody: options.body } : {}) });
    let response;
    try {
      response = await this.transport.send({ method, url: url.toString(), headers, ...(body !== undefined ? { body } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.pace === false ? { pace: false } : {}), ...(options.brokenConnectionExpected ? { brokenConnectionExpected: true } : {}) });
    } catch (e) {
      this.#remember(redactLater(draftEvidence(curlInput, undefined, (e as Error).message)));
      throw e;
    }
    const text = Buffer.from(response.bytes).toString('utf8');
    const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let parsed: unknown;
    if (text.length > 0 && (contentType === 'application/json' || contentType.endsWith('+json'))) {
      try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    }
    const evidence = redactLater(draftEvidence(curlInput, { status: response.status, headers: response.headers, text, bytes: response.bytes.byteLength, durationMs: response.durationMs }));
    this.#remember(evidence);
    const absent = await absenceOf({ operation, status: response.status, contentType, text },
      () => this.#unknownRoute(operation as OperationName, method, url, headers, { status: response.status, contentType, text }));
    for (const observe of this.observers) {
      observe({ operation, surface, auth: options.auth ?? 'main', ...(options.params ? { params: options.params } : {}), ...(options.body !== undefined ? { requestBody: options.body } : {}), status: response.status, responseBody: parsed, ...(absent ? { absent } : {}) });
    }
    return { operation, status: response.status, headers: response.headers, contentType, text, body: parsed as T, bytes: response.bytes.byteLength, durationMs: response.durationMs,
      ...(absent ? { absent } : {}), get evidence() { return evidence(); } };
  }

  /**
   * Whether a JSON 404 of `operation` is the answer the target gives a route it does not serve:
   * one request (the same method, headers and parameters, the operation's name replaced), sent
   * once per operation ({@link unknownRouteProbes}), neither gated nor observed (it reads and changes nothing).
   */
  async #unknownRoute(operation: OperationName, method: string, url: URL, headers: Record<string, string>, answer: { status: number; contentType: string; text: string }): Promise<boolean> {
    const key = `${url.origin} ${JSON.stringify(this.defaultHeaders)} ${operation}`;
    let probe = unknownRouteProbes.get(key);
    if (!probe) {
      const probeUrl = new URL(url);
      probeUrl.pathname = probePath(operation, url.pathname);
      // A broken connection leaves the question open (no absence), never blocks the test; a later 404 asks again.
      probe = this.transport.send({ method, url: probeUrl.toString(), headers, brokenConnectionExpected: true })
        .then((r) => ({ ...r, path: probeUrl.pathname, contentType: (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() }))
        .catch(() => { unknownRouteProbes.delete(key); return undefined; });
      unknownRouteProbes.set(key, probe);
    }
    const seen = await probe;
    return seen !== undefined && sameAsUnknownRoute({ ...answer, path: url.pathname }, seen);
  }

  /** GraphQL: `{query, variables}` to POST /graphql with the key as `api_key`. */
  graphql<T = unknown>(query: string, variables?: Record<string, unknown> | null, options: Omit<CallOptions, 'body'> = {}): Promise<ApiResult<T>> {
    return this.op<T>('graphql', { ...options, body: variables === undefined ? { query } : { query, variables } });
  }

  /** A copy of this client with other keys (for another account) and the same transport. */
  withKeys(keys: Keys): ApiClient {
    return new ApiClient(this.urls, keys, this.transport, this.defaultHeaders, this.onMissingKey, this.observers, this.gates);
  }

  #applyAuth(surface: ApiSurface, auth: AuthChoice, headers: Record<string, string>, url: URL): { key?: string; keyVariable?: string } {
    if (auth === 'none') return {};
    if (typeof auth === 'object' && 'authorization' in auth) { headers.authorization = auth.authorization; return {}; }
    let key: string | undefined;
    let keyVariable: string | undefined;
    let style = DEFAULT_STYLE[surface];
    if (typeof auth === 'string') { key = this.keys[auth]; keyVariable = KEY_VARIABLE[auth]; }
    else if ('key' in auth) { key = auth.key; keyVariable = 'API_KEY'; }
    else { key = this.keys[auth.role]; keyVariable = KEY_VARIABLE[auth.role]; style = auth.style; }
    if (key === undefined) {
      const role = typeof auth === 'string' ? auth : 'role' in auth ? auth.role : 'main';
      this.onMissingKey(role);
      throw new MissingKeyError(role, KEY_VARIABLE[role]);
    }
    if (style === 'bearer') headers.authorization = `Bearer ${key}`;
    else if (style === 'raw') headers.authorization = key;
    else url.searchParams.set('api_key', key);
    return { key, keyVariable };
  }

  /** The last `n` exchanges (of the latest 20) as redacted evidence, oldest first. */
  recentEvidence(n: number): Evidence[] {
    return this.#history.slice(-n).map((e) => e());
  }

  #remember(evidence: () => Evidence): void {
    this.#history.push(evidence);
    if (this.#history.length > this.#historyLimit) this.#history.shift();
  }
}

/** The drafted evidence (bodies already clipped), redacted on first use. */
function redactLater(draft: Evidence): () => Evidence {
  let redacted: Evidence | undefined;
  return () => (redacted ??= redactEvidence(draft));
}
