import type { Agent, Dispatcher } from 'undici';
import { LostAnswerError } from '../errors.js';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * undici, imported on first use: Playwright's runner imports the clients to list the tests and
 * never sends a request, and loading undici takes CPU time those processes do not need.
 */
export const loadUndici = (): Promise<Undici> => (undici ??= import('undici'));

/** One HTTP request as the client builds it. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Abort after this many milliseconds (default 330 s: longer than the spec's longest wait). */
  timeoutMs?: number;
  /** `false`: send at once, never wait for the rate limit nor retry a 429 (see pacing.ts). */
  pace?: boolean;
  /** A broken connection is the answer the caller looks for (see CallOptions). */
  brokenConnectionExpected?: boolean;
}

/**
 * Calls `onLost` when a request's connection breaks before any answer (after the read retry of
 * the transport below), or a gateway in front of the service answers for it that it lost or
 * timed out on the service (a 502 or 504 that is not JSON; a read is sent once more): no verdict
 * can come from it. `onLost` decides what the caller sees
 * (the fixtures block the test); requests marked `brokenConnectionExpected` get the error.
 */
export function lostAnswerTransport(inner: Transport, onLost: (lost: LostAnswerError) => never = (lost) => { throw lost; }): Transport {
  const lost = (req: HttpRequest, what: string): never =>
    onLost(new LostAnswerError(`${what} before ${req.method} ${new URL(req.url).pathname} was answered; ${isRead(req) ? 'a second try met the same' : 'it may have happened on the target, and is not sent again'}`));
  return {
    async send(req) {
      let res: HttpResponse;
      try {
        res = await inner.send(req);
      } catch (e) {
        if (req.brokenConnectionExpected || !isBrokenConnection(e)) throw e;
        return lost(req, `the connection broke (${(e as Error).message})`);
      }
      if (req.brokenConnectionExpected || !isGatewayPage(res)) return res;
      // The same broken connection seen through a proxy: a read is sent once more.
      if (isRead(req)) {
        const again = await inner.send(req);
        if (!isGatewayPage(again)) return again;
      }
      return lost(req, `a gateway answered ${res.status} (${res.headers['content-type'] ?? 'no content type'}: ${Buffer.from(res.bytes).toString('utf8').slice(0, 80)})`);
    },
  };
}

const isRead = (req: HttpRequest): boolean => req.method === 'GET' || req.method === 'HEAD';

/**
 * A gateway's own answer that it lost the service (502) or timed out waiting for it (504): not
 * JSON, so not the service's answer (the API answers errors as problem+json or JSON).
 */
function isGatewayPage(res: HttpResponse): boolean {
  if (res.status !== 502 && res.status !== 504) return false;
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return !(type === 'application/json' || type.endsWith('+json'));
}

const BROKEN_CONNECTION = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** A connection error (undici's own or the socket's), as opposed to a timeout or the caller's abort. */
function isBrokenConnection(e: unknown): boolean {
  for (let cause = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; cause && depth < 4; cause = cause.cause as typeof cause, depth++) {
    if (typeof cause.code === 'string' && BROKEN_CONNECTION.has(cause.code)) return true;
  }
  return false;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  bytes: Uint8Array;
  durationMs: number;
}

/** How requests reach the target (undici; the contract and property fixtures keep one pool per worker). */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
}

const DEFAULT_TIMEOUT_MS = 330_000;

/**
 * How long a pooled connection may sit idle before the client closes it. A server closes idle
 * connections on its own clock (Node's default is 5 s, load balancers 60 s and more) and a
 * request sent on a connection it is closing dies with ECONNRESET before any answer. Tests
 * idle for seconds (the rate limit's pacing, polling), and a busy machine delays the client's
 * own timers, so the client lets go of an idle connection well before any server would.
 */
const IDLE_KEEP_ALIVE_MS = 1_000;

/**
 * A read whose connection broke before any answer (reset, refused, closed) is sent once more:
 * a read changes nothing on the target, so a network blip costs one request instead of a
 * verdict. Only reads: a create or an action whose answer was lost may have happened, and
 * sending it again could make a second resource. Answers are never retried on their status
 * (a 5xx or a 429 is for the checks and the pacing to see).
 */
const READ_RETRY = { maxRetries: 1, methods: ['GET', 'HEAD'], statusCodes: [] as number[], minTimeout: 50, maxTimeout: 50, timeoutFactor: 1 } as const;

/** The undici transport: one keep-alive pool per client, reads retried once on a broken connection ({@link READ_RETRY}). */
export function undiciTransport(options: { connections?: number } = {}): Transport & { close(): Promise<void> } {
  let agent: Promise<{ base: Agent; dispatcher: Dispatcher }> | undefined;
  const pool = () => (agent ??= loadUndici().then(({ Agent, interceptors }) => {
    const base = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: IDLE_KEEP_ALIVE_MS,
      keepAliveMaxTimeout: IDLE_KEEP_ALIVE_MS,
      headersTimeout: DEFAULT_TIMEOUT_MS,
      bodyTimeout: DEFAULT_TIMEOUT_MS,
    });
    return { base, dispatcher: base.compose(interceptors.retry({ ...READ_RETRY, methods: [...READ_RETRY.methods], statusCodes: [] })) };
  }));
  return {
    async send(req) {
      const started = performance.now();
      const [{ request }, { dispatcher }] = await Promise.all([loadUndici(), pool()]);
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      const bytes = new Uint8Array(await res.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers, bytes, durationMs: performance.now() - started };
    },
    close: async () => { if (agent) await (await agent).base.close(); },
  };
}
