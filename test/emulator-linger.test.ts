// @own-process: times how the emulator closes sockets.
/**
 * The lingering close of an oversized body (emulator/http/body.ts): the 413 is read by a client
 * that keeps sending after it, a body that ends within the bounds leaves the connection usable,
 * and a sender past the byte bound or the time bound loses its connection. With real k6 (`K6`
 * or `k6` on PATH) every oversized post of several VUs reads its 413.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { LINGER, readBody } from '../emulator/http/body.js';
import { DEFAULT_MAX_BODY } from '../emulator/http/decode.js';
import { findK6 } from '../run/k6node/k6-binary.js';

let emu: RunningEmulator;
let key: string;

before(async () => {
  emu = await startEmulator({ port: 0 });
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', body: JSON.stringify({ quotas: { minute: 100000 } }), headers: { 'content-type': 'application/json' } });
  key = ((await res.body.json()) as { keys: { main: string } }).keys.main;
});
after(() => emu.close());

const MIB = 1024 * 1024;
const head = (length: number, path = '/v2/pods'): string =>
  `POST ${path} HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** A raw client: what it read, whether its writes failed, and when the server closed. */
interface Raw { socket: Socket; data: () => string; written: () => number; writeError: () => string | undefined; closed: Promise<void> }

function rawClient(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let written = 0;
    let writeError: string | undefined;
    socket.on('data', (d) => { data += d.toString('latin1'); });
    socket.on('error', (e: NodeJS.ErrnoException) => { writeError ??= e.code ?? e.message; });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({
      socket, data: () => data, written: () => written, writeError: () => writeError, closed,
    }));
    socket.once('error', reject);
    const write = socket.write.bind(socket);
    socket.write = ((chunk: Buffer | string, ...rest: never[]) => { written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length; return write(chunk, ...rest); }) as typeof socket.write;
  });
}

/** Resolves when `predicate` holds on the data read so far; fails after 5 s instead of hanging. */
async function until(raw: Raw, predicate: (data: string) => boolean, what: string): Promise<void> {
  for (let waited = 0; !predicate(raw.data()); waited += 10) {
    if (waited > 5000) assert.fail(`${what} did not happen within 5 s (read ${JSON.stringify(raw.data().slice(0, 300))})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const answered413 = (data: string): boolean => /^HTTP\/1\.1 413 [\s\S]*\r\n\r\n\{[\s\S]*\}/.test(data);

async function sendAll(raw: Raw, bytes: number, chunk = 64 * 1024): Promise<void> {
  const piece = Buffer.alloc(chunk, 32);
  for (let left = bytes; left > 0 && !raw.writeError() && !raw.socket.destroyed; left -= chunk) {
    if (!raw.socket.write(left >= chunk ? piece : piece.subarray(0, left))) await new Promise<void>((r) => { raw.socket.once('drain', r); raw.socket.once('close', r); });
  }
}

test('a client that keeps sending after the 413 reads it, finishes its body, and keeps its connection', async () => {
  const raw = await rawClient(emu.port);
  const size = DEFAULT_MAX_BODY + MIB / 2;
  raw.socket.write(head(size));
  await sendAll(raw, DEFAULT_MAX_BODY + 1);
  await until(raw, answered413, 'the 413');
  // The rest of the body after the answer, as a client that writes before it reads does.
  await sendAll(raw, size - DEFAULT_MAX_BODY - 1);
  assert.equal(raw.writeError(), undefined, 'no write of the body failed');
  const first = raw.data();
  assert.match(first, /content-type: application\/problem\+json/i);
  assert.match(first, /"status":413/);
  assert.doesNotMatch(first, /connection: close/i);
  raw.socket.write(`GET /v2/pods HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  await until(raw, (d) => /HTTP\/1\.1 200 /.test(d.slice(first.length)), 'the next answer on the same connection');
  raw.socket.destroy();
});

test('an endless sender is cut off after the byte bound, having read its 413 first', async () => {
  const raw = await rawClient(emu.port);
  raw.socket.write(head(1024 * MIB));
  await sendAll(raw, 1024 * MIB, 256 * 1024);
  await raw.closed;
  assert.ok(answered413(raw.data()), 'the 413 arrived before the connection was dropped');
  const cap = DEFAULT_MAX_BODY * LINGER.limitFactor + LINGER.slackBytes;
  // The client's count includes what the kernels' socket buffers held when the server let go.
  assert.ok(raw.written() < cap + 32 * MIB, `the server took ${raw.written()} bytes; its bound is ${cap} plus socket buffers`);
});

const HANG_GUARD = 'the server did not let go within 30 s';

/** A server whose reads have the given linger bounds (a 1 KiB limit), counting the body bytes it received and whether the body ended. */
interface LingerServer { port: number; received: () => number; ended: () => boolean; close: () => void }

async function lingerServer(bounds: { ms: number; idleMs: number; minBytesPerSecond: number }, limit = 1024): Promise<LingerServer> {
  let received = 0;
  let ended = false;
  const server: Server = createServer((req, res) => {
    // Answered on the next turn, as the emulator's outbox does: an answer finished before the
    // request's body flows makes Node dump the request (its data listeners removed).
    readBody(req, limit, { bodyRead: (r) => { setImmediate(() => res.writeHead(r.kind === 'too-large' ? 413 : 200, { 'content-length': 2 }).end('{}')); } }, { ...bounds, limitFactor: 1000, slackBytes: MIB });
    req.on('data', (chunk: Buffer) => { received += chunk.length; });
    req.once('end', () => { ended = true; });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, received: () => received, ended: () => ended, close: () => server.close() };
}

/** The byte bound of {@link lingerServer}'s reads: 1000 times the 1 KiB limit plus 1 MiB. */
const SERVER_CAP = 1024 * 1000 + MIB;

/**
 * A raw client that declares a 10 MiB body to a {@link lingerServer}, sends just past the 1 KiB
 * limit, then does what `after` does until the server lets go. Returns the bytes the server
 * received. The 30 s timer is a hang guard, never a duration the test holds.
 */
async function lingered(bounds: { ms: number; idleMs: number; minBytesPerSecond: number }, after: (raw: Raw) => () => void): Promise<number> {
  const limit = 1024;
  const server = await lingerServer(bounds, limit);
  try {
    const raw = await rawClient(server.port);
    raw.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * MIB}\r\n\r\n`);
    raw.socket.write(Buffer.alloc(limit + 1, 32));
    const stop = after(raw);
    const timeout = setTimeout(() => raw.socket.destroy(new Error(HANG_GUARD)), 30_000);
    await raw.closed;
    stop();
    clearTimeout(timeout);
    assert.notEqual(raw.writeError(), HANG_GUARD);
    assert.match(raw.data(), /^HTTP\/1\.1 413 /);
    assert.equal(server.ended(), false, 'the server let go before the body ended');
    return server.received();
  } finally {
    server.close();
  }
}

/** Writes 100 bytes every 10 ms (10 KB/s) until stopped or the socket is gone. */
const trickle = (raw: Raw): (() => void) => {
  const timer = setInterval(() => { if (!raw.socket.destroyed) raw.socket.write(Buffer.alloc(100, 32)); }, 10);
  return () => clearInterval(timer);
};

// The idle bound (10 minutes) cannot end it, nor can the byte bound (about 2 MiB, 200 s of
// trickle): only the time bound lets go before the hang guard.
test('a slow sender is cut off after the time bound (readBody with a short bound)', async () => {
  // 10 KB/s, below the bound's 1 MiB/s: the time bound ends it.
  await lingered({ ms: 200, idleMs: 600_000, minBytesPerSecond: MIB }, trickle);
});

// The rate is each interval's: averaged since the refusal, the fast start would keep the
// trickle going (its 1.9 MiB at 64 KiB/s last 30 s), until the byte bound ended it instead.
test('a sender that starts fast and then trickles is let go at the time bound, not the byte bound', async () => {
  const fast = SERVER_CAP - 96 * 1024 - 1025;
  const received = await lingered({ ms: 500, idleMs: 600_000, minBytesPerSecond: 64 * 1024 }, (raw) => {
    raw.socket.write(Buffer.alloc(fast, 32));
    return trickle(raw);
  });
  assert.ok(received >= fast + 1025, `the fast start reached the server before it let go (${received} of ${fast + 1025} bytes)`);
  assert.ok(received < SERVER_CAP, `the time bound let go of the trickle, not the byte bound (${received} bytes received; the bound is ${SERVER_CAP})`);
});

// Without the idle bound the server would hold the silent connection for the 10-minute time bound.
test('a sender that stops sending is let go after the idle bound, long before the time bound', async () => {
  await lingered({ ms: 600_000, idleMs: 200, minBytesPerSecond: 1 }, () => () => undefined);
});

// A busy machine writes slowly, but a sender making progress is not a slow one: past the time
// bound it goes on (here any progress counts) and finishes its body. (Whether the connection then
// serves another request is the first test's, on the emulator's own server.)
test('a sender still making progress past the time bound finishes its body without a failed write', async () => {
  const server = await lingerServer({ ms: 100, idleMs: 5_000, minBytesPerSecond: 1 });
  try {
    const raw = await rawClient(server.port);
    const size = 2 * MIB;
    raw.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    // Past several time bounds: 64 KiB every 20 ms, about 640 ms in all.
    for (let sent = 0; sent < size && !raw.socket.destroyed; sent += 64 * 1024) {
      raw.socket.write(Buffer.alloc(Math.min(64 * 1024, size - sent), 32));
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(raw, (d) => /^HTTP\/1\.1 413 /.test(d), 'the 413');
    for (let waited = 0; !server.ended() && !raw.socket.destroyed; waited += 10) {
      if (waited > 5000) assert.fail(`the server's request did not end within 5 s (${server.received()} of ${size} bytes received)`);
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(raw.writeError(), undefined, 'no write of the body failed');
    assert.equal(server.ended(), true, `the server read the body to its end (${server.received()} of ${size} bytes received)`);
    assert.equal(server.received(), size, 'the server received the whole body');
    raw.socket.destroy();
  } finally {
    server.close();
  }
});

const k6 = findK6();
test('real k6: every oversized post of 4 VUs reads its 413 while still sending', { skip: k6.found ? false : k6.reason }, async () => {
  if (!k6.found) return;
  const dir = mkdtempSync(join(tmpdir(), 'linger-k6-'));
  try {
    const script = join(dir, 'oversized.js');
    writeFileSync(script, `import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 4, iterations: 20, thresholds: { checks: ['rate==1'] } };
const body = 'x'.repeat(${DEFAULT_MAX_BODY + 2 * MIB});
export default function () {
  const res = http.post(__ENV.URL, body, { headers: { Authorization: 'Bearer ' + __ENV.KEY, 'Content-Type': 'application/json' } });
  if (res.status !== 413) console.error('got ' + res.status + ' ' + res.error);
  check(res, { 'the oversized post reads its 413': (r) => r.status === 413 });
}
`);
    const code = await new Promise<number | null>((done) => {
      const child = spawn(k6.path, ['run', '--quiet', '-e', `URL=${emu.url}/v2/pods`, '-e', `KEY=${key}`, script], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
      child.on('exit', (c) => { if (c !== 0) process.stderr.write(err); done(c); });
    });
    assert.equal(code, 0, `k6 ${k6.version} exited ${code}: some oversized post did not read its 413`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
