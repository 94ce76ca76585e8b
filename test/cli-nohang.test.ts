// @own-process: starts cpc processes and waits for their exits.
// No hang on any error path: each kind of failure is made to happen and `cpc` must exit with
// its code within seconds, leaving no process behind (every descendant inherits a marker
// variable; none may be alive afterwards). The missing-module case runs on an installed
// package, in test/package-install.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ConformanceReport } from '../reports/model.js';
import { CPC_JS, envWith, leftAfter, runTimed, startStandaloneEmulator } from './cli-support.js';
import { tempDir } from './reports-support.js';

const marked = (extra: Record<string, string> = {}) => {
  const marker = `cpc-nohang-${randomUUID()}`;
  return { marker, env: { ...envWith(extra), CPC_NOHANG_TEST_MARK: marker } };
};
const cpcTimed = (args: string[], env: NodeJS.ProcessEnv, limitMs: number, onOutput?: (all: string) => void) => runTimed([process.execPath, CPC_JS, ...args], env, limitMs, onOutput ? { onOutput } : {});

test('cli-nohang: bad configuration exits 2 at once', { timeout: 60_000 }, async () => {
  for (const [args, extra, message] of [
    [['conformance'], { CPC_BASE_URL: 'ftp://example.invalid' }, /CPC_BASE_URL must be an http or https URL/],
    [['conformance'], { CPC_POD_READY_TIMEOUT_MS: 'soon' }, /CPC_POD_READY_TIMEOUT_MS must be an integer/],
    [['preflight'], { CPC_API_KEY: 'x' }, /CPC_API_KEY set without CPC_BASE_URL/],
    [['conformance', '--shard', '3/2'], {}, /--shard is i\/n with 1 <= i <= n/],
  ] as const) {
    const { marker, env } = marked(extra);
    const r = await cpcTimed([...args], env, 20_000);
    assert.equal(r.timedOut, false, `cpc ${args.join(' ')} hung: ${r.out}`);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, message);
    assert.doesNotMatch(r.out, /\n\s+at /, 'no stack trace');
    assert.deepEqual(await leftAfter(marker), [], 'no process left');
  }
});

test('cli-nohang: the emulator that cannot start (port in use) exits 2', { timeout: 60_000 }, async () => {
  const busy = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => busy.once('listening', r));
  try {
    const port = (busy.address() as { port: number }).port;
    const { marker, env } = marked();
    const r = await cpcTimed(['emulator', '--port', String(port)], env, 20_000);
    assert.equal(r.timedOut, false, r.out);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, new RegExp(`port ${port} is in use`));
    assert.deepEqual(await leftAfter(marker), []);
  } finally {
    busy.close();
  }
});

test('cli-nohang: a target that accepts connections and never answers: conformance and preflight exit 2', { timeout: 120_000 }, async () => {
  const sockets = new Set<Socket>();
  const silent = createServer((s) => { sockets.add(s); s.on('error', () => undefined); }).listen(0, '127.0.0.1');
  await new Promise((r) => silent.once('listening', r));
  const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  try {
    // Both at once: each waits out its own probe's time limit.
    await Promise.all(['conformance', 'preflight'].map(async (command) => {
      const { marker, env } = marked({ CPC_BASE_URL: url, CPC_API_KEY: 'cpk_never-answered-0000' });
      const r = await cpcTimed([command], env, 60_000);
      assert.equal(r.timedOut, false, `cpc ${command} hung: ${r.out}`);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, command === 'conformance' ? /cannot reach http:\/\/127\.0\.0\.1:\d+/ : /FAIL REST v2 answers: no answer from/);
      assert.ok(!r.out.includes('cpk_never-answered-0000'), 'the key is not printed');
      assert.deepEqual(await leftAfter(marker), [], 'no process left');
    }));
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});

test('cli-nohang: a target that stops answering during the run: the run ends, writes its report and leaves no process', { timeout: 240_000 }, async () => {
  const emulator = await startStandaloneEmulator();
  const { dir, done } = tempDir('nohang-lost');
  try {
    const vars = Object.fromEntries(['CPC_API_KEY', 'CPC_API_KEY_READONLY', 'CPC_API_KEY_OTHER', 'CPC_ENDPOINT_ID', 'CPC_TEMPLATE_ID'].map((k) => [k, emulator.vars[k]!]));
    const { marker, env } = marked({ ...vars, CPC_BASE_URL: emulator.url, CPC_SEED: '77' });
    let stopped: Promise<void> | undefined;
    const raw = join(dir, 'raw', 'playwright.jsonl');
    const r = await cpcTimed(['conformance', '--project', 'contract', '--quiet-summary', '--skip-load', '--probe-every', '300', '--out', dir, '--artifacts', join(dir, 'artifacts')], env, 180_000, () => {
      // Once a few results are in, the target goes away.
      if (!stopped && existsSync(raw) && readFileSync(raw, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length >= 3) stopped = emulator.stop();
    });
    await stopped;
    assert.ok(stopped, `the run reached its first results: ${r.out.slice(-2000)}`);
    assert.equal(r.timedOut, false, `hung: ${r.out.slice(-2000)}`);
    assert.equal(r.code, 1, r.out.slice(-2000));
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(report.run.complete, false);
    assert.match(report.run.interruption ?? '', /stopped answering/);
    assert.deepEqual(await leftAfter(marker), [], 'no process left');
  } finally {
    await emulator.stop();
    done();
  }
});
