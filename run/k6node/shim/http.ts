/**
 * `k6/http` on the Node path: `request` and its verbs, `batch` (concurrent, within `batch` and
 * `batchPerHost`), `expectedStatuses` and `setResponseCallback`, with k6's built-in HTTP metrics
 * and tags. Requests block the VU's thread while the main thread performs them.
 */
import { parseDuration } from '../duration.js';
import type { WireRequest, WireResponse } from '../protocol.js';
import { baseTags, ctx, emit, httpCall, post } from '../worker/context.js';
import { Response } from './response.js';
import { K6ScriptError } from '../../../lib/errors.js';

type Body = string | ArrayBuffer | ArrayBufferView | Record<string, unknown> | null | undefined;
interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string | number;
  responseType?: 'text' | 'binary' | 'none';
  responseCallback?: ExpectedStatuses;
  redirects?: number;
}

/** What `expectedStatuses` returns: k6 treats it as opaque, so does the script. */
export class ExpectedStatuses {
  constructor(private readonly ranges: readonly (number | { min: number; max: number })[]) {}
  matches(status: number): boolean {
    return this.ranges.some((r) => (typeof r === 'number' ? r === status : status >= r.min && status <= r.max));
  }
}

export function expectedStatuses(...ranges: (number | { min: number; max: number })[]): ExpectedStatuses {
  for (const r of ranges) {
    if (typeof r === 'number' ? !Number.isInteger(r) : !(Number.isInteger(r.min) && Number.isInteger(r.max))) throw new K6ScriptError('expectedStatuses takes integers and {min, max} objects');
  }
  return new ExpectedStatuses(ranges);
}

let defaultCallback: ExpectedStatuses | null = expectedStatuses({ min: 200, max: 399 });

/** Sets the VU's default response callback; `null` stops http_req_failed samples. */
export function setResponseCallback(callback: ExpectedStatuses | null): void {
  defaultCallback = callback;
}

function encodeBody(body: Body, headers: Record<string, string>): string | Uint8Array | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

function wire(method: string, url: unknown, body: Body, params: Params | null | undefined): WireRequest {
  if (ctx.phase === 'init') throw new K6ScriptError('Making http requests in the init context is not supported');
  const headers: Record<string, string> = { 'User-Agent': 'k6-node-path (conformance suite)', ...params?.headers };
  return {
    method: method.toUpperCase(), url: new URL(String(url)).toString(), headers,
    body: encodeBody(body, headers),
    timeoutMs: params?.timeout === undefined ? 60_000 : parseDuration(typeof params.timeout === 'number' ? params.timeout : params.timeout, 'timeout'),
    responseType: params?.responseType ?? 'text',
    redirects: params?.redirects ?? 10,
  };
}

function record(req: WireRequest, res: WireResponse, params: Params | null | undefined): Response {
  const callback = params?.responseCallback !== undefined ? params.responseCallback : defaultCallback;
  const expected = callback ? callback.matches(res.status) : undefined;
  const tags: Record<string, string> = {
    ...baseTags(), method: req.method, url: req.url, name: params?.tags?.name ?? req.url, status: String(res.status), proto: 'HTTP/1.1',
    ...(expected !== undefined ? { expected_response: String(expected) } : {}), ...(res.errorCode ? { error_code: String(res.errorCode) } : {}), ...params?.tags,
  };
  emit('http_reqs', 1, tags);
  for (const [name, key] of [['http_req_duration', 'duration'], ['http_req_blocked', 'blocked'], ['http_req_connecting', 'connecting'],
    ['http_req_tls_handshaking', 'tls_handshaking'], ['http_req_sending', 'sending'], ['http_req_waiting', 'waiting'], ['http_req_receiving', 'receiving']] as const) {
    emit(name, res.timings[key], tags);
  }
  if (expected !== undefined) emit('http_req_failed', expected ? 0 : 1, tags);
  emit('data_sent', res.bytesSent, baseTags());
  emit('data_received', res.bytesReceived, baseTags());
  if (res.error) post({ type: 'log', level: 'warn', message: `Request Failed error="${res.error}" url=${req.url}` });
  return new Response(res, req);
}

export function request(method: string, url: unknown, body?: Body, params?: Params | null): Response {
  const req = wire(method, url, body, params);
  return record(req, httpCall({ requests: [req], batch: 1, batchPerHost: 1 })[0]!, params);
}

export const get = (url: unknown, params?: Params | null): Response => request('GET', url, null, params);
export const head = (url: unknown, params?: Params | null): Response => request('HEAD', url, null, params);
export const post_ = (url: unknown, body?: Body, params?: Params | null): Response => request('POST', url, body, params);
export const put = (url: unknown, body?: Body, params?: Params | null): Response => request('PUT', url, body, params);
export const patch = (url: unknown, body?: Body, params?: Params | null): Response => request('PATCH', url, body, params);
export const del = (url: unknown, body?: Body, params?: Params | null): Response => request('DELETE', url, body, params);
export const options = (url: unknown, body?: Body, params?: Params | null): Response => request('OPTIONS', url, body, params);
export { post_ as post };

type BatchItem = string | [string, unknown, Body?, (Params | null)?] | { method: string; url: unknown; body?: Body; params?: Params | null };

function normalise(item: BatchItem): { method: string; url: unknown; body: Body; params: Params | null | undefined } {
  if (typeof item === 'string') return { method: 'GET', url: item, body: null, params: undefined };
  if (Array.isArray(item)) return { method: item[0], url: item[1], body: item[2] ?? null, params: item[3] };
  return { method: item.method ?? 'GET', url: item.url, body: item.body ?? null, params: item.params };
}

/** Sends the requests concurrently; answers in the same shape (array or object) as asked. */
export function batch(requests: BatchItem[] | Record<string, BatchItem>): Response[] | Record<string, Response> {
  const keys = Array.isArray(requests) ? undefined : Object.keys(requests);
  const items = (keys ? keys.map((k) => (requests as Record<string, BatchItem>)[k]!) : (requests as BatchItem[])).map(normalise);
  const wires = items.map((i) => wire(i.method, i.url, i.body, i.params));
  const answers = httpCall({ requests: wires, batch: ctx.batch, batchPerHost: ctx.batchPerHost });
  const responses = answers.map((a, i) => record(wires[i]!, a, items[i]!.params));
  return keys ? Object.fromEntries(keys.map((k, i) => [k, responses[i]!])) : responses;
}

/** `http.url` tagged template: the URL, with the template as its `name` tag in k6 (kept as the URL here). */
export function url(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
}

export default { request, get, head, post: post_, put, patch, del, options, batch, expectedStatuses, setResponseCallback, url };
