// @own-process: times load scenarios on the Node path.
/**
 * The Node path runs k6 scripts with k6's verdicts: a table of tiny scripts (written to a
 * temporary folder, as a user would write them) and the exit code k6 gives each (go.k6.io/k6
 * errext/exitcodes: 99 thresholds, 104 invalid config, 107 script exception, 108 aborted).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runK6ScriptOnNode, type RunScriptResult } from '../run/k6node/runner.js';

let dir: string;
let server: Server;
let base: string;
let inFlight = 0;
let maxInFlight = 0;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'k6node-test-'));
  server = createServer((req, res) => {
    if (req.url === '/redirect') { res.writeHead(302, { location: '/ok' }); res.end(); return; }
    if (req.url === '/slow') { setTimeout(() => { res.writeHead(200); res.end(); }, 1500); return; }
    if (req.url === '/held') {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      setTimeout(() => { inFlight--; res.writeHead(200); res.end(); }, 60);
      return;
    }
    const status = req.url === '/missing' ? 404 : 200;
    res.writeHead(status, { 'content-type': 'application/json', 'ratelimit-policy': '"minute";q=1;w=60', 'x-seen': String(req.headers['x-probe'] ?? '') });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((r) => server.close(() => r()));
});

async function run(name: string, source: string): Promise<RunScriptResult & { log: string }> {
  const script = join(dir, `${name}.ts`);
  writeFileSync(script, source);
  let log = '';
  const result = await runK6ScriptOnNode({ script, env: { BASE: base }, includeSystemEnv: false, cwd: dir, out: (t) => { log += t; }, err: (t) => { log += t; } });
  return { ...result, log };
}

const BREACH = `
import { check } from 'k6';
import { Counter } from 'k6/metrics';
const hits = new Counter('hits');
export const options = { iterations: 3, thresholds: { hits: ['count>5'], checks: ['rate==1'] } };
export default function () { hits.add(1); check(1, { 'one is one': (v) => v === 1 }); }
export function handleSummary(data: { metrics: Record<string, { thresholds?: Record<string, { ok: boolean }> }> }) {
  return { 'summary.json': JSON.stringify({ hits: data.metrics.hits!.thresholds, checks: data.metrics.checks!.thresholds }) };
}`;

test('a breached threshold fails the run with exit code 99, and handleSummary still runs', async () => {
  const r = await run('breach', BREACH);
  assert.equal(r.exitCode, 99, r.log);
  assert.deepEqual(r.breached, ['hits']);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')), { hits: { 'count>5': { ok: false } }, checks: { 'rate==1': { ok: true } } });
});

test('a run whose thresholds hold exits 0, with HTTP metrics, tags and k6-shaped responses', async () => {
  const r = await run('http', `
import http from 'k6/http';
import { check, group } from 'k6';
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 2 } }, thresholds: { 'http_req_failed{probe:ok}': ['rate==0'], 'http_reqs{probe:ok}': ['count==4'], checks: ['rate==1'] } };
export default function () {
  const [ok, missing] = http.batch([['GET', __ENV.BASE + '/ok', null, { tags: { probe: 'ok' }, headers: { 'X-Probe': 'p' } }], ['GET', __ENV.BASE + '/missing', null, { tags: { probe: 'missing' } }]]);
  group('shape', () => {
    check(ok, {
      'status is 200': (r) => r.status === 200,
      'header names are canonical': (r) => r.headers['Ratelimit-Policy'] === '"minute";q=1;w=60' && r.headers['X-Seen'] === 'p',
      'json() parses the body': (r) => (r.json() as { path: string }).path === '/ok',
    });
    check(missing, { 'a 404 is a response, not an error': (r) => r.status === 404 && r.error === '' });
  });
}`);
  assert.equal(r.exitCode, 0, r.log);
  const metrics = r.summaryData!.metrics as Record<string, { values: Record<string, number> }>;
  assert.equal(metrics.http_reqs!.values.count, 8);
  assert.equal(metrics.http_req_failed!.values.rate, 0.5, 'the 404s count as failed by the default expected statuses');
  assert.equal(metrics.iterations!.values.count, 4);
  const group = (r.summaryData!.root_group as { groups: { name: string; checks: { name: string; passes: number }[] }[] }).groups[0]!;
  assert.equal(group.name, 'shape');
  assert.deepEqual(group.checks.map((c) => c.passes), [4, 4, 4, 4]);
});

test('redirects are followed and a request past its timeout fails with k6\'s timeout error', async () => {
  const r = await run('redirect-timeout', `
import http from 'k6/http';
import { check } from 'k6';
export const options = { thresholds: { checks: ['rate==1'] } };
export default function () {
  const moved = http.get(__ENV.BASE + '/redirect');
  const stuck = http.get(__ENV.BASE + '/slow', { timeout: '200ms' });
  const kept = http.get(__ENV.BASE + '/redirect', { redirects: 0 });
  check(null, {
    'a redirect is followed': () => moved.status === 200 && moved.url.endsWith('/ok'),
    'a timeout is status 0 with error code 1050': () => stuck.status === 0 && stuck.error_code === 1050 && stuck.error === 'request timeout',
    'redirects: 0 keeps the 302': () => kept.status === 302,
  });
}`);
  assert.equal(r.exitCode, 0, r.log);
});

test('a batch runs concurrently, at most batchPerHost requests at once', async () => {
  maxInFlight = 0;
  const r = await run('batch-per-host', `
import http from 'k6/http';
export const options = { batch: 10, batchPerHost: 3 };
export default function () { http.batch(Array.from({ length: 9 }, () => ['GET', __ENV.BASE + '/held'])); }`);
  assert.equal(r.exitCode, 0, r.log);
  assert.equal(maxInFlight, 3);
});

test('abortOnFail stops a 30 s run early, with exit code 99', async () => {
  const r = await run('abort-on-fail', `
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
const ticks = new Counter('ticks');
export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '30s' } }, thresholds: { ticks: [{ threshold: 'count<3', abortOnFail: true }] } };
export default function () { ticks.add(1); sleep(0.05); }`);
  assert.equal(r.exitCode, 99, r.log);
  // The abort's own message, not the run's length: how long 30 s of ticks take depends on the machine.
  assert.match(r.log, /at least one has abortOnFail enabled, stopping test prematurely/);
});

const exits: [string, string, number][] = [
  ['an exception in the init context', `throw new Error('broken init');\nexport default function () {}`, 107],
  ['an exception in setup()', `export function setup() { throw new Error('no target'); }\nexport default function () {}`, 107],
  ['an exception in teardown()', `export default function () {}\nexport function teardown() { throw new Error('cleanup failed'); }`, 107],
  ['a threshold on a metric the script does not define', `export const options = { thresholds: { nope: ['count>0'] } };\nexport default function () {}`, 104],
  ['a malformed threshold', `export const options = { thresholds: { checks: ['rate≈1'] } };\nexport default function () {}`, 104],
  ['exec.test.abort()', `import exec from 'k6/execution';\nexport default function () { exec.test.abort('stop here'); }`, 108],
  ['an exception inside an iteration (logged; the run goes on)', `export const options = { iterations: 2 };\nexport default function () { throw new Error('one bad iteration'); }`, 0],
  ['an HTTP request in the init context', `import http from 'k6/http';\nhttp.get('http://127.0.0.1:9/');\nexport default function () {}`, 107],
];

for (const [what, source, code] of exits) {
  test(`${what} ends the run with exit code ${code}, as on k6`, async () => {
    const r = await run(what.replace(/\W+/g, '-'), source);
    assert.equal(r.exitCode, code, r.log);
  });
}

// Where the Node path cannot do what k6 would, it refuses before running rather than run differently.
const refusals: [string, string, number][] = [
  ['an executor the Node path lacks is refused as invalid config', `export const options = { scenarios: { s: { executor: 'ramping-arrival-rate', stages: [] } } };\nexport default function () {}`, 104],
  ['a module the Node path does not shim is refused as a script error', `import crypto from 'k6/crypto';\nexport default function () { crypto.md5('x', 'hex'); }`, 107],
];

for (const [what, source, code] of refusals) {
  test(`${what} (exit code ${code}), never run differently`, async () => {
    const r = await run(what.replace(/\W+/g, '-'), source);
    assert.equal(r.exitCode, code, r.log);
    assert.match(r.log, /run (it|this script) with k6/);
  });
}

test('a summary file in a missing folder is reported, not created, and leaves the exit code alone (as k6)', async () => {
  const r = await run('missing-folder', `
export default function () {}
export function handleSummary() { return { 'no/such/folder/out.json': '{}', stdout: 'summary printed' }; }`);
  assert.equal(r.exitCode, 0, r.log);
  assert.deepEqual(r.files, []);
  assert.match(r.log, /summary printed/);
  assert.match(r.log, /Could not save some summary information: could not open 'no\/such\/folder\/out.json'/);
});
