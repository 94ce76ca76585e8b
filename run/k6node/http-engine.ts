/**
 * The Node path's HTTP client, on the main thread: performs the requests a VU posts, with one
 * undici agent per VU (k6 VUs do not share connections), k6's limits on concurrent requests of
 * a batch (`batch` overall, `batchPerHost` per host), k6's 60 s default timeout and error codes,
 * and responses shaped as k6 shows them (Go-canonical header names, `status_text` "200 OK").
 */
import { STATUS_CODES } from 'node:http';
import { Agent, request, type Dispatcher } from 'undici';
import { BodyWrite, WRITE_ERRORS } from './body-write.js';
import type { HttpCall, WireRequest, WireResponse } from './protocol.js';

/** Go's textproto.CanonicalMIMEHeaderKey: `ratelimit-policy` is shown as `Ratelimit-Policy`. */
export function canonicalHeader(name: string): string {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** k6's error codes for the failures undici reports (lib/netext/httpext/error_codes.go). */
function errorCodeOf(e: unknown): number {
  const code = (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  const name = (e as Error).name;
  if (name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 1050;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 1101;
  if (code === 'ECONNREFUSED') return 1212;
  if (code === 'EPIPE') return 1201;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 1220;
  return 1000;
}

const ZERO = { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const hostOf = (url: string): string => url.slice(0, url.indexOf('/', url.indexOf('//') + 2) >>> 0);

/**
 * How long an idle connection is kept for the VU's next request. A server closes idle connections
 * on its own clock (Node's default is 5 s) and a request written on a connection it is closing
 * meets a reset before any answer; a busy machine delays both sides' timers, so a VU that paused
 * between iterations (a storm's refusals being checked) wrote its next request into that race.
 * As the contract client does (lib/client/transport.ts), a connection idle this long is let go.
 */
const IDLE_KEEP_ALIVE_MS = 1_000;

export class HttpEngine {
  readonly #agents = new Map<number, Agent>();

  #agent(vuId: number): Agent {
    let a = this.#agents.get(vuId);
    if (!a) {
      a = new Agent({ connections: null, keepAliveTimeout: IDLE_KEEP_ALIVE_MS, keepAliveMaxTimeout: IDLE_KEEP_ALIVE_MS });
      this.#agents.set(vuId, a);
    }
    return a;
  }

  /** One exchange, following redirects as Go's client does (303, and 301/302 after a non-GET, become GET without a body). */
  async #exchange(vuId: number, req: WireRequest, payload: Buffer | undefined): Promise<{ res: Dispatcher.ResponseData; url: string }> {
    let { method, url } = req;
    let body = payload;
    for (let hop = 0; ; hop++) {
      // undici's own timers bound the wait for headers and for each body chunk by k6's `timeout`.
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod, headers: req.headers, body,
        dispatcher: this.#agent(vuId), headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs,
      });
      const location = res.headers.location;
      if (!REDIRECTS.has(res.statusCode) || typeof location !== 'string' || hop >= req.redirects) return { res, url };
      await res.body.dump();
      url = new URL(location, url).toString();
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method !== 'GET' && method !== 'HEAD')) { method = 'GET'; body = undefined; }
    }
  }

  /** One request; `queuedAt` is when its call arrived, so time waiting for a slot counts as k6's `blocked`. */
  async #one(vuId: number, req: WireRequest, queuedAt: number): Promise<WireResponse> {
    const start = performance.now();
    const blocked = start - queuedAt;
    const sentHeaders = Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, req.method.length + req.url.length + 12);
    // The body as one Buffer that undici sends as is, so that its write can be watched to the end.
    const payload = req.body === null ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.from(req.body);
    const write = payload?.length ? new BodyWrite(payload) : undefined;
    try {
      const { res, url } = await this.#exchange(vuId, req, payload);
      const headersAt = performance.now();
      let body: string | ArrayBuffer | null = null;
      let received = 0;
      if (req.responseType === 'none') await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
      else if (req.responseType === 'binary') { body = await res.body.arrayBuffer(); received = body.byteLength; }
      else { body = await res.body.text(); received = Buffer.byteLength(body); }
      const end = performance.now();
      // An answer read while the server broke the connection under the body's write: k6 fails it.
      const cut = await write?.cutAfter(headersAt);
      if (cut) return this.#failed(req, { ...ZERO, blocked, duration: end - start }, sentHeaders, cut.error, cut.errorCode);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v === undefined) continue;
        headers[canonicalHeader(k)] = Array.isArray(v) ? v.join(', ') : v;
        received += k.length + String(v).length + 4;
      }
      const waiting = headersAt - start;
      const receiving = end - headersAt;
      return {
        status: res.statusCode, statusText: `${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}`.trim(), headers, body, url,
        // k6 gives 4xx and 5xx answers the error code 1000 + status, without an error message.
        error: '', errorCode: res.statusCode >= 400 ? 1000 + res.statusCode : 0, timings: { ...ZERO, blocked, waiting, receiving, duration: waiting + receiving },
        bytesSent: sentHeaders + (payload?.length ?? 0), bytesReceived: received,
      };
    } catch (e) {
      const duration = performance.now() - start;
      const err = e as Error & { cause?: Error };
      const code = (err as NodeJS.ErrnoException).code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code ?? '';
      const message = errorCodeOf(e) === 1050 ? 'request timeout' : WRITE_ERRORS[code]?.error ?? `${err.message}${err.cause?.message ? `: ${err.cause.message}` : ''}`;
      return this.#failed(req, { ...ZERO, blocked, duration }, sentHeaders, message, errorCodeOf(e));
    }
  }

  #failed(req: WireRequest, timings: WireResponse['timings'], bytesSent: number, error: string, errorCode: number): WireResponse {
    return { status: 0, statusText: '', headers: {}, body: null, url: req.url, error, errorCode, timings, bytesSent, bytesReceived: 0 };
  }

  /** Performs a VU's call: every request, at most `batch` at once and `batchPerHost` per host. */
  async run(vuId: number, call: HttpCall): Promise<WireResponse[]> {
    const results: WireResponse[] = new Array(call.requests.length);
    const queuedAt = performance.now();
    const perHost = new Map<string, number>();
    let active = 0;
    let next = 0;
    await new Promise<void>((done) => {
      const queue = call.requests.map((r, i) => ({ r, i, host: hostOf(r.url) }));
      const pump = (): void => {
        if (next === queue.length && active === 0) return done();
        for (let k = 0; k < queue.length && active < call.batch; k++) {
          const item = queue[k];
          if (!item || (perHost.get(item.host) ?? 0) >= call.batchPerHost) continue;
          queue[k] = undefined as never;
          next++;
          active++;
          perHost.set(item.host, (perHost.get(item.host) ?? 0) + 1);
          void this.#one(vuId, item.r, queuedAt).then((res) => {
            results[item.i] = res;
            active--;
            perHost.set(item.host, perHost.get(item.host)! - 1);
            pump();
          });
        }
      };
      pump();
    });
    return results;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#agents.values()].map((a) => a.close().catch(() => undefined)));
    this.#agents.clear();
  }
}
