// The contract tests' reads and what the refusals made decide only what they earned: a listing
// or a read that failed is `Unread` (contract/support/reads.ts), and what a refused createPod
// made is laid to the request that made it or left untold (contract/specs/pods/support/creates.ts);
// /health counters that a job's move between reads may explain decide nothing
// (contract/checks/health-conformance.ts); credential cases grouped by what they need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUnread, podListing, podMounts, type Listing } from '../contract/support/reads.js';
import { attribute, madeNothing, refusals, type Made } from '../contract/specs/pods/support/creates.js';
import { activeCountsConformance, movedBack, requeueExplains } from '../contract/checks/health-conformance.js';
import { byNeeds } from '../contract/support/needs.js';
import type { ApiResult } from '../lib/client/api.js';
import type { Need } from '../lib/needs.js';

const problem = (status: number) => ({ status, body: { type: 'about:blank', title: 'Error', status, detail: 'no' } });
const newIn = (before: Listing, after: Listing): string[] => [...after.keys()].filter((id) => !before.has(id));
const listing = (entries: Record<string, string | undefined>): Listing => new Map(Object.entries(entries));
const PREFIX = 'cpc-t1-';

test('podListing: a 2xx list (bare or wrapped) is read; a refusal, a 5xx or a 2xx body that is no list is unread', () => {
  const bare = podListing({ status: 200, body: [{ id: 'p1', name: 'a' }, { id: 'p2' }, { name: 'no id' }] });
  assert.ok(!isUnread(bare));
  assert.deepEqual([...bare], [['p1', 'a'], ['p2', undefined]]);
  const wrapped = podListing({ status: 200, body: { pods: [{ id: 'p3', name: 'b' }] } });
  assert.ok(!isUnread(wrapped));
  assert.deepEqual([...wrapped], [['p3', 'b']]);
  for (const [res, said] of [[problem(503), /listPods answered 503$/], [problem(429), /answered 429$/], [{ status: 200, body: { id: 'p1' } }, /answered 200 with a body that is not a list/], [{ status: 200 }, /answered 200 with/]] as const) {
    const read = podListing(res);
    assert.ok(isUnread(read), `${JSON.stringify(res)} is not a listing`);
    assert.match(read.unread, said);
  }
  // A refusal whose body is a list is still no listing.
  assert.ok(isUnread(podListing({ status: 500, body: [{ id: 'p9', name: 'x' }] })));
  // Nor is a problem+json body with its one errors array, whatever its status.
  const problem200 = { status: 200, contentType: 'application/problem+json', body: { type: 'about:blank', title: 'Odd', status: 200, errors: [] } };
  assert.ok(isUnread(podListing(problem200)), 'a 2xx problem+json is no listing');
  assert.ok(isUnread(podListing({ ...problem200, contentType: undefined, headers: { 'content-type': 'application/problem+json; charset=utf-8' } })), 'read from the header too');
});

test('podMounts: only a 2xx body that is the pod asked for is read', () => {
  const mounts = { persistent: { size: 20, path: '/workspace' } };
  assert.deepEqual(podMounts({ status: 200, body: { id: 'pod-a', mounts } }, 'pod-a'), mounts);
  assert.equal(podMounts({ status: 200, body: { id: 'pod-a' } }, 'pod-a'), undefined);
  for (const res of [{ status: 200, body: { id: 'pod-b', mounts } }, problem(404), { ...problem(500), body: { id: 'pod-a', mounts } }, { status: 200, body: null }, { status: 200, body: 'pod-a' }]) {
    const read = podMounts(res, 'pod-a');
    assert.ok(isUnread(read), `${JSON.stringify(res)} is not pod-a's mounts`);
    assert.match(read.unread, new RegExp(`^getPod answered ${res.status}`));
  }
  assert.match((podMounts({ status: 200, body: { id: 'pod-b', mounts } }, 'pod-a') as { unread: string }).unread, /not the pod pod-a/);
});

test('attribute: a listing that failed after named refusals decides nothing (was: "nothing made", a pass)', () => {
  const named = new Map([[`${PREFIX}probe-1`, 'no Authorization header'], [`${PREFIX}probe-2`, 'an unknown key']]);
  const made = attribute({ prefix: PREFIX, named, windows: [] }, podListing(problem(503)), newIn);
  assert.equal(made.by.size, 0);
  assert.deepEqual([...made.untold.keys()].sort(), ['an unknown key', 'no Authorization header']);
  for (const why of made.untold.values()) assert.match(why, /the listing after the refusals: listPods answered 503/);
  // The request's rule is marked unchecked (Playwright's test.info() outside a test: it got that far), never passed with no finding.
  assert.throws(() => madeNothing(made, 'an unknown key', 'AUTH.REST_V2.INVALID_401'), /test\.info\(\) can only be called while test is running/);
});

test('attribute: an unnamed body whose listing before it failed is untold (was: every listed pod new, a false FAIL)', () => {
  const now = listing({ 'p-other': 'someone-else', 'p-old': undefined });
  const made = attribute({ prefix: PREFIX, named: new Map(), windows: [{ key: 'without name', before: podListing(problem(500)) }] }, now, newIn);
  assert.equal(made.by.get('without name'), undefined, 'no pod laid to the request from an empty "before"');
  assert.match(made.untold.get('without name') ?? '', /a listing around the unnamed request: listPods answered 500/);
  // With both listings read, a pod new in its window is its own: the finding names the rule and the pod.
  const seen = attribute({ prefix: PREFIX, named: new Map(), windows: [{ key: 'without name', before: listing({ 'p-old': undefined }) }] }, now, newIn);
  assert.deepEqual(madeNothing(seen, 'without name', 'POD.CREATE.NAME_REQUIRED'), [{ rule: 'POD.CREATE.NAME_REQUIRED', message: 'a refused createPod still created a pod (p-other)' }]);
});

test('attribute: a pod under the prefix with a name no request sent is laid to none (was: every named request failed)', () => {
  const named = new Map([[`${PREFIX}a`, 'with an empty image'], [`${PREFIX}b`, 'without image'], [`${PREFIX}c`, 'with an unknown property inside gpu']]);
  const now = listing({ 'p-renamed': `${PREFIX}a-renamed`, 'p-c': `${PREFIX}c`, 'p-foreign': 'cpc-other-a' });
  const made = attribute({ prefix: PREFIX, named, windows: [] }, now, newIn);
  assert.deepEqual([...made.by], [['with an unknown property inside gpu', ['p-c']]], 'only the pod named as sent is laid to its request');
  assert.deepEqual([...made.untold.keys()].sort(), ['with an empty image', 'without image']);
  for (const why of made.untold.values()) assert.match(why, /pod\(s\) p-renamed carry this test's name prefix but no name it sent/);
  assert.deepEqual(madeNothing(made, 'with an unknown property inside gpu', 'POD.CREATE.GPU_UNKNOWN_PROPERTY').map((f) => f.rule), ['POD.CREATE.GPU_UNKNOWN_PROPERTY']);
  assert.throws(() => madeNothing(made, 'without image', 'POD.CREATE.IMAGE_REQUIRED'), /test\.info\(\)/, 'the renamed pod leaves the rule unchecked, not failed');
  // Nothing under the prefix: each named request is decided, made nothing.
  const none = attribute({ prefix: PREFIX, named, windows: [] }, listing({ 'p-foreign': 'cpc-other-a' }), newIn);
  assert.equal(none.by.size + none.untold.size, 0);
  assert.deepEqual(madeNothing(none, 'without image', 'POD.CREATE.IMAGE_REQUIRED'), []);
});

test('refusals().madeBy: one listing after the sends, returning { by, untold } (a failed listing before an unnamed body leaves it untold)', async () => {
  const snapshots = [podListing(problem(502)), podListing({ status: 200, body: [{ id: 'p-n', name: `${PREFIX}named` }, { id: 'p-x' }] })];
  let listed = 0;
  const ops: string[] = [];
  const ctx = {
    api: { op: async (name: string) => { ops.push(name); return { ...problem(400), operation: name, headers: {}, contentType: 'application/problem+json', text: '', bytes: 0, durationMs: 0 }; } },
    pods: { snapshot: async () => snapshots[listed++]!, newIn, track: () => assert.fail('a refused create is not tracked') },
    uniqueName: { prefix: PREFIX },
  } as unknown as Parameters<typeof refusals>[0];
  const refused = refusals(ctx);
  await refused.send({ name: `${PREFIX}named` }, {}, 'named');
  await refused.send({ image: 'x' }, {}, 'unnamed');
  const made: Made = await refused.madeBy();
  assert.deepEqual(ops, ['createPod', 'createPod']);
  assert.equal(listed, 2, 'a listing before the unnamed body and one after all');
  assert.deepEqual([...made.by], [['named', ['p-n']]]);
  assert.deepEqual([...made.untold.keys()], ['unnamed']);
  assert.match(made.untold.get('unnamed')!, /listPods answered 502/);
});

const jobs = (inQueue: number, inProgress: number) => ({ completed: 0, failed: 0, inProgress, inQueue, retried: 0 });
const health = (inQueue: number, inProgress: number): ApiResult => ({ operation: 'health', status: 200, headers: {}, contentType: 'application/json', text: '', body: { jobs: jobs(inQueue, inProgress), workers: { idle: 0, running: 1 } }, bytes: 0, durationMs: 0 }) as unknown as ApiResult;

test('movedBack: a job read in an earlier status after /health than before it is named; unread statuses and forward moves are not', () => {
  assert.deepEqual(movedBack(['IN_PROGRESS', 'IN_QUEUE', 'COMPLETED', 'IN_QUEUE'], ['IN_QUEUE', 'IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS']), [0, 2]);
  assert.deepEqual(movedBack(['IN_PROGRESS', undefined], [undefined, 'IN_QUEUE']), []);
  assert.deepEqual(movedBack(['IN_QUEUE', 'IN_PROGRESS'], ['IN_PROGRESS', 'FAILED']), []);
});

test('requeueExplains: counters matching one running attempt re-queued decide nothing (was: HEALTH.JOBS.COUNTS failed)', () => {
  const statuses = ['IN_PROGRESS', 'IN_QUEUE', 'IN_QUEUE', 'IN_QUEUE'];
  const base = jobs(2, 1);
  // /health counted 4 waiting and none running over the baseline: one fewer running, one more waiting than read.
  const requeued = health(2 + 4, 1 + 0);
  assert.deepEqual(activeCountsConformance(requeued, base, statuses, 'held').map((f) => f.rule), ['HEALTH.JOBS.COUNTS'], 'the counters disagree with the statuses');
  assert.equal(requeueExplains(requeued, base, statuses), true);
  // Any other disagreement is not explained: the finding stands.
  for (const other of [health(2 + 5, 1 + 0), health(2 + 2, 1 + 2), health(2 + 4, 1 + 1)]) {
    assert.equal(requeueExplains(other, base, statuses), false, JSON.stringify((other.body as { jobs: unknown }).jobs));
  }
  // No job running: no attempt to re-queue.
  assert.equal(requeueExplains(health(2 + 4, 1), base, ['IN_QUEUE', 'IN_QUEUE', 'IN_QUEUE']), false);
  // Counters that agree give no finding at all.
  assert.deepEqual(activeCountsConformance(health(2 + 3, 1 + 1), base, statuses, 'held'), []);
});

test('byNeeds: the cases any target can be given share one test; each case needing a key is a test of its own', () => {
  type Case = { title: string; needs?: Need[] };
  const a: Case = { title: 'a' };
  const b: Case = { title: 'b', needs: ['expiredKey'] };
  const c: Case = { title: 'c', needs: [] };
  const d: Case = { title: 'd', needs: ['otherKey', 'readonlyKey'] };
  assert.deepEqual(byNeeds([a, b, c, d]), [[a, c], [b], [d]]);
  assert.deepEqual(byNeeds([b, d]), [[b], [d]], 'no empty group when every case needs a key');
  assert.deepEqual(byNeeds([a, c]), [[a, c]]);
  assert.deepEqual(byNeeds<Case>([]), []);
});
