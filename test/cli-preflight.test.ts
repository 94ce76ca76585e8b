// @own-process: starts cpc processes against a standalone emulator.
// `cpc preflight` against the standalone emulator, as a user would point it at a deployment:
// directly (control surface there) and behind a proxy that hides /__emulator. It checks the
// surfaces and keys without creating anything, prints the plan and exits 0 when ready, 2 when
// a key is refused or misplaced (naming its variable, never printing the key). `cpc
// conformance` runs it first and stops with 2 instead of failing rules.
// Through the CLI: the ready target and the conformance runs it stops (a refused key, a budget);
// the other preflights run the command's own function in this process, the suite listed once
// (preflightHere, test/cli-support.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cpc, preflightHere, standaloneWithProxy, targetEnvOf, type Standalone } from './cli-support.js';
import { tempDir } from './reports-support.js';

const target = standaloneWithProxy();
const targetEnv = (base: Standalone, extra: Record<string, string> = {}): Record<string, string> => targetEnvOf(target.emulator, base, extra);
const podCount = async (): Promise<number> => {
  const res = await fetch(`${target.emulator.url}/v2/pods`, { headers: { authorization: `Bearer ${target.emulator.vars.CPC_API_KEY}` } });
  const body = await res.json() as unknown;
  return (Array.isArray(body) ? body : Object.values(body as Record<string, unknown[]>).find(Array.isArray) ?? []).length;
};

test('cli-preflight: against the emulator with its control surface: every check passes, no rule skipped; exit 0', { timeout: 120_000 }, async () => {
  const pods = await podCount();
  const r = cpc(['preflight'], targetEnv(target.emulator));
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const surface of ['REST v2', 'serverless', 'REST v1', 'GraphQL']) assert.match(r.stdout, new RegExp(`ok   ${surface} answers`), surface);
  assert.match(r.stdout, /ok {3}CPC_API_KEY_READONLY is refused writes: createPod with an empty body answered 403/);
  assert.match(r.stdout, /ok {3}CPC_API_KEY_OTHER is another account/);
  assert.match(r.stdout, /ok {3}emulator control surface/);
  assert.match(r.stdout, /Rules: \d+ will run, 0 will be skipped/);
  assert.match(r.stdout, /GPU pods: \d+ (\(up to \d+ [^)]*\) )?of GPU type \S.*, image busybox:latest/);
  assert.match(r.stdout, /CPU pods: \d+ (\(up to \d+ [^)]*\) )?of CPU flavor \S+/);
  assert.match(r.stdout, /requests: about \d+/);
  assert.match(r.stdout, /\nReady\.\n$/);
  assert.equal(await podCount(), pods, 'preflight created no pod');
});

test('cli-preflight: behind the proxy (no control surface): the rules that need it are skipped with the reason; exit 0', { timeout: 120_000 }, async () => {
  const r = await preflightHere([], targetEnv(target.proxy));
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /warn emulator control surface: absent/);
  assert.match(r.stdout, /Rules: \d+ will run, [1-9]\d* will be skipped/);
  assert.match(r.stdout, /skipped, needs the emulator's control surface \(\/__emulator\)[^:\n]*: \d+ rule\(s\)/);
  assert.match(r.stdout, /catalog: listGpuTypes: 200, [1-9]\d* entr/);
  assert.match(r.stdout, /\nReady\.\n$/);
  assert.doesNotMatch(r.stdout, /long waits run beside the suite/, 'no lane without the opt-in');
  // With the long-wait opt-in, the retention test runs beside the suite in a worker of its own (lib/lanes.ts); it borrows no pool, so the plan is the same.
  const lane = await preflightHere([], targetEnv(target.proxy, { CPC_ALLOW_LONG_WAITS: '1' }));
  assert.equal(lane.code, 0, lane.stdout);
  assert.match(lane.stdout, /The long waits run beside the suite in a worker of their own: 1 test\(s\) that wait in real time start first, in one Playwright worker beside the suite's 1 \(2 in all\)/);
  const creations = (out: string) => out.split('\n').filter((l) => /^ {2}(GPU pods|CPU pods|network volumes):/.test(l));
  assert.deepEqual(creations(lane.stdout), creations(r.stdout));
});

const WRONG_KEY = 'cpk_preflight-wrong-key-000000';
/** No key of the target, nor the wrong one, in `output`. */
const assertNoKey = (output: string): void => {
  for (const key of [WRONG_KEY, target.emulator.vars.CPC_API_KEY!, target.emulator.vars.CPC_API_KEY_READONLY!, target.emulator.vars.CPC_API_KEY_OTHER!]) {
    assert.ok(!output.includes(key), 'no key in the output');
  }
};

test('cli-preflight: a wrong key exits 2 naming its variable, never printing a key', { timeout: 120_000 }, async () => {
  const r = await preflightHere([], targetEnv(target.proxy, { CPC_API_KEY: WRONG_KEY }));
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stdout, /FAIL CPC_API_KEY authenticates on REST v2: listPods answered 401/);
  assert.match(r.stdout, /Not ready: CPC_API_KEY\b/);
  assertNoKey(r.stdout);
});

test('cli-preflight: keys in the wrong places (a read-only key that writes, the same account twice) exit 2 naming them', { timeout: 120_000 }, async () => {
  const main = target.emulator.vars.CPC_API_KEY!;
  const r = await preflightHere([], targetEnv(target.proxy, { CPC_API_KEY_READONLY: main, CPC_API_KEY_OTHER: main }));
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stdout, /FAIL CPC_API_KEY_READONLY is not the main key: it is the same key as CPC_API_KEY/);
  assert.match(r.stdout, /FAIL CPC_API_KEY_OTHER is another account: myself names the same account for both keys/);
  assert.match(r.stdout, /Not ready: CPC_API_KEY_READONLY, CPC_API_KEY_OTHER\n/);
  assert.ok(!r.stdout.includes(main), 'no key in the output');
});

test('cli-preflight: cpc conformance runs it first and stops with exit 2 before any test, naming the refused key\'s variable, never printing a key', { timeout: 120_000 }, () => {
  const { dir, done } = tempDir('preflight-run');
  try {
    const r = cpc(['conformance', '--out', dir], targetEnv(target.proxy, { CPC_API_KEY: WRONG_KEY }));
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /FAIL CPC_API_KEY authenticates on REST v2: listPods answered 401/);
    assert.match(r.stderr, /configuration error: preflight: the target is not ready \(CPC_API_KEY\); nothing was run/);
    assertNoKey(r.stdout + r.stderr);
    assert.ok(!existsSync(join(dir, 'conformance.json')), 'no report: nothing ran');
    assert.doesNotMatch(r.stdout, /Running \d+ tests/);
  } finally {
    done();
  }
});

test('cli-preflight: the plan comes from the tests\' declarations, --json writes it for machines, and a plan over a budget exits 2 naming it', { timeout: 180_000 }, async () => {
  const json = await preflightHere(['--json'], targetEnv(target.proxy));
  assert.equal(json.code, 0, json.stdout);
  const plan = JSON.parse(json.stdout) as { ready: boolean; creates: { counts: { gpuPods: number; cpuPods: number }; pools: string[]; requests: number; estimatedCostUsd?: number }; breaches: string[] };
  assert.equal(plan.ready, true);
  assert.ok(plan.creates.counts.gpuPods >= 1, 'the plan makes GPU pods');
  assert.ok(plan.creates.pools.length > 0, 'a deployment borrows pooled resources');
  assert.ok(plan.creates.requests > 0, 'a request estimate');
  assert.equal(typeof plan.creates.estimatedCostUsd, 'number', 'the emulator catalog lists prices');
  assert.deepEqual(plan.breaches, []);
  for (const key of [target.emulator.vars.CPC_API_KEY!, target.emulator.vars.CPC_API_KEY_READONLY!]) assert.ok(!json.stdout.includes(key), 'no key in the JSON');

  const over = await preflightHere(['--max-gpu-pods', '1'], targetEnv(target.proxy));
  assert.equal(over.code, 2, over.stdout);
  assert.match(over.stdout, /Over budget: --max-gpu-pods 1: the plan creates \d+ GPU pods/);

  const { dir, done } = tempDir('preflight-budget');
  try {
    const pods = cpc(['conformance', '--out', dir, '--max-gpu-pods', '1'], targetEnv(target.proxy));
    assert.equal(pods.code, 2, pods.stdout + pods.stderr);
    assert.match(pods.stderr, /configuration error: the plan is over budget: --max-gpu-pods 1: the plan creates \d+ GPU pods; nothing was run/);
    assert.ok(!existsSync(join(dir, 'conformance.json')), 'no report: nothing ran');
    const bad = cpc(['conformance', '--out', dir, '--max-cost', 'cheap'], targetEnv(target.proxy));
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /--max-cost must be a number of USD of 0 or more, got "cheap"/);
  } finally {
    done();
  }
});
