// The legal-chaos target held to its contract (emulator/chaos/, emulator/README.md "Chaos"):
// the same seed draws the same for the same requests in any order; a GPU create body is never
// refused on every catalog type; the objects the spec closes never gain a member; a reset
// happens before anything changes; a bad chaos option is refused with its name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { Emulator } from '../emulator/app.js';
import { CHAOS_HEADER, requestDraws } from '../emulator/chaos/engine.js';
import { CLOSED_MEMBERS } from '../emulator/chaos/shape.js';
import { GPU_TYPES } from '../emulator/pods/catalog.js';
import { formatChaos, parseChaos } from '../lib/chaos/options.js';
import { ConfigError } from '../lib/errors.js';

let emu: RunningEmulator;
before(async () => { emu = await startEmulator({ port: 0 }); });
after(() => emu.close());

interface World { id: string; keys: { main: string }; seeded: { CPC_ENDPOINT_ID: string }; chaos?: { capacityRefusedShare: number } }
interface Answer { status: number; headers: Record<string, string>; text: string; json: unknown }

async function newWorld(chaos?: Record<string, unknown>): Promise<World> {
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chaos ? { chaos } : {}) });
  const text = await res.body.text();
  assert.equal(res.statusCode, 201, text);
  return JSON.parse(text) as World;
}

async function call(world: World, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await request(emu.url + path, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${world.keys.main}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
  return { status: res.statusCode, headers, text, json: text ? JSON.parse(text) as unknown : undefined };
}

/** The draws of one request as its answer lists them (not those about other resources). */
function ownDraws(a: Answer): string {
  const header = a.headers[CHAOS_HEADER];
  assert.ok(header, `the answer lists its draws in ${CHAOS_HEADER}`);
  return header.split('; ').filter((p) => /^(seed|world|req|latency|header-case|extra-member|quotas<|variants|capacity-refused-share)=?/.test(p)).join('; ');
}

test('chaos: the same seed draws the same for the same requests, in whatever order they come', async () => {
  const options = { seed: 4242, key: 'order', latencyMs: 20 };
  const [a, b] = [await newWorld(options), await newWorld(options)];
  const requests = (w: World): [string, string, unknown?][] => [
    ['GET', '/v2/catalog/gpus'], ['GET', '/v2/catalog/cpus'], ['GET', '/v2/catalog/datacenters'], ['GET', '/v2/pods'],
    ['GET', '/v2/network-volumes'], ['GET', `/v2/${w.seeded.CPC_ENDPOINT_ID}/health`], ['POST', '/graphql', { query: '{ myself { endpoints { id name } } }' }],
    ['GET', '/v2/pods/pod-that-is-not-there'], ['GET', '/v2/nothing/here'],
  ];
  const inOrder = new Map<string, Answer>();
  for (const [method, path, body] of requests(a)) inOrder.set(`${method} ${path.replace(a.seeded.CPC_ENDPOINT_ID, 'EP')}`, await call(a, method, path, body));
  const reversed = new Map<string, Answer>();
  for (const [method, path, body] of requests(b).reverse()) reversed.set(`${method} ${path.replace(b.seeded.CPC_ENDPOINT_ID, 'EP')}`, await call(b, method, path, body));
  let latencies = 0;
  for (const [what, answer] of inOrder) {
    const other = reversed.get(what)!;
    assert.equal(ownDraws(other), ownDraws(answer), `${what}: the same draws in either order`);
    assert.equal(other.text.replace(/ep\w+/g, 'EP'), answer.text.replace(/ep\w+/g, 'EP'), `${what}: the same answer in either order`);
    if (/latency=\d+ms/.test(ownDraws(answer))) latencies++;
  }
  assert.ok(latencies > 0, 'some request drew a latency');
  // A different seed draws differently.
  const c = await newWorld({ ...options, seed: 4243 });
  const drawsOf = async (w: World) => { const out: string[] = []; for (const [m, p, body] of requests(w)) out.push(ownDraws(await call(w, m, p, body)).replace(/^seed=\d+; /, '')); return out; };
  assert.notDeepEqual(await drawsOf(c), [...inOrder.values()].map((x) => ownDraws(x).replace(/^seed=\d+; /, '')));
});

test('chaos: a valid GPU create body is never refused on every catalog type, and some are refused', async () => {
  // Straight at the engine: many worlds and bodies, each tried on every type until one places it.
  const registry = new Emulator();
  let refusals = 0;
  for (let seed = 0; seed < 60; seed++) {
    const world = registry.createWorld({ chaos: { seed, key: `capacity-${seed}` } });
    for (const body of [{ name: 'a', image: 'x', gpu: { id: '' } }, { name: 'b', image: 'x', gpu: { id: '', count: 2 }, dataCenterIds: ['EU-RO-1'] }, { name: 'c', image: 'y', gpu: { id: '' }, globalNetworking: true }]) {
      for (let attempt = 0; attempt < 3; attempt++) {
        let placed = false;
        for (const type of GPU_TYPES) {
          if (!world.chaos!.capacityRefused({ ...body, gpu: { ...body.gpu, id: type.id } }, type.id)) { placed = true; break; }
          refusals++;
        }
        assert.ok(placed, `seed ${seed}: ${JSON.stringify(body)} placed on some type (attempt ${attempt})`);
      }
    }
    registry.deleteWorld(world.id);
  }
  assert.ok(refusals > 0, 'capacity was refused somewhere');
  registry.dispose();

  // Over HTTP: the refusal is the live platform's 400, and the next candidate places the body.
  let world: World | undefined;
  for (let i = 0; !world; i++) {
    const w = await newWorld({ seed: 7, key: `capacity-http-${i}` });
    if ((w.chaos?.capacityRefusedShare ?? 0) >= 0.5) world = w;
  }
  const nvidia = GPU_TYPES.filter((t) => t.manufacturer === 'NVIDIA');
  let refused = 0;
  for (let round = 0; round < 6; round++) {
    const answers: Answer[] = [];
    for (const type of nvidia) {
      const a = await call(world, 'POST', '/v2/pods', { name: `cap-${round}`, image: 'busybox', gpu: { id: type.id } });
      answers.push(a);
      if (a.status === 201) break;
    }
    const last = answers.at(-1)!;
    assert.equal(last.status, 201, `round ${round}: placed (${last.text.slice(0, 200)})`);
    for (const a of answers.slice(0, -1)) {
      refused++;
      assert.equal(a.status, 400);
      assert.match(a.headers['content-type']!, /^application\/problem\+json/);
      assert.match((a.json as { detail: string }).detail + JSON.stringify(a.json), /no longer any instances available/);
      assert.match(a.headers[CHAOS_HEADER]!, /capacity=refused:/);
    }
  }
  assert.ok(refused > 0, 'some candidate was refused over HTTP');
});

test('chaos: the objects the spec closes never gain a member, nor does a pod\'s env', async () => {
  let extended = 0;
  for (let seed = 0; seed < 8; seed++) {
    const world = await newWorld({ seed, key: 'closed' });
    const volume = await call(world, 'POST', '/v2/network-volumes', { name: 'v', size: 10, dataCenter: 'EU-RO-1' });
    assert.equal(volume.status, 201, volume.text);
    const volumeId = (volume.json as { id: string }).id;
    const env = { A: '1', B: 'two' };
    const sent = [
      { name: 'cpu', image: 'busybox', cpu: { id: 'cpu3c', vcpuCount: 2 }, env, mounts: { network: [{ volumeId, path: '/data' }] }, dataCenterIds: ['EU-RO-1'] },
      { name: 'cpu-plain', image: 'busybox', cpu: { id: 'cpu3c', vcpuCount: 2 } },
    ];
    const ids: string[] = [];
    for (const body of sent) {
      const a = await call(world, 'POST', '/v2/pods', body);
      assert.equal(a.status, 201, a.text);
      ids.push((a.json as { id: string }).id);
    }
    const pods: { id: string; mounts: unknown; env: unknown; [k: string]: unknown }[] = [];
    for (let i = 0; i < 4; i++) {
      for (const id of ids) pods.push((await call(world, 'GET', `/v2/pods/${id}`)).json as typeof pods[number]);
      const list = (await call(world, 'GET', '/v2/pods')).json as { pods?: typeof pods } | typeof pods;
      pods.push(...(Array.isArray(list) ? list : list.pods ?? []));
    }
    for (const pod of pods) {
      const i = ids.indexOf(pod.id);
      assert.deepEqual(pod.mounts, sent[i]!.mounts ?? {}, `pod ${pod.id}: mounts exactly as sent`);
      assert.deepEqual(pod.env, sent[i]!.env ?? {}, `pod ${pod.id}: env exactly as sent`);
      if (Object.keys(pod).some((k) => k.startsWith('chaos'))) extended++;
    }
  }
  assert.ok(extended > 0, 'open objects did gain members meanwhile');
  assert.deepEqual([...CLOSED_MEMBERS].sort(), ['env', 'input', 'mounts', 'output']);
});

test('chaos: a reset happens before anything changes: no pod, no id used, no request counted', async () => {
  const seed = 99;
  let key = '';
  for (let i = 0; !key; i++) {
    const candidate = `reset-${i}`;
    const draws = (op: string, n: number) => requestDraws(seed, candidate, op, '', n, 0);
    if (draws('createPod', 1).reset && !draws('listPods', 1).reset && !draws('listPods', 2).reset && !draws('createPod', 2).reset) key = candidate;
  }
  const world = await newWorld({ seed, key });
  const twin = await newWorld();
  const body = { name: 'after-reset', image: 'busybox', cpu: { id: 'cpu3c', vcpuCount: 2 } };
  const remaining = (a: Answer): number => Number(/"minute";r=(\d+)/.exec(a.headers.ratelimit ?? '')?.[1]);
  const before = await call(world, 'GET', '/v2/pods');
  await assert.rejects(call(world, 'POST', '/v2/pods', body), 'the connection is reset before any answer');
  const afterwards = await call(world, 'GET', '/v2/pods');
  // Bare or wrapped, as the world's variants have it.
  const listed = Array.isArray(afterwards.json) ? afterwards.json : (afterwards.json as { pods: unknown[] }).pods;
  assert.deepEqual(listed, [], 'no pod was created');
  assert.equal(remaining(afterwards), remaining(before) - 1, 'the reset request counted against no window');
  assert.match(afterwards.headers[CHAOS_HEADER]!, /reset-before=createPod#1/);
  const created = await call(world, 'POST', '/v2/pods', body);
  const twinCreated = await call(twin, 'POST', '/v2/pods', body);
  assert.equal(created.status, 201, created.text);
  assert.equal((created.json as { id: string }).id, (twinCreated.json as { id: string }).id, 'no id was used by the reset request');
});

test('chaos: a bad option is refused with its name, by the command line and the control surface', async () => {
  assert.deepEqual(parseChaos('7', '--chaos'), { seed: 7 });
  assert.deepEqual(parseChaos('7,real-time,latency=120', '--chaos'), { seed: 7, realTime: true, latencyMs: 120 });
  assert.equal(formatChaos({ seed: 7, realTime: true, latencyMs: 120 }), '7,real-time,latency=120');
  for (const bad of ['', 'x', '-1', '7,fast', '7,latency=x', '7,latency=99999', String(2 ** 31)]) {
    assert.throws(() => parseChaos(bad, 'CPC_EMULATOR_CHAOS'), (e: unknown) => e instanceof ConfigError && e.setting === 'CPC_EMULATOR_CHAOS' && /CPC_EMULATOR_CHAOS is <seed>/.test(e.message), bad);
  }
  for (const chaos of [{}, { seed: 'x' }, { seed: 1, latencyMs: -1 }, { seed: 1, realTime: 'yes' }, { seed: 1, nope: true }, 3]) {
    const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chaos }) });
    const text = await res.body.text();
    assert.equal(res.statusCode, 400, `${JSON.stringify(chaos)}: ${text}`);
    assert.match(text, /chaos/);
  }
});
