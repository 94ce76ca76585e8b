// Worker time (lib/worker-time.ts): the serverless price of an endpoint's pool, the plan's bound
// from the tests' declared jobs, unpriced (never zero) without a price, the cost budget that
// includes it, the observed bound from the provisioned endpoints' lifetimes, and the report's
// cost section in its formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addWorkerTime, boundMs, FAILING_ATTEMPTS, jobWork, observedWorkerTime, planWorkerTime, QUICK_WORK, serverlessPrices, tierPrice, WORKER_ALLOWANCE, workOf } from '../lib/worker-time.js';
import { budgetBreaches, zeroCounts, type Creates, type PriceTable } from '../lib/plan.js';
import { pricesOf, estimateCost } from '../run/preflight/catalog.js';
import { plannedWorkerTime } from '../run/provision/worker-time.js';
import { addCostFiles, mergeCost } from '../reports/cost.js';
import { validateReport } from '../reports/validate.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { htmlRenderer } from '../reports/render/html.js';
import { junitRenderer } from '../reports/render/junit.js';
import { costReport } from '../reports/test/cost-fixture.js';
import { loadProfile } from '../lib/profile.js';
import { Registry } from '../lib/cleanup.js';
import type { RunConfig } from '../lib/protocol.js';
import { usageOf } from '../run/global-setup.js';
import { PROVISIONING } from '../run/provision/worker.js';
import { tempDir } from './reports-support.js';
import { join } from 'node:path';

const GPUS = [
  { id: 'A', pool: 'AMPERE_16', price: { secure: 0.2, community: 0.1, serverless: 0.5 } },
  { id: 'B', pool: 'AMPERE_16', price: { secure: 0.3, community: 0.2, serverless: 0.7 } },
  { id: 'C', pool: 'ADA_24', price: { secure: 0.7, community: 0.3 } },
  { id: 'D', pool: null, price: { secure: 2, community: 2 } },
  { id: 'E', pool: 'AMPERE_24', price: { secure: 1, community: 1, serverless: 'free' } },
];
const PRICES: PriceTable = { gpu: {}, cpu: {}, serverless: serverlessPrices(GPUS) };
const PER_ATTEMPT = WORKER_ALLOWANCE.startMs + WORKER_ALLOWANCE.idleMs;

test('worker time: a pool is priced at its dearest serverless price; a type without pool or serverless price adds nothing', () => {
  assert.deepEqual(serverlessPrices(GPUS), { AMPERE_16: 0.7 });
  assert.equal(tierPrice('AMPERE_16', PRICES), 0.7);
  assert.equal(tierPrice('ADA_24', PRICES), undefined, 'a pool whose types show no serverless price is unpriced');
  assert.equal(tierPrice('AMPERE_16,ADA_24', PRICES), undefined, 'a worker may land on the unpriced tier of a list');
  assert.equal(tierPrice('AMPERE_16, AMPERE_16', PRICES), 0.7);
  assert.equal(tierPrice('AMPERE_16', undefined), undefined);
  const table = pricesOf({ gpus: GPUS as never[], cpus: [], dataCenters: [] });
  assert.deepEqual(table.serverless, { AMPERE_16: 0.7 });
});

test('worker time: jobWork counts attempts and handler time, a failing job once per assumed attempt', () => {
  assert.deepEqual(jobWork(240_000, 1_000), { jobs: 2, ms: 241_000 });
  assert.deepEqual(jobWork({ ms: 10_000, failing: true }), { jobs: FAILING_ATTEMPTS, ms: 10_000 * FAILING_ATTEMPTS });
  assert.deepEqual(jobWork({ ms: 20_000, runs: 2, failing: true }, { ms: 1_000, runs: 3 }), { jobs: 2 * FAILING_ATTEMPTS + 3, ms: 40_000 * FAILING_ATTEMPTS + 3_000 });
  assert.deepEqual(jobWork(), { jobs: 0, ms: 0 });
  assert.equal(workOf({ needs: ['workerEndpoint'] }), QUICK_WORK, 'a job test without a declaration sends quick jobs');
  assert.deepEqual(workOf({ needs: 'holdEndpoint', work: jobWork(5) }), { jobs: 1, ms: 5 });
  assert.equal(workOf({ needs: ['template'] }), undefined, 'a test that sends no job adds no worker time');
});

test('worker time: the plan bounds the work plus each attempt\'s start and idle, priced or unpriced, never zero', () => {
  const tests: Creates[] = [{ needs: ['holdEndpoint'], work: jobWork(240_000, 1_000) }, { needs: ['workerEndpoint'] }, { gpuPods: 1 }];
  const plan = planWorkerTime(tests, 'AMPERE_16', PRICES)!;
  const work = 241_000 + QUICK_WORK.ms;
  const jobs = 2 + QUICK_WORK.jobs;
  assert.deepEqual({ jobs: plan.jobs, workMs: plan.workMs, boundMs: plan.boundMs }, { jobs, workMs: work, boundMs: work + jobs * PER_ATTEMPT });
  assert.equal(plan.boundMs, boundMs({ jobs, ms: work }));
  assert.equal(plan.usdPerHour, 0.7);
  assert.ok(Math.abs(plan.estimatedCostUsd! - 0.7 * plan.boundMs / 3_600_000) < 1e-12);
  const unpriced = planWorkerTime(tests, 'ADA_24', PRICES)!;
  assert.equal(unpriced.estimatedCostUsd, undefined);
  assert.equal(unpriced.usdPerHour, undefined);
  assert.equal(unpriced.boundMs, plan.boundMs, 'the bound stands without a price');
  assert.equal(planWorkerTime(tests, undefined, PRICES)!.estimatedCostUsd, undefined, 'an endpoint of unknown tier is unpriced');
  const podsOnly: Creates[] = [{ gpuPods: 1 }];
  assert.equal(planWorkerTime(podsOnly, 'AMPERE_16', PRICES), undefined, 'no job test: no worker time');
  assert.equal(addWorkerTime(plan, unpriced)!.estimatedCostUsd, undefined, 'a sum with an unpriced part is unpriced');
  assert.equal(addWorkerTime(plan, plan)!.estimatedCostUsd, 2 * plan.estimatedCostUsd!);
  assert.equal(addWorkerTime(plan, undefined), plan);
});

test('worker time: on a deployment the hold tests run on the provisioned tier, the others on the job endpoint\'s; an emulator plans none', () => {
  const running = [{ needs: ['holdEndpoint' as const], work: jobWork(240_000) }, { needs: ['workerEndpoint' as const], work: jobWork(1_000) }];
  const provisioned = plannedWorkerTime(running, { control: false }, { endpoint: true, hold: true, template: true }, PRICES)!;
  assert.equal(provisioned.tier, 'AMPERE_16');
  assert.equal(provisioned.boundMs, 241_000 + 2 * PER_ATTEMPT);
  assert.ok(provisioned.estimatedCostUsd! > 0);
  const given = plannedWorkerTime(running, { control: false }, { endpoint: false, hold: true, template: false }, PRICES)!;
  assert.equal(given.tier, undefined);
  assert.equal(given.estimatedCostUsd, undefined, 'CPC_ENDPOINT_ID of an unknown tier: unpriced');
  const listed = plannedWorkerTime(running, { control: false, endpointTier: 'AMPERE_16' }, { endpoint: false, hold: true, template: false }, PRICES)!;
  assert.equal(listed.estimatedCostUsd, provisioned.estimatedCostUsd, 'CPC_ENDPOINT_ID of a listed tier is priced by it');
  assert.equal(plannedWorkerTime(running, { control: true }, { endpoint: false, hold: false, template: false }, PRICES), undefined);
});

test('worker time: the cost estimate and the cost budget include the bound; unpriced worker time leaves the cost unknown', () => {
  const profile = loadProfile({});
  const workerTime = planWorkerTime([{ needs: ['workerEndpoint'], work: jobWork(600_000) }], 'AMPERE_16', PRICES)!;
  const base = { counts: zeroCounts(), upTo: zeroCounts(), pools: [], requests: 10, image: 'x', prices: PRICES };
  assert.equal(estimateCost(base, profile), 0);
  const cost = estimateCost({ ...base, workerTime }, profile)!;
  assert.ok(Math.abs(cost - workerTime.estimatedCostUsd!) < 1e-12);
  assert.deepEqual(budgetBreaches({ ...base, estimatedCostUsd: cost, workerTime }, { costUsd: 1 }), []);
  assert.match(budgetBreaches({ ...base, estimatedCostUsd: cost, workerTime }, { costUsd: 0.01 })[0]!, /--max-cost 0\.01: the plan's pods and worker time are estimated at USD 0\.\d\d/);
  const unpriced = planWorkerTime([{ needs: ['workerEndpoint'] }], 'ADA_24', PRICES)!;
  assert.equal(estimateCost({ ...base, workerTime: unpriced }, profile), undefined);
  assert.match(budgetBreaches({ ...base, workerTime: unpriced }, { costUsd: 100 })[0]!, /--max-cost 100: the cost is unknown \(the catalog gives no price for the workers of the run's endpoints\)/);
  assert.deepEqual(budgetBreaches(base, { costUsd: 0 }), [], 'nothing to price: no breach');
});

test('worker time: the provisioned endpoints\' lifetimes bound what their workers ran, priced by their tier', () => {
  const at = 1_000_000;
  const o = observedWorkerTime([{ gpuIds: 'AMPERE_16', workersMax: 3, at, deletedAt: at + 10 * 60_000 }, { gpuIds: 'AMPERE_16', workersMax: 1, at, deletedAt: at + 4 * 60_000 }], PRICES, at + 60 * 60_000)!;
  assert.deepEqual({ endpoints: o.endpoints, endpointMinutes: o.endpointMinutes, workerMinutesAtMost: o.workerMinutesAtMost }, { endpoints: 2, endpointMinutes: 14, workerMinutesAtMost: 34 });
  assert.ok(Math.abs(o.estimatedCostUsd! - 0.7 * 34 / 60) < 1e-12);
  const open = observedWorkerTime([{ gpuIds: 'ADA_24', workersMax: 1, at }], PRICES, at + 60_000)!;
  assert.equal(open.workerMinutesAtMost, 1, 'an endpoint not deleted counts until now');
  assert.equal(open.estimatedCostUsd, undefined, 'unpriced tier: no cost, not zero');
  assert.equal(observedWorkerTime([], PRICES, at), undefined);
});

test('worker time: the report reads both bounds from the run\'s files, sums shards, validates and renders them in every format', () => {
  const planned = planWorkerTime([{ needs: ['holdEndpoint'], work: jobWork(240_000, 1_000) }], 'AMPERE_16', PRICES)!;
  const observed = { endpoints: 2, endpointMinutes: 14, workerMinutesAtMost: 34, estimatedCostUsd: 0.4 };
  const base = costReport();
  const cost = addCostFiles(base.cost, {
    plan: { counts: zeroCounts(), pools: [], requests: 5, workerTime: planned },
    usage: { created: zeroCounts(), byShape: {}, podMinutes: { gpu: {}, cpu: {} }, unpriced: 0, requests: 9, workerTime: observed },
  })!;
  assert.deepEqual(cost.workerTime, { planned, observed });
  const report = { ...base, cost };
  assert.deepEqual(validateReport(report), { valid: true });
  const md = markdownRenderer.render(report);
  assert.match(md, /≤ \d+\.\d worker-minutes planned \\\(≈ \\\$0\.\d\d at most\\\) · ≤ 34\.0 worker-minutes observed \\\(≈ \\\$0\.40 at most\\\)/);
  assert.match(md, /\*\*Worker time, planned:\*\* at most \d+\.\d worker-minutes on AMPERE\\_16 for 2 job attempt\\\(s\\\): 4\.0 minutes of handler time/);
  assert.match(md, /\*\*Worker time, observed:\*\* the 2 provisioned endpoint\\\(s\\\) lived 14\.0 minutes: their workers ran at most 34\.0 worker-minutes/);
  assert.match(htmlRenderer.render(report), /<dt>Worker time, planned<\/dt><dd>at most/);
  const xml = junitRenderer.render(report);
  assert.match(xml, /name="cost\.workerTime\.planned\.tier" value="AMPERE_16"/);
  assert.match(xml, /name="cost\.workerTime\.observed\.usd" value="0\.40"/);

  const unpriced = { ...planned, usdPerHour: undefined, estimatedCostUsd: undefined };
  delete unpriced.usdPerHour;
  delete unpriced.estimatedCostUsd;
  const bare = { ...base, cost: { ...cost, workerTime: { planned: unpriced } } };
  assert.deepEqual(validateReport(bare), { valid: true });
  const text = markdownRenderer.render(bare);
  assert.match(text, /worker-minutes planned \\\(unpriced\\\)/);
  assert.match(text, /unpriced: the catalog gives no serverless price for the AMPERE\\_16 pool/);
  assert.doesNotMatch(text.slice(text.indexOf('Worker time')), /\\\$0\.00/, 'never a zero for a missing price');
  assert.equal(junitRenderer.render(bare).match(/name="cost\.workerTime\.planned\.usd" value="unpriced"/)?.length, 1);

  const merged = mergeCost([cost, cost])!;
  assert.equal(merged.workerTime?.planned?.boundMs, 2 * planned.boundMs);
  assert.equal(merged.workerTime?.observed?.workerMinutesAtMost, 68);
  assert.equal(mergeCost([cost, bare.cost])!.workerTime?.planned?.estimatedCostUsd, undefined, 'a shard without a price leaves the sum unpriced');
});

test('worker time: usage.json holds the provisioned endpoints\' bound, not the tests\' own endpoints', () => {
  const { dir, done } = tempDir('worker-usage');
  try {
    const registry = new Registry(join(dir, 'cleanup.jsonl'));
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    registry.add({ kind: 'endpoint', id: 'e1', gpuIds: 'AMPERE_16', auth: 'main', test: PROVISIONING, shape: { workersMin: 0, workersMax: 3 }, at: tenMinutesAgo });
    registry.add({ kind: 'endpoint', id: 'e2', gpuIds: 'AMPERE_16', auth: 'main', test: PROVISIONING, shape: { workersMin: 0, workersMax: 1 }, at: tenMinutesAgo });
    registry.add({ kind: 'endpoint', id: 'e3', gpuIds: 'ADA_24', auth: 'main', test: 'graphql › an endpoint of its own', shape: { workersMin: 0, workersMax: 2 }, at: tenMinutesAgo });
    registry.done({ kind: 'endpoint', id: 'e1', auth: 'main' });
    registry.done({ kind: 'endpoint', id: 'e2', auth: 'main' });
    const usage = usageOf('r1', registry, { prices: PRICES } as RunConfig);
    const w = usage.workerTime!;
    assert.equal(w.endpoints, 2, 'the provisioned endpoints only');
    assert.ok(Math.abs(w.endpointMinutes - 20) < 0.1 && Math.abs(w.workerMinutesAtMost - 40) < 0.2, JSON.stringify(w));
    assert.ok(Math.abs(w.estimatedCostUsd! - 0.7 * w.workerMinutesAtMost / 60) < 1e-9);
    const none = new Registry(join(dir, 'none.jsonl'));
    assert.equal(usageOf('r2', none, { prices: PRICES } as RunConfig).workerTime, undefined, 'nothing provisioned: no worker time');
  } finally {
    done();
  }
});
