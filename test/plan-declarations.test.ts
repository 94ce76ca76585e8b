// @own-process: lists the contract tests with Playwright (no target, nothing run).
// The plan of a deployment run, from the suite's own declarations, in each configuration of
// keys and opt-ins: its GPU pods at the worst case (what a conforming target may accept besides)
// are the ones it plans, and stay within the affordable run's 4 (the budget is judged at the
// worst case, lib/plan.ts budgetBreaches).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { DEFAULT_PROFILE } from '../lib/profile.js';
import { budgetBreaches, needMet, planCounts, zeroCounts } from '../lib/plan.js';
import { listedTests } from '../run/preflight/rules.js';
import { forecastHas, provisionCreates, provisionFor, type Found } from '../run/provision/forecast.js';

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const listing = spawnSync(process.execPath, [cli, 'test', '--list', '--reporter=json', '--project', 'contract'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const tests = listedTests(JSON.parse(listing.stdout || '{}'));

const base = { kind: 'remote', control: false, baseUrl: 'http://x', serverlessUrl: 'http://x', restV1Url: 'http://x', apiKey: 'k' } as const;
const oneKey: Found = { control: false, readonlyKey: false, otherKey: false, endpointId: false, templateId: false, modelEndpointId: false };
const configurations = {
  'one key': { found: oneKey, target: base, image: false },
  'one key and the worker image': { found: oneKey, target: base, image: true },
  'every key and opt-in': { found: { ...oneKey, readonlyKey: true, otherKey: true, modelEndpointId: true }, target: { ...base, apiKeyExpired: 'e' }, image: false, allow: true },
  'every key, opt-in and the worker image': { found: { ...oneKey, readonlyKey: true, otherKey: true, modelEndpointId: true }, target: { ...base, apiKeyExpired: 'e' }, image: true, allow: true },
};

test('plan: the contract tests are listed with their declarations', () => {
  assert.equal(listing.status, 0, listing.stderr);
  assert.ok(tests.length > 100 && tests.some((t) => t.creates.pools?.includes('gpuPersistentPod')), `${tests.length} tests listed`);
});

for (const [name, c] of Object.entries(configurations)) {
  test(`plan (${name}): on a deployment no GPU pod is a maybe, and the worst case passes no budget of the affordable run`, () => {
    const run = {
      profile: { ...DEFAULT_PROFILE, ...(c.image ? { workerImage: 'cpc-conformance-worker:latest' } : {}) }, target: c.target,
      ...('allow' in c ? { allowRateLimitExhaustion: true, allowLongWaits: true } : {}),
    };
    const has = forecastHas(c.found, run);
    const running = tests.filter((t) => needMet(t.creates.needs, has));
    const maybeGpu = running.filter((t) => (t.creates.maybe?.gpuPods ?? 0) > 0).map((t) => `${t.file} › ${t.title}`);
    assert.deepEqual(maybeGpu, [], 'a GPU pod a test may create is one the plan counts');
    const plan = planCounts([...running.map((t) => t.creates), provisionCreates(provisionFor(running, c.found, run))], { pooled: true, workers: 1 });
    assert.equal(plan.upTo.gpuPods, plan.counts.gpuPods);
    assert.deepEqual(budgetBreaches({ ...plan, requests: 0 }, { pods: 12, gpuPods: 4 }), [], JSON.stringify(plan.upTo));
  });
}

test('budgets: a pod the target may accept besides counts against the budget (the worst case)', () => {
  const counts = { ...zeroCounts(), gpuPods: 4, cpuPods: 7 };
  assert.deepEqual(budgetBreaches({ counts, upTo: { ...counts, gpuPods: 5 }, requests: 0 }, { gpuPods: 4, pods: 12 }), ['--max-gpu-pods 4: the plan creates up to 5 GPU pods']);
  assert.deepEqual(budgetBreaches({ counts, upTo: { ...counts, cpuPods: 9 }, requests: 0 }, { pods: 12 }), ['--max-pods 12: the plan creates up to 13 pods']);
  assert.deepEqual(budgetBreaches({ counts, upTo: counts, requests: 0 }, { gpuPods: 4, pods: 12 }), []);
});
