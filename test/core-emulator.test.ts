import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';

let emu: RunningEmulator;
let key: string;
let world: string;

before(async () => {
  emu = await startEmulator({ port: 0 });
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', body: JSON.stringify({ quotas: { minute: 1000 } }), headers: { 'content-type': 'application/json' } });
  const info = (await res.body.json()) as { id: string; keys: { main: string } };
  key = info.keys.main;
  world = info.id;
});
after(() => emu.close());

async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  const res = await request(emu.url + path, { method: method as 'GET', headers: init.headers, body: init.body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}
const bearer = () => ({ authorization: `Bearer ${key}` });

test('the control surface identifies the emulator and lists its faults', async () => {
  const res = await call('GET', '/__emulator');
  assert.equal(res.status, 200);
  assert.equal(res.json!.emulator, 'compute-platform-emulator');
  assert.ok((res.json!.faults as string[]).length > 0);
});

const problems: [string, () => ReturnType<typeof call>, number, RegExp][] = [
  ['unknown route', () => call('GET', '/v2/nothing/here/at/all', { headers: bearer() }), 404, /No operation/],
  ['method not allowed', () => call('PUT', '/v2/pods', { headers: bearer() }), 405, /PUT/],
  ['missing key', () => call('GET', '/v2/pods'), 401, /No API key/],
  ['unknown key', () => call('GET', '/v2/pods', { headers: { authorization: 'Bearer nope-nope-nope' } }), 401, /not valid/],
  ['malformed JSON', () => call('POST', '/v2/pods', { headers: { ...bearer(), 'content-type': 'application/json' }, body: '{"a":' }), 400, /not valid JSON/],
  ['wrong content type', () => call('POST', '/v2/pods', { headers: { ...bearer(), 'content-type': 'text/plain' }, body: 'hello' }), 415, /application\/json/],
  ['deep nesting', () => call('POST', '/v2/pods', { headers: { ...bearer(), 'content-type': 'application/json' }, body: '['.repeat(100_000) + ']'.repeat(100_000) }), 400, /nests deeper/],
  ['declared body over the limit', () => call('POST', '/v2/pods', { headers: { ...bearer(), 'content-type': 'application/json' }, body: Buffer.alloc(2 * 1024 * 1024, 32) }), 413, /maximum payload/],
  ['unknown world in control', () => call('POST', '/__emulator/worlds/none/clock', { headers: { 'content-type': 'application/json' }, body: '{"advanceMs":1}' }), 404, /No world/],
  ['unknown fault in control', () => call('PUT', `/__emulator/worlds/${world}/faults`, { headers: { 'content-type': 'application/json' }, body: '{"faults":["no.such-fault"]}' }), 400, /unknown fault/],
];
for (const [name, send, status, detail] of problems) {
  test(`bad input gets a problem+json answer: ${name}`, async () => {
    const res = await send();
    assert.equal(res.status, status, res.text);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json!.status, status);
    assert.match(String(res.json!.detail), detail);
    assert.doesNotMatch(res.text, /\n\s+at |\.ts:\d+/, 'no stack trace in the body');
  });
}

test('a streamed body over the limit is refused without buffering it', async () => {
  const chunk = Buffer.alloc(256 * 1024, 32);
  let sent = 0;
  async function* body() { for (let i = 0; i < 40; i++) { sent += chunk.length; yield chunk; } }
  const res = await request(`${emu.url}/v2/pods`, { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: Readable.from(body()) }).catch((e: Error) => e);
  if (res instanceof Error) {
    // The emulator may drop the socket once the client sends far past the limit.
    assert.match(res.message, /socket|closed|reset|EPIPE/i);
  } else {
    assert.equal(res.statusCode, 413);
    await res.body.dump();
  }
  assert.ok(sent > 1024 * 1024);
});

test('authenticated answers carry both rate-limit headers', async () => {
  const res = await call('GET', '/v2/pods', { headers: bearer() });
  assert.equal(res.status, 200);
  assert.match(String(res.headers.ratelimit), /^"minute";r=\d+;t=\d+, "hour";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  assert.match(String(res.headers['ratelimit-policy']), /^"minute";q=1000;w=60, /);
});

test('an expired key gets 401', async () => {
  const minted = await call('POST', `/__emulator/worlds/${world}/keys`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expiresInMs: 1000 }) });
  const k = String(minted.json!.key);
  assert.equal((await call('GET', '/v2/pods', { headers: { authorization: `Bearer ${k}` } })).status, 200);
  await call('POST', `/__emulator/worlds/${world}/clock`, { headers: { 'content-type': 'application/json' }, body: '{"advanceMs":1000}' });
  const res = await call('GET', '/v2/pods', { headers: { authorization: `Bearer ${k}` } });
  assert.equal(res.status, 401);
  assert.match(String(res.json!.detail), /expired/);
});

test('malformed HTTP gets a 400 problem, and the server keeps serving', async () => {
  const net = await import('node:net');
  const reply = await new Promise<string>((resolve) => {
    const socket = net.connect(emu.port, '127.0.0.1', () => socket.write('GARBAGE \x00\x01 HTTP/9\r\n\r\n'));
    let data = '';
    socket.on('data', (d) => { data += d.toString(); });
    socket.on('close', () => resolve(data));
  });
  assert.match(reply, /^HTTP\/1.1 400/);
  assert.equal((await call('GET', '/__emulator')).status, 200);
});

/** Sends raw HTTP over one socket: `parts` written with a pause between them, then `end` (or a reset). */
async function rawExchange(port: number, parts: string[], finish: 'wait' | 'reset'): Promise<string> {
  const net = await import('node:net');
  return new Promise<string>((resolve, reject) => {
    let data = '';
    const socket = net.connect(port, '127.0.0.1', async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 20));
      }
      if (finish === 'reset') socket.destroy();
    });
    socket.on('data', (d) => { data += d.toString(); if (finish === 'wait' && /\r\n\r\n[\s\S]*\}$/.test(data)) socket.end(); });
    // An answer that never comes fails the test instead of hanging it.
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer within 30 s (got ${JSON.stringify(data.slice(0, 200))})`)));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

const podBody = JSON.stringify({ name: 'pieces', image: 'busybox:latest', gpu: { id: 'NVIDIA GeForce RTX 4090' } });
const podHead = (length: number, apiKey = key): string => `POST /v2/pods HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

test('a body that arrives in pieces is read whole', async () => {
  const reply = await rawExchange(emu.port, [podHead(podBody.length), podBody.slice(0, 10), podBody.slice(10, 40), podBody.slice(40)], 'wait');
  assert.match(reply, /^HTTP\/1.1 201/);
  assert.match(reply, /"name":"pieces"/);
});

test('a client that leaves in the middle of a body creates nothing, reports no error, and the server keeps serving', async () => {
  const errors: unknown[] = [];
  const own = await startEmulator({ port: 0, defaultKey: 'cpk_leaves_mid_body', onInternalError: (e) => { errors.push(e); } });
  try {
    const auth = { authorization: 'Bearer cpk_leaves_mid_body' };
    const pods = async (): Promise<number> => {
      const res = await request(`${own.url}/v2/pods`, { headers: auth });
      return ((await res.body.json()) as { pods: unknown[] }).pods.length;
    };
    const reply = await rawExchange(own.port, [podHead(podBody.length + 50, 'cpk_leaves_mid_body'), podBody], 'reset');
    assert.equal(reply, '', 'nothing is answered to a request whose body never ended');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await pods(), 0, 'the unfinished request created no pod');
    const created = await request(`${own.url}/v2/pods`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: podBody });
    await created.body.dump();
    assert.equal(created.statusCode, 201);
    assert.equal(await pods(), 1);
    assert.deepEqual(errors, [], 'no internal error was reported');
  } finally {
    await own.close();
  }
});
