import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openLoop } from '../bench/open-loop.js';
import { alternate, ratiosOf } from '../bench/support.js';

describe('bench: alternate rounds', () => {
  it('runs bare then emulator each round and reports per-round ratios with their median', async () => {
    const calls: string[] = [];
    const bare = [100, 200, 100];
    const emu = [40, 60, 70];
    let i = 0;
    let j = 0;
    const r = await alternate(3, async () => { calls.push('bare'); return bare[i++]!; }, async () => { calls.push('emulator'); return emu[j++]!; });
    assert.deepEqual(calls, ['bare', 'emulator', 'bare', 'emulator', 'bare', 'emulator']);
    assert.deepEqual(r.ratios, [0.4, 0.3, 0.7]);
    assert.equal(r.median, 0.4);
  });

  it('runs the third server after the emulator each round, and ratiosOf compares any two series', async () => {
    const calls: string[] = [];
    const r = await alternate(2, async () => { calls.push('bare'); return 100; }, async () => { calls.push('emulator'); return 30; }, async () => { calls.push('io'); return 60; });
    assert.deepEqual(calls, ['bare', 'emulator', 'io', 'bare', 'emulator', 'io']);
    assert.deepEqual(r.also, [60, 60]);
    assert.deepEqual(ratiosOf(r.emulator, r.also), { ratios: [0.5, 0.5], median: 0.5 });
  });

  it('takes the mean of the middle two ratios for an even number of rounds', async () => {
    const ratios = [0.2, 0.6, 0.4, 0.8];
    let k = 0;
    const r = await alternate(4, async () => 10, async () => 10 * ratios[k++]!);
    assert.ok(Math.abs(r.median - 0.5) < 1e-9, `median ${r.median}`);
  });
});

describe('bench: open-loop generator', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => { res.writeHead(req.url === '/fail' ? 500 : 201, { 'content-length': 2 }); res.end('{}'); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('sends rate x seconds requests and measures each from its due time', async () => {
    const r = await openLoop({ url, path: '/ok', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', rate: 400, seconds: 0.5, connections: 4 });
    assert.equal(r.sent, 200);
    assert.equal(r.ok, 200);
    assert.equal(r.other, 0);
    // Only that a latency was measured: the percentiles' order and their bound by the max hold by
    // construction (the histogram's percentiles are monotonic and clamped to the largest value).
    assert.ok(r.p50 > 0, `a latency was measured: ${JSON.stringify(r)}`);
  });

  it('counts answers outside 2xx as other', async () => {
    const r = await openLoop({ url, path: '/fail', method: 'GET', headers: {}, rate: 200, seconds: 0.25, connections: 2 });
    assert.equal(r.sent, 50);
    assert.equal(r.ok, 0);
    assert.equal(r.other, 50);
  });
});
