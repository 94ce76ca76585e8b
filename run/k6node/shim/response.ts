/**
 * k6's HTTP Response object on the Node path (the fields scripts read: status, headers with
 * Go-canonical names, body, timings, error, error_code, json()).
 */
import type { WireRequest, WireResponse } from '../protocol.js';
import { K6ScriptError } from '../../../lib/errors.js';

/** A small subset of gjson paths (`a.b.0.c`), which k6's `json(selector)` takes. */
function select(value: unknown, selector: string): unknown {
  let current = value;
  for (const part of selector.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export class Response {
  readonly status: number;
  readonly status_text: string;
  readonly headers: Record<string, string>;
  readonly body: string | ArrayBuffer | null;
  readonly url: string;
  readonly error: string;
  readonly error_code: number;
  readonly timings: WireResponse['timings'];
  readonly proto = 'HTTP/1.1';
  readonly cookies: Record<string, unknown[]> = {};
  readonly remote_ip = '';
  readonly remote_port = 0;
  readonly request: { method: string; url: string; headers: Record<string, string[]>; body: string; cookies: Record<string, unknown[]> };

  constructor(wire: WireResponse, req: WireRequest) {
    this.status = wire.status;
    this.status_text = wire.statusText;
    this.headers = wire.headers;
    this.body = wire.body;
    this.url = wire.url;
    this.error = wire.error;
    this.error_code = wire.errorCode;
    this.timings = wire.timings;
    this.request = {
      method: req.method, url: req.url, cookies: {},
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, [v]])),
      body: typeof req.body === 'string' ? req.body : req.body ? `<${req.body.byteLength} bytes>` : '',
    };
  }

  json(selector?: string): unknown {
    if (typeof this.body !== 'string') throw new K6ScriptError('the body is not text: set responseType to "text" to read it as JSON');
    const parsed: unknown = JSON.parse(this.body);
    return selector ? select(parsed, selector) : parsed;
  }

  html(): never {
    throw new K6ScriptError('Response.html() is not supported by the Node path; run this script with k6');
  }
}
