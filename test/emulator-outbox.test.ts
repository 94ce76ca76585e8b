import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { ServerResponse } from 'node:http';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { endThisTurn } from '../emulator/http/outbox.js';

let emu: RunningEmulator;
const KEY = 'cpk_outbox_test';
before(async () => { emu = await startEmulator({ port: 0, defaultKey: KEY }); });
after(() => emu.close());

test('pipelined requests on one connection are answered in the order they were sent', async () => {
  const req = (method: string, path: string, auth: boolean): string =>
    `${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth ? `Authorization: Bearer ${KEY}\r\n` : ''}\r\n`;
  const sent = [req('GET', '/v2/pods', true), req('GET', '/v2/pods', false), req('GET', '/v2/no/such/route', true), req('GET', '/v2/catalog/gpus', true), req('DELETE', '/v2/pods', true)];
  const raw = await new Promise<string>((resolve, reject) => {
    let data = '';
    const socket = net.connect(emu.port, '127.0.0.1', () => socket.write(sent.join('')));
    socket.on('data', (d) => {
      data += d.toString();
      if ((data.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === sent.length) socket.end();
    });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    // Missing answers fail the test instead of hanging it.
    socket.setTimeout(30_000, () => socket.destroy(new Error(`not every answer came within 30 s (got ${JSON.stringify(data.slice(0, 300))})`)));
  });
  // Each answer follows the previous body directly (no line break after JSON).
  const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  assert.deepEqual(statuses, [200, 401, 404, 200, 405]);
});

test('concurrent requests on many connections each get their own answer', async () => {
  // 40 requests: within the default world's quota of 60 a minute, with the first test's.
  const names = Array.from({ length: 40 }, (_, i) => `outbox-${i}`);
  const answers = await Promise.all(names.map(async (name) => {
    const res = await request(`${emu.url}/v2/pods`, {
      method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, image: 'busybox:latest', gpu: { id: 'NVIDIA GeForce RTX 4090' } }),
    });
    return { status: res.statusCode, body: (await res.body.json()) as { name: string } };
  }));
  assert.deepEqual(answers.map((a) => a.status), names.map(() => 201));
  assert.deepEqual(answers.map((a) => a.body.name), names);
});

test('an answer that fails to leave is dropped alone: the rest of the batch still goes', async () => {
  const ended: string[] = [];
  const destroyed: string[] = [];
  const fake = (name: string, fails: boolean): ServerResponse => ({
    end: (payload: string) => { if (fails) throw new Error('socket gone'); ended.push(`${name}:${payload}`); },
    destroy: () => { destroyed.push(name); },
  }) as unknown as ServerResponse;
  endThisTurn(fake('a', false), '1');
  endThisTurn(fake('b', true), '2');
  endThisTurn(fake('c', false), '3');
  assert.deepEqual(ended, [], 'nothing leaves before the end of the turn');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ended, ['a:1', 'c:3']);
  assert.deepEqual(destroyed, ['b']);
});
