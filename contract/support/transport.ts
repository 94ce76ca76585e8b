import type { APIRequestContext } from '@playwright/test';
import type { Transport } from '../../lib/client/transport.js';

/** Sends the typed client's requests through Playwright's `request` fixture. */
export function playwrightTransport(request: APIRequestContext): Transport {
  return {
    async send(req) {
      const started = performance.now();
      const res = await request.fetch(req.url, {
        method: req.method,
        headers: req.headers,
        // Always bytes: Playwright JSON-encodes a string `data` that is not valid JSON when the
        // content type is JSON, which would turn a malformed-JSON check into a valid-JSON one.
        ...(req.body !== undefined ? { data: Buffer.from(req.body) } : {}),
        failOnStatusCode: false,
        maxRedirects: 0,
        timeout: req.timeoutMs ?? 330_000,
      });
      const bytes = new Uint8Array(await res.body());
      const headers: Record<string, string> = {};
      for (const { name, value } of res.headersArray()) {
        const n = name.toLowerCase();
        headers[n] = headers[n] === undefined ? value : `${headers[n]}, ${value}`;
      }
      return { status: res.status(), headers, bytes, durationMs: performance.now() - started };
    },
  };
}
