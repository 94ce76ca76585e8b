// @own-process: starts the proxy script as a process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { request } from 'undici';
import { startEmulator } from '../emulator/server.js';
import { EmulatorControl } from '../lib/client/control.js';

test('the proxy forwards the API, answers the control surface with 404 so the suite sees no emulator, and counts what it forwards', async () => {
  const running = await startEmulator({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'cpc-proxy-'));
  const counts = join(dir, 'counts.json');
  const proxy = spawn(process.execPath, ['--import', 'tsx', 'scripts/hide-control-proxy.ts', '--upstream', running.url, '--counts', counts], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    proxy.stdout.setEncoding('utf8');
    while (!/CPC_BASE_URL=(\S+)/.test(out)) out += String((await once(proxy.stdout, 'data'))[0]);
    const url = /CPC_BASE_URL=(\S+)/.exec(out)![1]!;
    assert.equal(await EmulatorControl.detect(url), undefined, 'the suite detects no control surface behind the proxy');
    assert.ok(await EmulatorControl.detect(running.url), 'while the emulator itself has one');
    const hidden = await request(`${url}/__emulator/worlds`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(hidden.statusCode, 404);
    await hidden.body.text();
    assert.equal(running.emulator.worlds.size, 1, 'no world was created through the proxy');
    const pods = await request(`${url}/v2/pods`, { headers: { authorization: `Bearer ${running.emulator.defaultKey.key}` } });
    assert.equal(pods.statusCode, 200);
    assert.ok(pods.headers.ratelimit, 'the answer keeps its headers');
    await pods.body.text();
    proxy.kill('SIGINT');
    await once(proxy, 'exit');
    const c = JSON.parse(readFileSync(counts, 'utf8')) as { total: number; hidden: number; byRoute: Record<string, number>; byKey: Record<string, number> };
    assert.equal(c.hidden, 2, 'the detection probe and the world creation');
    assert.equal(c.byRoute['GET /v2/pods'], 1);
    assert.ok(!JSON.stringify(c).includes(running.emulator.defaultKey.key), 'keys are counted by fingerprint, never written');
  } finally {
    proxy.kill();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the proxy refuses bad options with exit 2', async () => {
  const proxy = spawn(process.execPath, ['--import', 'tsx', 'scripts/hide-control-proxy.ts', '--upstream', 'ftp://x'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proxy.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const [code] = await once(proxy, 'exit') as [number];
  assert.equal(code, 2);
  assert.match(err, /--upstream must be an http URL/);
});
