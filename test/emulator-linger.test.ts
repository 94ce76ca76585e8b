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

/**
 * A server whose reads have the given linger bounds, and a raw client that declares a 10 MiB body,
 * sends just past the 1 KiB limit, then does what `after` does until the server lets go. Returns
 * the client once closed. The 30 s timer is a hang guard, never a duration the test holds.
 */
async function lingered(bounds: { ms: number; idleMs: number; minBytesPerSecond: number }, after: (raw: Awaited<ReturnType<typeof rawClient>>) => () => void) {
  const limit = 1024;
  const server: Server = createServer((req, res) => {
    readBody(req, limit, { bodyRead: (r) => { res.writeHead(r.kind === 'too-large' ? 413 : 200, { 'content-length': 2 }).end('{}'); } }, { ...bounds, limitFactor: 1000, slackBytes: MIB });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const raw = await rawClient((server.address() as AddressInfo).port);
    raw.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * MIB}\r\n\r\n`);
    raw.socket.write(Buffer.alloc(limit + 1, 32));
    const stop = after(raw);
    const timeout = setTimeout(() => raw.socket.destroy(new Error(HANG_GUARD)), 30_000);
    await raw.closed;
    stop();
    clearTimeout(timeout);
    assert.notEqual(raw.writeError(), HANG_GUARD);
    assert.match(raw.data(), /^HTTP\/1\.1 413 /);
    return raw;
  } finally {
    server.close();
  }
}

test('a slow sender is cut off after the time bound (readBody with a short bound)', async () => {
  let trickled = 0;
  // 10 KB/s, below the bound's 1 MiB/s: the time bound ends it.
  await lingered({ ms: 200, idleMs: 200, minBytesPerSecond: MIB }, (raw) => {
    const trickle = setInterval(() => { if (!raw.socket.destroyed) { raw.socket.write(Buffer.alloc(100, 32)); trickled += 100; } }, 10);
    return () => clearInterval(trickle);
  });
  assert.ok(trickled < 10 * MIB, 'cut off while still sending');
});

// Without the idle bound the server would hold the silent connection for the 10-minute time bound.
test('a sender that stops sending is let go after the idle bound, long before the time bound', async () => {
  await lingered({ ms: 600_000, idleMs: 200, minBytesPerSecond: 1 }, () => () => undefined);
});

// A busy machine writes slowly, but a sender making progress is not a slow one: past the time
// bound it goes on (here any progress counts) and finishes its body. (Whether the connection then
// serves another request is the first test's, on the emulator's own server.)
test('a sender still making progress past the time bound finishes its body without a failed write', async () => {
  const limit = 1024;
  const server: Server = createServer((req, res) => {
    // Answered on the next turn, as the emulator's outbox does: an answer finished before the
    // request's body flows makes Node dump the request (its data listeners removed).
    readBody(req, limit, { bodyRead: (r) => { setImmediate(() => res.writeHead(r.kind === 'too-large' ? 413 : 200, { 'content-length': 2 }).end('{}')); } }, { ms: 100, idleMs: 5_000, minBytesPerSecond: 1, limitFactor: 1000, slackBytes: MIB });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const raw = await rawClient((server.address() as AddressInfo).port);
    const size = 2 * MIB;
    raw.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    // Past several time bounds: 64 KiB every 20 ms, about 640 ms in all.
    for (let sent = 0; sent < size && !raw.socket.destroyed; sent += 64 * 1024) {
      raw.socket.write(Buffer.alloc(Math.min(64 * 1024, size - sent), 32));
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(raw, (d) => /^HTTP\/1\.1 413 /.test(d), 'the 413');
    assert.equal(raw.writeError(), undefined, 'no write of the body failed');
    assert.ok(raw.written() >= size, `the whole body was written (${raw.written()} of ${size} bytes and the head)`);
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
