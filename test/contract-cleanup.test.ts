import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../emulator/server.js';
import { EmulatorControl } from '../lib/client/control.js';
import { ApiClient, type Keys } from '../lib/client/api.js';
import { undiciTransport, type Transport } from '../lib/client/transport.js';
import { Registry, TestTracker, heldByRun, stillHeld, sweep, uniqueNameFactory, watch, type Resource } from '../lib/cleanup.js';

/** An emulator world with a client whose creations a tracker records (a run-wide record in a temporary folder). */
async function inWorld(testName: string, body: (ctx: { api: ApiClient; registry: Registry; tracker: TestTracker; control: EmulatorControl; worldId: string; urls: { baseUrl: string; serverlessUrl: string; restV1Url: string }; keys: Keys; http: Transport }) => Promise<void>): Promise<void> {
  const running = await startEmulator({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'cpc-cleanup-'));
  const http = undiciTransport({ connections: 2 });
  try {
    const control = new EmulatorControl(running.url);
    const world = await control.createWorld({ clock: { mode: 'manual' } });
    const urls = { baseUrl: running.url, serverlessUrl: running.url, restV1Url: running.url };
    const api = new ApiClient(urls, world.keys, http);
    const registry = new Registry(join(dir, 'created.jsonl'));
    const tracker = new TestTracker(registry, testName);
    tracker.attach(api);
    await body({ api, registry, tracker, control, worldId: world.id, urls, keys: world.keys, http });
  } finally {
    await http.close();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('creations and deletions are read from exchanges, whoever sends them', () => {
  const created: Omit<Resource, 'test'>[] = [];
  const deleted: unknown[] = [];
  const sink = { created: (r: Omit<Resource, 'test'>) => created.push(r), deleted: (r: unknown) => deleted.push(r) };
  watch({ operation: 'createPod', auth: 'main', requestBody: { name: 'n' }, status: 201, responseBody: { id: 'pod1' } }, sink);
  watch({ operation: 'createPod', auth: 'main', requestBody: { name: 'n' }, status: 400, responseBody: { title: 'Bad' } }, sink);
  watch({ operation: 'graphql', auth: 'other', requestBody: { query: 'mutation { saveTemplate(input: {name: "t1", imageName: "x"}) { id } }' }, status: 200, responseBody: { data: { saveTemplate: { id: 'tpl1' } } } }, sink);
  watch({ operation: 'graphql', auth: 'main', requestBody: { query: 'mutation { saveTemplate(input: {id: "tpl1", name: "t1"}) { id } }' }, status: 200, responseBody: { data: { saveTemplate: { id: 'tpl1' } } } }, sink);
  watch({ operation: 'graphql', auth: 'main', requestBody: { query: 'mutation M($i: SecretInput!) { s: secretCreate(input: $i) { id } }', variables: { i: { name: 's1', value: 'v' } } }, status: 200, responseBody: { data: { s: { id: 'sec1' } } } }, sink);
  watch({ operation: 'graphql', auth: 'main', requestBody: { query: 'mutation { secretCreate(input: {name: "s2", value: "v"}) { id } }' }, status: 200, responseBody: { data: { secretCreate: null }, errors: [{ message: 'exists' }] } }, sink);
  watch({ operation: 'deletePod', auth: 'main', params: { podId: 'pod1' }, status: 204, responseBody: undefined }, sink);
  watch({ operation: 'graphql', auth: 'main', requestBody: { query: 'mutation { deleteTemplate(templateName: "t1") }' }, status: 200, responseBody: { data: { deleteTemplate: null } } }, sink);
  watch({ operation: 'graphql', auth: 'main', requestBody: { query: 'mutation { secretDelete(id: "sec1") }' }, status: 200, responseBody: { data: { secretDelete: null }, errors: [{ message: 'denied' }] } }, sink);
  assert.deepEqual(created, [
    { kind: 'pod', id: 'pod1', auth: 'main', name: 'n' },
    { kind: 'template', name: 't1', auth: 'other', id: 'tpl1' },
    { kind: 'secret', auth: 'main', id: 'sec1', name: 's1' },
  ]);
  assert.deepEqual(deleted, [{ kind: 'pod', id: 'pod1', auth: 'main' }, { kind: 'template', name: 't1', auth: 'main' }], 'a refused secretDelete deletes nothing');
});

test('names are unique per run, test, repetition and call', () => {
  const a = uniqueNameFactory('file1-test1', 0, 0, 'r1');
  const b = uniqueNameFactory('file1-test2', 0, 0, 'r1');
  const c = uniqueNameFactory('file1-test1', 1, 0, 'r1');
  const names = [a('tpl'), a('tpl'), b('tpl'), c('tpl')];
  assert.equal(new Set(names).size, 4, names.join(' '));
  assert.ok(names.every((n) => n.startsWith('cpc-r1-')));
  assert.ok(names[0]!.startsWith(a.prefix));
});

test('an interrupted run: the teardown deletes what the tests left, lists what it could not delete, and deletes it once it can', async () => {
  await inWorld('a test that was interrupted', async ({ api, registry, control, worldId, urls, keys, http }) => {

  const dc = ((await api.op('listDataCenters')).body as { id: string }[] | { dataCenters: { id: string }[] });
  const dataCenter = (Array.isArray(dc) ? dc : dc.dataCenters)[0]!.id;
  const gpus = (await api.op('listGpuTypes')).body as { id: string; manufacturer?: string }[] | { gpus: { id: string; manufacturer?: string }[] };
  const gpu = (Array.isArray(gpus) ? gpus : gpus.gpus).find((g) => (g.manufacturer ?? g.id).toUpperCase().startsWith('NVIDIA'))!.id;
  const pod = await api.op<{ id: string }>('createPod', { body: { name: 'cpc-t-pod', image: 'busybox:latest', gpu: { id: gpu } } });
  assert.equal(pod.status, 201, pod.text);
  const volume = await api.op<{ id: string }>('createNetworkVolume', { body: { name: 'cpc-t-vol', size: 10, dataCenter } });
  assert.equal(volume.status, 201, volume.text);
  const tpl = await api.graphql<{ data: { saveTemplate: { id: string } } }>('mutation { saveTemplate(input: {name: "cpc-t-tpl", imageName: "x/y:1", containerDiskInGb: 5, volumeInGb: 0, isServerless: true}) { id } }');
  const templateId = tpl.body.data.saveTemplate.id;
  const ep = await api.graphql<{ data: { saveEndpoint: { id: string } } }>(`mutation { saveEndpoint(input: {name: "cpc-t-ep", gpuIds: "AMPERE_16", templateId: "${templateId}", workersMin: 0, workersMax: 1}) { id } }`);
  assert.ok(ep.body.data.saveEndpoint.id, ep.text);
  const secret = await api.graphql('mutation { secretCreate(input: {name: "cpc-t-sec", value: "v"}) { id } }');
  assert.equal(secret.status, 200);
  // Interrupted here: the test's own teardown never ran.

  const { created, open } = registry.outstanding();
  assert.equal(created, 5);
  assert.deepEqual(open.map((r) => r.kind), ['endpoint', 'pod', 'template', 'secret', 'networkVolume']);

  const sweeper = new ApiClient(urls, keys, http);
  const left = await sweep(sweeper, open, { retryForMs: 0 });
  // The endpoint was scaled to 0 and deleted; its template was used just now, so it is held for 2 minutes (spec).
  assert.deepEqual(left.map((l) => [l.kind, l.name]), [['template', 'cpc-t-tpl']]);
  assert.match(left[0]!.reason, /deleteTemplate/);
  const pods = (await sweeper.op('listPods')).body as unknown[] | { pods: unknown[] };
  assert.equal((Array.isArray(pods) ? pods : pods.pods).length, 0, 'no pod left');
  const vols = (await sweeper.op('listNetworkVolumes')).body as { id: string }[] | { networkVolumes: { id: string }[] };
  assert.ok(!(Array.isArray(vols) ? vols : vols.networkVolumes).some((v) => v.id === volume.body.id), 'the volume is gone');
  const eps = await sweeper.graphql<{ data: { myself: { endpoints: { name: string }[] } } }>('{ myself { endpoints { name } } }');
  assert.ok(!eps.body.data.myself.endpoints.some((e) => e.name === 'cpc-t-ep'), 'the endpoint is gone');

  // Retried after the deletion delay, the template goes too.
  let slept = 0;
  const later = await sweep(sweeper, left, { retryForMs: 200_000, retryEveryMs: 60_000, now: () => slept, sleep: async (ms) => { slept += ms; await control.advance(worldId, ms); } });
  assert.deepEqual(later, []);
  assert.ok(readFileSync(registry.file, 'utf8').includes('"op":"add"'));
  });
});

test('another account\'s deletion (404: not yours) never marks a resource deleted; the teardown looks at the account, and what it still lists is deleted again or left over', async () => {
  await inWorld('the pool', async ({ api, registry, tracker }) => {
  const cpus = (await api.op('listCpuFlavors')).body as { id: string }[] | { cpus: { id: string }[] };
  const cpu = (Array.isArray(cpus) ? cpus : cpus.cpus)[0]!.id;
  const pod = await api.op<{ id: string }>('createPod', { body: { name: 'cpc-r1-pool-cpuPod', image: 'busybox:latest', cpu: { id: cpu, vcpuCount: 2 } } });
  assert.equal(pod.status, 201, pod.text);
  // The other account's deletePod of the pod answers 404 and deletes nothing.
  const theirs = await api.op('deletePod', { params: { podId: pod.body.id }, auth: 'other' });
  assert.equal(theirs.status, 404);
  assert.deepEqual(registry.outstanding().open.map((r) => r.id), [pod.body.id], 'still open in the record');
  assert.equal(tracker.open.size, 1, 'still the test\'s own');
  assert.deepEqual((await heldByRun(api, 'r1', ['main', 'other'])).map((r) => [r.kind, r.name, r.auth]), [['pod', 'cpc-r1-pool-cpuPod', 'main']]);

  // A record that says deleted (a line of an older record, without the key) while the account still lists the pod.
  registry.done({ kind: 'pod', id: pod.body.id });
  assert.deepEqual(registry.outstanding().open, []);
  const left = await stillHeld(api, 'r1', ['main', 'other'], [], { retryForMs: 0 });
  assert.deepEqual(left, [], 'listed, deleted again, then no longer listed');
  assert.deepEqual(await heldByRun(api, 'r1', ['main']), []);
  });
});

test('the teardown\'s look: a resource still listed after its deletion was answered is a leftover, with why', async () => {
  const listed = { pods: [{ id: 'p1', name: 'cpc-r2-pool-cpuPod' }, { id: 'p2', name: 'someone-else' }] };
  const answers: string[] = [];
  const api = {
    op: async (operation: string) => { answers.push(operation); return { status: operation === 'deletePod' ? 204 : 200, body: operation === 'listPods' ? listed : { networkVolumes: [] }, text: '' }; },
    graphql: async () => ({ status: 200, body: { data: { myself: { endpoints: [] } } }, text: '' }),
  } as unknown as ApiClient;
  const left = await stillHeld(api, 'r2', ['main'], [], { retryForMs: 0 });
  assert.deepEqual(left.map((l) => [l.kind, l.id, l.name]), [['pod', 'p1', 'cpc-r2-pool-cpuPod']]);
  assert.match(left[0]!.reason, /still listed by the account after the teardown, though its deletion was answered/);
  assert.ok(answers.includes('deletePod'), 'deleted again before it is called left behind');
});

test('the teardown\'s one look also finds what a create whose answer was lost made: deleted, and named as never recorded where it stays', async () => {
  const listed = { pods: [{ id: 'p1', name: 'cpc-r3-pool-cpuPod' }, { id: 'p9', name: 'cpc-r3-lost-pod1' }] };
  const deleted: string[] = [];
  const api = {
    op: async (operation: string, options: { params?: { podId?: string } } = {}) => {
      if (operation === 'deletePod') deleted.push(options.params!.podId!);
      return { status: operation === 'deletePod' ? 204 : 200, body: operation === 'listPods' ? listed : { networkVolumes: [] }, text: '' };
    },
    graphql: async () => ({ status: 200, body: { data: { myself: { endpoints: [] } } }, text: '' }),
  } as unknown as ApiClient;
  const lines: string[] = [];
  const left = await stillHeld(api, 'r3', ['main'], [], { retryForMs: 0, recorded: new Set(['p1']), log: (l) => lines.push(l) });
  assert.deepEqual(deleted, ['p1', 'p9'], 'both deleted again');
  assert.match(lines.join('\n'), /2 resource\(s\) named by this run are still listed after the teardown \(1 never recorded: a create whose answer was lost\)/);
  assert.deepEqual(left.map((l) => [l.id, l.test]), [['p1', '(still listed by the account after the teardown)'], ['p9', '(found by its name: its creation was not recorded)']]);
});
