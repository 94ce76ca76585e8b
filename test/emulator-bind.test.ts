/**
 * The emulator's port is bound before its code loads (emulator/server.ts, `bindEmulator`), so
 * `cpc conformance` can hand Playwright the URL at once: a request that arrives early is held,
 * body unread, and answered once the emulator serves; one that expects 100-continue gets it
 * then; an emulator that cannot load closes the port and says why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { bindEmulator } from '../emulator/server.js';

/** A loader held until `release()`: the emulator's modules "load" only then. */
function heldLoader() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  return { release, load: () => gate.then(() => import('../emulator/app.js')) };
}

test('a request that arrives before the emulator serves is held and answered once it does', { timeout: 120_000 }, async () => {
  const held = heldLoader();
  const bound = await bindEmulator({ port: 0 }, held.load);
  const arrived = once(bound.server, 'request');
  const answer = request(`${bound.url}/v2/pods`, { method: 'POST', body: '{"name":"early"}', headers: { 'content-type': 'application/json' } });
  await arrived;
  held.release();
  const running = await bound.running;
  try {
    const res = await answer;
    const body = await res.body.json() as { status?: number };
    // No key: the emulator's own answer, so the request reached it whole.
    assert.equal(res.statusCode, 401);
    assert.equal(body.status, 401);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json\b/);
  } finally {
    await running.close();
  }
});

test('an early request that expects 100-continue gets it once the emulator serves', { timeout: 120_000 }, async () => {
  const held = heldLoader();
  const bound = await bindEmulator({ port: 0 }, held.load);
  const running = bound.running;
  try {
    const req = httpRequest(`${bound.url}/v2/pods`, { method: 'POST', headers: { expect: '100-continue', 'content-type': 'application/json', 'content-length': '2' } });
    const continued = once(req, 'continue');
    const response = once(req, 'response');
    req.on('error', () => undefined);
    await once(bound.server, 'checkContinue');
    held.release();
    await continued;
    req.end('{}');
    const [res] = await response as [import('node:http').IncomingMessage];
    res.resume();
    assert.equal(res.statusCode, 401);
  } finally {
    await (await running).close();
  }
});

test('an emulator that cannot load rejects and closes its port', { timeout: 120_000 }, async () => {
  const bound = await bindEmulator({ port: 0 }, () => Promise.reject(new Error('no emulator here')));
  await assert.rejects(bound.running, /no emulator here/);
  if (bound.server.listening) await once(bound.server, 'close');
  await assert.rejects(request(`${bound.url}/v2/pods`), /ECONNREFUSED/);
});
