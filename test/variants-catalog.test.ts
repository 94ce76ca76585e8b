// @own-process: starts the standalone emulator as a process.
// The variant catalog (emulator/variants.ts), its control surface, and what each variant
// changes in the emulator's answers (and what it leaves alone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { expandVariants, variantCatalog, variantSets, variantSurfaces } from '../emulator/variants.js';
import type { VariantId } from '../emulator/switches.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

let emu: RunningEmulator;
before(async () => { emu = await startEmulator({ port: 0 }); });
after(() => emu.close());

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; json: Loose }> {
  const res = await request(emu.url + path, {
    method: method as 'GET',
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** A world with these variants; `call` sends with its main key. */
async function worldWith(variants: string[], faults: string[] = []) {
  const info = (await send('POST', '/__emulator/worlds', { variants, faults, quotas: { minute: 1e6, hour: 1e7, day: 1e8 } })).json;
  const auth = { authorization: `Bearer ${info.keys.main}` };
  return {
    info,
    call: (method: string, path: string, body?: unknown) => send(method, path, body, auth),
    advance: (ms: number) => send('POST', `/__emulator/worlds/${info.id}/clock`, { advanceMs: ms }),
    graphql: (query: string) => send('POST', `/graphql?api_key=${info.keys.main}`, { query }),
  };
}

const GPU = { name: 'variant', image: 'busybox:1.36', gpu: { id: 'NVIDIA GeForce RTX 4090' } };

test('every variant names the choice it switches, a description and its surfaces; sets hold catalog variants', () => {
  for (const [id, v] of Object.entries(variantCatalog)) {
    assert.match(v.choice, /(CHOICES|README)\.md/, id);
    assert.ok(v.description.length > 20, id);
    assert.ok(v.surfaces.length > 0, id);
  }
  for (const [name, ids] of Object.entries(variantSets)) {
    assert.ok(!Object.hasOwn(variantCatalog, name), `set ${name} shadows a variant`);
    for (const id of ids) assert.ok(Object.hasOwn(variantCatalog, id), `${name}: ${id}`);
  }
});

test('the CHOICES tables and the emulator README list every variant beside its choice', () => {
  const docs = ['emulator/README.md', 'emulator/pods/CHOICES.md', 'emulator/serverless/CHOICES.md', 'emulator/graphql/CHOICES.md']
    .map((f) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8')).join('\n');
  for (const id of [...Object.keys(variantCatalog), ...Object.keys(variantSets)]) assert.ok(docs.includes(`\`${id}\``), `${id} is documented`);
});

test('set names expand to their variants; unknown names come back apart', () => {
  assert.deepEqual(expandVariants(['live', 'lists.bare', 'nope']), { ids: [...variantSets.live!, 'lists.bare'], unknown: ['nope'] });
  assert.deepEqual(variantSurfaces(['graphql.errors-400']), ['graphql']);
});

test('control surface: GET /variants, a world created with a set, PUT replaces, unknown names and bad bodies are 400 problems', async () => {
  const listed = (await send('GET', '/__emulator/variants')).json;
  assert.deepEqual(listed.variants.map((v: Loose) => v.id), Object.keys(variantCatalog));
  assert.deepEqual(listed.sets.find((s: Loose) => s.id === 'live').variants, variantSets.live);
  assert.deepEqual((await send('GET', '/__emulator')).json.variants, Object.keys(variantCatalog));
  const w = await worldWith(['live']);
  assert.deepEqual(w.info.variants, variantSets.live);
  const put = await send('PUT', `/__emulator/worlds/${w.info.id}/variants`, { variants: ['lists.bare'] });
  assert.equal(put.status, 200);
  assert.deepEqual(put.json.variants, ['lists.bare']);
  assert.deepEqual((await send('GET', `/__emulator/worlds/${w.info.id}`)).json.variants, ['lists.bare']);
  for (const [path, method, body] of [['/__emulator/worlds', 'POST', { variants: ['no.such'] }], [`/__emulator/worlds/${w.info.id}/variants`, 'PUT', { variants: ['no.such'] }]] as const) {
    const res = await send(method, path, body);
    assert.equal(res.status, 400);
    assert.match(String(res.headers['content-type']), /problem\+json/);
    assert.deepEqual(res.json.errors, ['/variants: unknown variant "no.such"']);
  }
  assert.equal((await send('PUT', `/__emulator/worlds/${w.info.id}/variants`, { variants: 'live' })).status, 400);
  assert.deepEqual((await send('GET', `/__emulator/worlds/${w.info.id}`)).json.variants, ['lists.bare'], 'a refused change changes nothing');
});

test('lists: wrapped by default (the live shapes), bare arrays with lists.bare', async () => {
  for (const [variants, wrap] of [[[], true], [['lists.bare'], false]] as const) {
    const w = await worldWith([...variants]);
    for (const [path, member] of [['/v2/pods', 'pods'], ['/v2/catalog/gpus', 'gpus'], ['/v2/catalog/cpus', 'cpus'], ['/v2/catalog/datacenters', 'dataCenters'], ['/v2/network-volumes', 'networkVolumes']]) {
      const body = (await w.call('GET', path!)).json;
      if (wrap) assert.deepEqual(Object.keys(body), [member], path);
      else assert.ok(Array.isArray(body), path);
    }
  }
});

test('catalog entries: the live fields by default, the earlier values with catalog.scalar-fields, the earlier fields with catalog.emulator-fields (also beside scalar-fields), no vcpu range with catalog.cpu-no-vcpu-range', async () => {
  const live = await worldWith([]);
  const liveGpu = (await live.call('GET', '/v2/catalog/gpus/NVIDIA%20L40S')).json;
  assert.deepEqual([liveGpu.price, liveGpu.maxCount], [{ secure: 0.86, community: 0.79, serverless: 1.9 }, { secure: 8, community: 8 }]);
  assert.deepEqual((await live.call('GET', '/v2/catalog/cpus/cpu3c')).json.price, { securePerVcpu: 0.03, serverlessPerVcpu: 0.04 });
  assert.equal((await live.call('GET', '/v2/catalog/datacenters/US-TX-3')).json.region, 'NORTH_AMERICA');
  const scalar = await worldWith(['catalog.scalar-fields']);
  const scalarGpu = (await scalar.call('GET', '/v2/catalog/gpus/NVIDIA%20L40S')).json;
  assert.deepEqual(Object.keys(scalarGpu), Object.keys(liveGpu), 'the same fields');
  assert.deepEqual([scalarGpu.price, scalarGpu.maxCount], [0.86, 8]);
  assert.equal((await scalar.call('GET', '/v2/catalog/cpus/cpu3c')).json.price, 0.03);
  assert.equal((await scalar.call('GET', '/v2/catalog/datacenters/US-TX-3')).json.region, 'US');
  const earlier = await worldWith(['emulator-0.1']);
  assert.deepEqual(earlier.info.variants, ['lists.bare', 'catalog.emulator-fields', 'catalog.scalar-fields']);
  assert.deepEqual(Object.keys((await earlier.call('GET', '/v2/catalog/gpus')).json[0]), ['id', 'displayName', 'manufacturer', 'memoryInGb', 'maxGpuCount', 'securePrice', 'communityPrice']);
  assert.deepEqual(Object.keys((await earlier.call('GET', '/v2/catalog/cpus/cpu3c')).json), ['id', 'displayName', 'vcpu', 'ramGbPerVcpu', 'pricePerVcpu']);
  assert.deepEqual(Object.keys((await earlier.call('GET', '/v2/catalog/datacenters/US-TX-3')).json), ['id', 'name', 'globalNetwork']);
  const noRange = await worldWith(['catalog.cpu-no-vcpu-range']);
  assert.ok((await noRange.call('GET', '/v2/catalog/cpus')).json.cpus.every((c: Loose) => !('vcpu' in c) && typeof c.ramGbPerVcpu === 'number'));
  const cpuPod = await noRange.call('POST', '/v2/pods', { name: 'c', image: 'busybox:1.36', cpu: { id: 'cpu5g', vcpuCount: 2 } });
  assert.equal(cpuPod.status, 400, 'the flavor still has its range; only the catalog does not show it');
});

test('validation.422: a body that breaks the schema answers 422; rules across fields and handler conflicts stay 400', async () => {
  const w = await worldWith(['validation.422']);
  const unknown = await w.call('POST', '/v2/pods', { ...GPU, colour: 'blue' });
  assert.equal(unknown.status, 422);
  assert.deepEqual(unknown.json.errors, ['/colour: unknown property "colour" is not allowed']);
  assert.equal((await w.call('POST', '/v2/pods', { ...GPU, gpu: { id: GPU.gpu.id, count: 0 } })).status, 422);
  assert.equal((await w.call('POST', '/v2/pods', { ...GPU, cpu: { id: 'cpu3c', vcpuCount: 2 } })).status, 400, 'both gpu and cpu');
  assert.equal((await w.call('POST', '/v2/pods', { ...GPU, mounts: { persistent: { size: 10, path: '/p' }, network: [{ volumeId: 'v', path: '/n' }] } })).status, 400, 'both mount kinds');
  assert.equal((await w.call('POST', '/v2/pods', { ...GPU, gpu: { id: 'NVIDIA Nothing' } })).status, 400, 'a GPU outside the catalog');
  assert.equal((await w.call('POST', '/v2/pods', { ...GPU, mounts: { persistent: { size: 10 } } })).status, 422, 'an incomplete mount entry, as always');
  const plain = await worldWith([]);
  assert.equal((await plain.call('POST', '/v2/pods', { ...GPU, colour: 'blue' })).status, 400, 'the default');
  const faulty = await worldWith(['validation.422'], ['pods.incomplete-mount-400']);
  assert.equal((await faulty.call('POST', '/v2/pods', { ...GPU, mounts: { persistent: { size: 10 } } })).status, 400, 'a fault still breaks its rule with the variant on');
});

test('pods.terminate-deletes removes the pod; pods.locked-lists-actions lists stop on a locked pod and still refuses it', async () => {
  const w = await worldWith(['pods.terminate-deletes', 'pods.locked-lists-actions']);
  const id = (await w.call('POST', '/v2/pods', GPU)).json.id;
  await w.advance(60_000);
  const locked = await w.call('PATCH', `/v2/pods/${id}`, { locked: true });
  assert.deepEqual(locked.json.actions, ['stop', 'restart', 'terminate']);
  assert.equal((await w.call('POST', `/v2/pods/${id}/action`, { action: 'stop' })).status, 409);
  assert.equal((await w.call('GET', `/v2/pods/${id}`)).json.status, 'RUNNING');
  assert.equal((await w.call('POST', `/v2/pods/${id}/action`, { action: 'terminate' })).status, 204);
  assert.equal((await w.call('GET', `/v2/pods/${id}`)).status, 404);
  assert.deepEqual((await w.call('GET', '/v2/pods')).json, { pods: [] });
});

test('jobs: /run and /runsync answer 201 or 202 with jobs.submit-201 / -202; jobs.sync-prefix-other gives rs_ ids', async () => {
  for (const [variant, status] of [['jobs.submit-201', 201], ['jobs.submit-202', 202]] as const) {
    const w = await worldWith([variant, 'jobs.sync-prefix-other']);
    const endpoint = w.info.seeded.CPC_ENDPOINT_ID;
    const run = await w.call('POST', `/v2/${endpoint}/run`, { input: {} });
    assert.equal(run.status, status);
    assert.doesNotMatch(run.json.id, /^rs_/);
    const sync = await w.call('POST', `/v2/${endpoint}/runsync`, { input: {} });
    assert.equal(sync.status, status);
    assert.match(sync.json.id, /^rs_/);
    assert.equal(sync.json.status, 'COMPLETED');
  }
});

test('ratelimit.rest-v2-only: headers on REST v2 answers only', async () => {
  const w = await worldWith(['ratelimit.rest-v2-only']);
  assert.ok((await w.call('GET', '/v2/pods')).headers['ratelimit']);
  const endpoint = w.info.seeded.CPC_ENDPOINT_ID;
  assert.equal((await w.call('GET', `/v2/${endpoint}/health`)).headers['ratelimit'], undefined);
  assert.equal((await w.graphql('{ myself { id } }')).headers['ratelimit'], undefined);
});

test('description.deprecation-prose: the live form, persistent a $ref to a schema whose prose deprecates it', async () => {
  const keyword = JSON.stringify((await (await worldWith([])).call('GET', '/v2/openapi.json')).json);
  const doc = (await (await worldWith(['description.deprecation-prose'])).call('GET', '/v2/openapi.json')).json;
  assert.match(keyword, /"deprecated":true/);
  assert.doesNotMatch(JSON.stringify(doc), /"deprecated":/);
  assert.match(doc.components.schemas.PersistentMount.description, /Deprecated: prefer NetworkMount for any data you cannot recreate\.$/);
  assert.match(JSON.stringify(doc), /"persistent":\{"\$ref":"#\/components\/schemas\/PersistentMount"\}/);
});

test('graphql.errors-400: a refused operation answers 400 with errors and data; a success stays 200', async () => {
  const w = await worldWith(['graphql.errors-400']);
  const refused = await w.graphql('mutation { deleteTemplate(templateName: "none-such") }');
  assert.equal(refused.status, 400);
  assert.equal(refused.json.data.deleteTemplate, null);
  assert.ok(refused.json.errors.length > 0);
  assert.equal((await w.graphql('{ myself { id } }')).status, 200);
});

test('variants are per world: another world keeps the defaults', async () => {
  const on = await worldWith(Object.keys(variantCatalog) as VariantId[]);
  const off = await worldWith([]);
  assert.ok(Array.isArray((await on.call('GET', '/v2/pods')).json));
  assert.deepEqual((await off.call('GET', '/v2/pods')).json, { pods: [] });
});

/** Runs `npm run emulator` (emulator/main.ts) with `args` until its first lines or its exit. */
function emulatorProcess(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string; world?: Loose }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', ...args], { cwd: new URL('..', import.meta.url), env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    let world: Loose;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const url = /CPC_BASE_URL=(\S+)/.exec(out)?.[1];
      if (!out.includes('control surface') || !url) return;
      // The default world as the control surface describes it, then stop.
      void request(`${url}/__emulator/worlds/default`).then((r) => r.body.json()).then((w) => { world = w; }, () => undefined).finally(() => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d: Buffer) => { err += d; });
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, out, err, world }); });
  });
}

test('npm run emulator: --variants and CPC_EMULATOR_VARIANTS switch the default world; an unknown name exits 2 naming it', async () => {
  const bad = await emulatorProcess(['--variants', 'live,no.such']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown variant\(s\): no\.such/);
  assert.doesNotMatch(bad.err, /\n\s+at /, 'no stack trace');
  const flag = await emulatorProcess(['--variants', 'live']);
  assert.match(flag.out, /variants live/);
  assert.deepEqual(flag.world?.variants, variantSets.live);
  const env = await emulatorProcess([], { CPC_EMULATOR_VARIANTS: 'lists.bare' });
  assert.match(env.out, /variants lists\.bare/);
  assert.deepEqual(env.world?.variants, ['lists.bare']);
});
