import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { undiciTransport } from '../lib/client/transport.js';

/**
 * A server that destroys the connection of the first request it gets for each path (before
 * any answer, as a network blip does) and answers 200 to the next ones; it counts requests.
 */
async function blipServer(): Promise<{ url: string; seen: Map<string, number>; close(): Promise<void> }> {
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    req.resume();
    if (n === 1) { req.socket.destroy(); return; }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

test('a read whose connection breaks before any answer is sent once more and answered', async () => {
  const server = await blipServer();
  const transport = undiciTransport();
  try {
    const res = await transport.send({ method: 'GET', url: `${server.url}/v2/pods/p1`, headers: {} });
    assert.equal(res.status, 200);
    assert.equal(server.seen.get('GET /v2/pods/p1'), 2, 'one request lost, one retried');
  } finally {
    await transport.close();
    await server.close();
  }
});

test('a create whose connection breaks is not sent again: it may have happened', async () => {
  const server = await blipServer();
  const transport = undiciTransport();
  try {
    await assert.rejects(transport.send({ method: 'POST', url: `${server.url}/v2/pods`, headers: { 'content-type': 'application/json' }, body: '{}' }));
    assert.equal(server.seen.get('POST /v2/pods'), 1);
  } finally {
    await transport.close();
    await server.close();
  }
});

test('a read is retried at most once, and never for its status', async () => {
  let gets = 0;
  const server = createServer((req, res) => {
    gets++;
    req.resume();
    if (req.url === '/always-broken') { req.socket.destroy(); return; }
    res.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"title":"Service Unavailable","status":503,"detail":"busy"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const transport = undiciTransport();
  try {
    await assert.rejects(transport.send({ method: 'GET', url: `${url}/always-broken`, headers: {} }));
    assert.equal(gets, 2, 'the first try and one retry');
    gets = 0;
    const res = await transport.send({ method: 'GET', url: `${url}/busy`, headers: {} });
    assert.equal(res.status, 503);
    assert.equal(gets, 1, 'a 503 is an answer for the checks, not a blip');
  } finally {
    await transport.close();
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  }
});
