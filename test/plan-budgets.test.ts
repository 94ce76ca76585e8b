// What a run plans, what its budgets allow and how pooled resources are lent and retired
// (lib/plan.ts, contract/support/budget.ts, contract/support/pools.ts), without a target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasFor } from '../lib/needs.js';
import { budgetBreaches, hourlyPrice, needMet, planCounts, podCostUsd, zeroCounts, type Creates } from '../lib/plan.js';
import { loadProfile } from '../lib/profile.js';
import { ConfigError } from '../lib/errors.js';
import { RunBudget } from '../contract/support/budget.js';
import { PoolShelf, borrowing } from '../contract/support/pools.js';
import { TestTracker, type Resource } from '../lib/cleanup.js';
import type { ApiClient, OutgoingCall } from '../lib/client/api.js';
import { tempDir } from './reports-support.js';

const tests: Creates[] = [
  { cpuPods: 1 },
  { pools: ['cpuNetworkPod'] },
  { pools: ['cpuNetworkPod', 'gpuPod'], maybe: { gpuPods: 1 } },
  { endpoints: 2, warmEndpoints: 1 },
];

test('plan: on a deployment each pool counts once per worker that borrows it (with the pools it needs); in an emulator world once per test', () => {
  const deployment = planCounts(tests, { pooled: true, workers: 1 });
  assert.deepEqual(deployment.pools, ['cpuNetworkPod', 'gpuPod', 'networkVolume']);
  assert.deepEqual(deployment.counts, { ...zeroCounts(), cpuPods: 2, gpuPods: 1, networkVolumes: 1, endpoints: 2, warmEndpoints: 1 });
  assert.equal(deployment.upTo.gpuPods, 2, 'what a test may create besides is an upper bound only');
  // Two workers: a pool borrowed by two tests may be made twice, one borrowed once only once.
  const two = planCounts(tests, { pooled: true, workers: 2 });
  assert.deepEqual([two.counts.cpuPods, two.counts.gpuPods, two.counts.networkVolumes], [3, 1, 2]);
  const worlds = planCounts(tests, { pooled: false, workers: 2 });
  assert.deepEqual([worlds.counts.cpuPods, worlds.counts.gpuPods, worlds.counts.networkVolumes], [3, 1, 2]);
});

test('plan: a test runs where what it needs is there: an emulator world meets every need, its clock only when it can move', () => {
  const deployment = { world: false, clock: false, keys: {}, endpoint: false, hold: false, template: false, model: false, allow: {} };
  const none = hasFor(deployment);
  assert.equal(needMet(undefined, none), true);
  assert.equal(needMet('warmWorkers', none), false);
  assert.equal(needMet('warmWorkers', hasFor({ ...deployment, allow: { warmWorkers: true } })), true);
  assert.equal(needMet(['workerEndpoint', 'template'], hasFor({ ...deployment, endpoint: true })), false);
  assert.equal(needMet(['workerEndpoint', 'template'], hasFor({ ...deployment, endpoint: true, template: true })), true);
  assert.equal(needMet('control', hasFor({ ...deployment, allow: { warmWorkers: true, propertyLoad: true } })), false);
  assert.equal(needMet(['propertyLoad', 'otherKey'], hasFor({ ...deployment, world: true, clock: false })), true);
  assert.equal(needMet('control', hasFor({ ...deployment, world: true, clock: false })), false);
  assert.equal(needMet('control', hasFor({ ...deployment, world: true, clock: true })), true);
  // The workersMax 1 endpoint is a deployment's: a world decides the queue's rules on its virtual clock.
  assert.equal(needMet('holdEndpoint', hasFor({ ...deployment, world: true, clock: true })), false);
  assert.equal(needMet('holdEndpoint', hasFor({ ...deployment, hold: true })), true);
});

test('plan: prices per hour from the catalog shapes, a pod priced for the readiness timeout, and the budgets a plan passes', () => {
  const table = { gpu: { A: { secure: 2, community: 1 } }, cpu: { c: 0.05 } };
  assert.equal(hourlyPrice(table, { gpu: { id: 'A', count: 2 } }), 4);
  assert.equal(hourlyPrice(table, { gpu: { id: 'A' }, cloud: 'COMMUNITY' }), 1);
  assert.equal(hourlyPrice(table, { cpu: { id: 'c', vcpuCount: 4 } }), 0.2);
  assert.equal(hourlyPrice(table, { gpu: { id: 'unlisted' } }), undefined);
  assert.equal(podCostUsd(2, 1_800_000), 1);
  const plan = { counts: { ...zeroCounts(), gpuPods: 4, cpuPods: 7 }, requests: 567, estimatedCostUsd: 0.53 };
  assert.deepEqual(budgetBreaches(plan, { pods: 12, gpuPods: 4, requests: 600, costUsd: 1 }), []);
  assert.deepEqual(budgetBreaches(plan, { gpuPods: 1 }), ['--max-gpu-pods 1: the plan creates 4 GPU pods']);
  assert.deepEqual(budgetBreaches({ ...plan, estimatedCostUsd: undefined }, { costUsd: 5 }), ['--max-cost 5: the cost is unknown (the catalog gives no price for the pods the run makes)']);
  assert.match(budgetBreaches(plan, { pods: 10, requests: 500 }).join('\n'), /--max-pods 10: the plan creates 11 pods\n--max-requests 500: the plan sends about 567 requests/);
});

test('budgets: in the profile file or its variables (the variable wins); a bad value names where it came from', () => {
  const { dir, done } = tempDir('profile-budgets');
  try {
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify({ maxGpuPods: 2, maxCostUsd: 1.5 }));
    assert.deepEqual(loadProfile({ CPC_PROFILE: file, CPC_MAX_GPU_PODS: '3', CPC_MAX_REQUESTS: '600' }).budgets, { gpuPods: 3, requests: 600, costUsd: 1.5 });
    assert.throws(() => loadProfile({ CPC_MAX_PODS: '1.5' }), (e: unknown) => e instanceof ConfigError && /CPC_MAX_PODS must be an integer of 0 or more, got "1.5"/.test(e.message));
    writeFileSync(file, JSON.stringify({ maxCostUsd: 'cheap' }));
    assert.throws(() => loadProfile({ CPC_PROFILE: file }), /CPC_PROFILE field "maxCostUsd" \(or CPC_MAX_COST\) must be a number of USD/);
  } finally {
    done();
  }
});

const call = (operation: string, requestBody?: unknown): OutgoingCall => ({ operation, surface: 'rest-v2', method: 'POST', auth: 'main', ...(requestBody !== undefined ? { requestBody } : {}) });

test('budgets: requests and pod reservations are counted across budgets sharing the files; deletions always go out; a released reservation frees its place', () => {
  const { dir, done } = tempDir('run-budget');
  try {
    const files = { requests: join(dir, 'requests.count'), pods: join(dir, 'pods.jsonl') };
    const prices = { gpu: { A: { secure: 3.6 } }, cpu: {} };
    // Two workers' views of one run.
    const one = new RunBudget({ requests: 3, pods: 2, gpuPods: 1 }, files, prices, 600_000);
    const other = new RunBudget({ requests: 3, pods: 2, gpuPods: 1 }, files, prices, 600_000);
    assert.equal(one.request(call('listPods')), undefined);
    assert.equal(other.request(call('listPods')), undefined);
    assert.equal(one.request(call('listPods')), undefined);
    assert.equal(other.request(call('listPods')), '--max-requests 3: 3 requests sent');
    assert.equal(other.request(call('deletePod')), undefined, 'a deletion is never refused');
    assert.equal(other.request(call('graphql', { query: 'mutation { a: deleteEndpoint(id: "e1") b: secretDelete(id: "s1") }' })), undefined, 'nor a GraphQL document of deletions');
    assert.equal(other.request(call('graphql', { query: 'mutation { deleteEndpoint(id: "e1") saveTemplate(input: {name: "t"}) { id } }' })), '--max-requests 3: 3 requests sent', 'a document that also saves is no deletion');
    assert.equal(one.requestsSent(), 5);

    const gpu = one.reservePod({ gpu: { id: 'A' } });
    assert.ok('id' in gpu);
    assert.deepEqual(other.reservePod({ gpu: { id: 'A' } }), { reached: '--max-gpu-pods 1: 1 GPU pods created' });
    const cpu = other.reservePod({ cpu: { id: 'c' } });
    assert.ok('id' in cpu);
    assert.deepEqual(one.reservePod({ cpu: { id: 'c' } }), { reached: '--max-pods 2: 2 pods created' });
    other.release(cpu.id);
    assert.ok('id' in one.reservePod({ cpu: { id: 'c' } }), 'a create that made nothing gives its place back');
    assert.equal(one.podsReserved(), 2);
    const costly = new RunBudget({ costUsd: 0.5 }, { requests: join(dir, 'r2'), pods: join(dir, 'p2') }, prices, 600_000);
    assert.deepEqual(costly.reservePod({ gpu: { id: 'A' } }), { reached: '--max-cost 0.5: the estimated cost of the pods created would pass USD 0.5' }, 'USD 3.6 an hour for 10 minutes is 0.6');
  } finally {
    done();
  }
});

/** A client that records the deletions sent through it. */
function fakeApi(deleted: string[]): ApiClient {
  const answer = { status: 204, text: '', body: undefined };
  return {
    op: async (_name: string, o: { params?: Record<string, string> }) => { deleted.push(Object.values(o.params ?? {})[0] ?? '?'); return answer; },
    graphql: async () => ({ ...answer, status: 200, body: {} }),
  } as unknown as ApiClient;
}

test('pools: lent to every test of a worker; a failed restore or a failed test retires only what that pool made, and the next borrower gets a new one', async () => {
  const shelf = new PoolShelf();
  const deleted: string[] = [];
  let made = 0;
  const lend = (declared: Parameters<typeof borrowing>[1]['declared']) => {
    const tracker = new TestTracker(undefined, 'a test');
    const pools = borrowing(shelf, { api: fakeApi(deleted), tracker, shared: true, declared });
    const create = (r: Omit<Resource, 'test'>) => tracker.sink.created(r);
    const volume = () => pools.borrow('networkVolume', async () => { create({ kind: 'networkVolume', id: `vol${++made}`, auth: 'main' }); return `vol${made}`; });
    const pod = () => pools.borrow('cpuNetworkPod', async () => { await volume(); create({ kind: 'pod', id: `pod${++made}`, auth: 'main', shape: { cpu: { id: 'c' } } }); return `pod${made}`; });
    return { pools, tracker, pod, volume };
  };

  const first = lend(['cpuNetworkPod']);
  assert.equal(await first.pod(), 'pod2');
  assert.deepEqual(first.tracker.made, zeroCounts(), 'what a pool makes is not the test\'s own');
  await assert.rejects(first.pools.borrow('gpuPod', async () => 'x'), /borrows the pooled gpuPod without declaring it/);
  await first.pools.returnAll(false);

  const second = lend(['cpuNetworkPod']);
  assert.equal(await second.pod(), 'pod2', 'the same pod is lent again');
  second.pools.restoreAfter('cpuNetworkPod', async () => false);
  await second.pools.returnAll(false);
  assert.deepEqual(deleted, ['pod2'], 'the pod whose restore failed is deleted, not the volume it mounts');

  const third = lend(['cpuNetworkPod']);
  assert.equal(await third.pod(), 'pod3', 'a new pod on the volume still lent');
  assert.equal(await third.volume(), 'vol1');
  await third.pools.returnAll(true);
  assert.deepEqual(deleted.sort(), ['pod2', 'pod3', 'vol1'], 'a failed test retires what it borrowed');
});

test('pools: a restore that exercises a rule and fails is that rule\'s finding, shared or not; one without a rule only retires the pool', async () => {
  for (const shared of [true, false]) {
    const deleted: string[] = [];
    const tracker = new TestTracker(undefined, 'a test');
    const pools = borrowing(new PoolShelf(), { api: fakeApi(deleted), tracker, shared, declared: ['cpuNetworkPod'] });
    await pools.borrow('cpuNetworkPod', async () => { tracker.sink.created({ kind: 'pod', id: 'pod1', auth: 'main', shape: { cpu: { id: 'c' } } }); return 'pod1'; });
    pools.restoreAfter('cpuNetworkPod', async () => false, 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE');
    pools.restoreAfter('cpuNetworkPod', async () => false);
    const findings = await pools.returnAll(false);
    assert.deepEqual(findings.map((f) => f.rule), ['MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE'], `shared: ${shared}`);
    assert.match(findings[0]!.message, /putting the pooled cpuNetworkPod back as lent .* failed/);
    assert.deepEqual(deleted, shared ? ['pod1'] : [], 'a shared pod is retired; a test\'s own goes with its world');
  }
});
