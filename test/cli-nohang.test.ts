// @own-process: starts cpc processes and waits for their exits.
// No hang on any error path: each kind of failure is made to happen and `cpc` must exit with
// its code within seconds, leaving no process behind (every descendant inherits a marker
// variable; none may be alive afterwards). The missing-module case runs on an installed
// package, in test/package-install.test.ts; a target that stops answering during a run, in
// test/reports-cli.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CPC_JS, envWith, leftAfter, runTimed } from './cli-support.js';

const marked = (extra: Record<string, string> = {}) => {
  const marker = `cpc-nohang-${randomUUID()}`;
  return { marker, env: { ...envWith(extra), CPC_NOHANG_TEST_MARK: marker } };
};
const cpcTimed = (args: string[], env: NodeJS.ProcessEnv, limitMs: number, onOutput?: (all: string) => void) => runTimed([process.execPath, CPC_JS, ...args], env, limitMs, onOutput ? { onOutput } : {});

// The cases run at once, each under its own marker: each waits on its own processes only.
describe('cli-nohang', { concurrency: true }, () => {
  test('cli-nohang: bad configuration exits 2 at once', { timeout: 60_000 }, async () => {
    await Promise.all(([
      [['conformance'], { CPC_BASE_URL: 'ftp://example.invalid' }, /CPC_BASE_URL must be an http or https URL/],
      [['conformance'], { CPC_POD_READY_TIMEOUT_MS: 'soon' }, /CPC_POD_READY_TIMEOUT_MS must be an integer/],
      [['preflight'], { CPC_API_KEY: 'x' }, /CPC_API_KEY set without CPC_BASE_URL/],
      [['conformance', '--shard', '3/2'], {}, /--shard is i\/n with 1 <= i <= n/],
    ] as const).map(async ([args, extra, message]) => {
      const { marker, env } = marked(extra);
      const r = await cpcTimed([...args], env, 20_000);
      assert.equal(r.timedOut, false, `cpc ${args.join(' ')} hung: ${r.out}`);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, message);
      assert.doesNotMatch(r.out, /\n\s+at /, 'no stack trace');
      assert.deepEqual(await leftAfter(marker), [], `cpc ${args.join(' ')}: no process left`);
    }));
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
    const out = mkdtempSync(join(tmpdir(), 'cpc-nohang-'));
    try {
      // Both at once: each waits out its own probe's time limit.
      await Promise.all(['conformance', 'preflight'].map(async (command) => {
        const { marker, env } = marked({ CPC_BASE_URL: url, CPC_API_KEY: 'cpk_never-answered-0000' });
        // A folder of its own: a run empties its output's raw/ as it starts, and npm test runs the project's own run beside.
        const r = await cpcTimed(command === 'conformance' ? [command, '--out', join(out, 'reports'), '--artifacts', join(out, 'artifacts')] : [command], env, 60_000);
        assert.equal(r.timedOut, false, `cpc ${command} hung: ${r.out}`);
        assert.equal(r.code, 2, r.out);
        assert.match(r.out, command === 'conformance' ? /cannot reach http:\/\/127\.0\.0\.1:\d+/ : /FAIL REST v2 answers: no answer from/);
        // Preflight plans no run for a target that answered nothing (and lists no test to plan it).
        if (command === 'preflight') assert.doesNotMatch(r.out, /Rules: \d+ will run/, 'no plan for a target that answered nothing');
        assert.ok(!r.out.includes('cpk_never-answered-0000'), 'the key is not printed');
        assert.deepEqual(await leftAfter(marker), [], 'no process left');
      }));
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
