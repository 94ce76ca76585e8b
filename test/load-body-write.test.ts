// @own-process: times uploads of 20 MB bodies.
/**
 * The Node path's client fails where k6's does when a server answers before reading a body
 * (run/k6node/body-write.ts): a server that answers and resets the connection under the write
 * fails the request with k6's error (1201 `write: broken pipe` or 1220 `write: connection reset
 * by peer`), and a server that reads the rest (a lingering close, as the emulator's
 * http/body.ts does) gets its answer read. The bodies are larger than loopback's socket buffers,
 * so a server that stops reading leaves part of the body unwritten.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../emulator/http/body.js';
import { HttpEngine } from '../run/k6node/http-engine.js';

const LIMIT = 16 * 1024 * 1024;
const BODY = 'x'.repeat(LIMIT + 5 * 1024 * 1024);
const ANSWER = '{"status":413}';

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;
const early = (headers: Record<string, string | number>, after: (req: IncomingMessage) => void): Behaviour => (req, res) => {
  res.writeHead(413, { 'content-type': 'application/problem+json', 'content-length': ANSWER.length, ...headers });
  res.end(ANSWER, () => after(req));
};

const servers: [string, Behaviour, 'fails' | 'answers'][] = [
  // Node's http server default: `Connection: close`, then the socket closes with the body unread (a reset).
  ['answers 413 with Connection: close and closes with the body unread', early({ connection: 'close' }, () => undefined), 'fails'],
  ['answers 413 and resets the connection at once', early({}, (req) => req.socket.resetAndDestroy()), 'fails'],
  ['answers 413 and closes its socket at once', early({}, (req) => req.socket.destroy()), 'fails'],
  ['answers 413 and reads the rest of the body (lingering close)', (req, res) => {
    readBody(req, LIMIT, { bodyRead: () => { res.writeHead(413, { 'content-type': 'application/problem+json', 'content-length': ANSWER.length }).end(ANSWER); } });
  }, 'answers'],
  // nginx: `Connection: close`, its side shut after the answer (a FIN), the rest of the body read.
  ['answers 413 with Connection: close, shuts its side and reads the rest (nginx lingering close)', (req, res) => {
    req.socket.destroySoon = function halfClose(this: typeof req.socket) { this.end(); req.resume(); req.on('end', () => this.destroy()); };
    res.writeHead(413, { 'content-type': 'application/problem+json', 'content-length': ANSWER.length, connection: 'close' }).end(ANSWER);
  }, 'answers'],
  ['reads the whole body, then answers 413', (req, res) => { req.resume(); req.on('end', () => res.writeHead(413, { 'content-length': ANSWER.length }).end(ANSWER)); }, 'answers'],
];

for (const [name, behaviour, outcome] of servers) {
  test(`a server that ${name}: every post of an oversized body ${outcome === 'fails' ? 'fails as on k6' : 'reads the 413'}`, async () => {
    const server = createServer(behaviour);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const engine = new HttpEngine();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const [res] = await engine.run(1, { requests: [{ method: 'POST', url, headers: {}, body: BODY, timeoutMs: 60_000, redirects: 10, responseType: 'text' }], batch: 1, batchPerHost: 1 });
        seen.push(`${res!.status} ${res!.errorCode} ${res!.error}`);
      }
      if (outcome === 'answers') assert.deepEqual(seen, Array(6).fill('413 1413 '));
      else for (const s of seen) assert.match(s, /^0 (1201 write: broken pipe|1220 write: connection reset by peer)$/);
    } finally {
      await engine.close();
      server.closeAllConnections();
      server.close();
    }
  });
}
