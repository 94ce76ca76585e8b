// GraphQL endpoints: saveEndpoint (create, validate, modify), deleteEndpoint, myself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../emulator/server.js';
import { endpointsSlice } from '../emulator/state/endpoints.js';
import { SAVE_ENDPOINT, serverlessTemplate, startHarness, testWorld, type EndpointOut, type TestWorld } from './graphql-harness.js';

let emu: RunningEmulator;
before(async () => { emu = await startHarness(); });
after(() => emu.close());

async function setup(faults: string[] = []): Promise<{ t: TestWorld; templateId: string; base: Record<string, unknown> }> {
  const t = testWorld(emu, faults);
  const templateId = await serverlessTemplate(t);
  return { t, templateId, base: { name: 'ep', gpuIds: 'AMPERE_16', templateId } };
}

const save = async (t: TestWorld, input: Record<string, unknown>) => t.gql(SAVE_ENDPOINT, { i: input });
const saved = async (t: TestWorld, input: Record<string, unknown>): Promise<EndpointOut> =>
  (await t.ok(SAVE_ENDPOINT, { i: input })).saveEndpoint as EndpointOut;
const endpointCount = (t: TestWorld) => t.world.get(endpointsSlice).listByAccount([...t.world.accounts.keys()][0]!).length;

test('saveEndpoint with only the required fields creates a QB endpoint with the documented defaults', async () => {
  const { t, base, templateId } = await setup();
  const e = await saved(t, base);
  assert.match(e.id, /\S/);
  assert.deepEqual({ ...e, id: 'x' }, {
    id: 'x', name: 'ep', gpuIds: 'AMPERE_16', templateId, type: 'QB', idleTimeout: 5, locations: null, flashBootType: null,
    scalerType: 'QUEUE_DELAY', scalerValue: 4, workersMin: 0, workersMax: 3, networkVolumeId: null,
  });
  // The serverless job operations see it at once through the shared store.
  assert.equal(t.world.get(endpointsSlice).get(e.id)?.type, 'QB');
});

test('every allowed gpuIds, location and scalerType is accepted and returned as sent', async () => {
  const { t, base } = await setup();
  for (const gpuIds of ['AMPERE_16', 'AMPERE_24', 'ADA_24', 'AMPERE_48', 'ADA_48_PRO', 'AMPERE_80', 'ADA_80_PRO']) {
    assert.equal((await saved(t, { ...base, gpuIds })).gpuIds, gpuIds);
  }
  for (const locations of ['CZ', 'FR', 'GB', 'NO', 'RO', 'US']) assert.equal((await saved(t, { ...base, locations })).locations, locations);
  for (const locations of ['', null]) assert.equal((await saved(t, { ...base, locations })).locations, null);
  for (const scalerType of ['QUEUE_DELAY', 'REQUEST_COUNT']) assert.equal((await saved(t, { ...base, scalerType })).scalerType, scalerType);
  const lb = await saved(t, { ...base, type: 'LB', flashBootType: 'FLASHBOOT', idleTimeout: 60, scalerValue: 2, workersMin: 1, workersMax: 7, networkVolumeId: 'nv-1' });
  assert.deepEqual([lb.type, lb.flashBootType, lb.idleTimeout, lb.scalerValue, lb.workersMin, lb.workersMax, lb.networkVolumeId],
    ['LB', 'FLASHBOOT', 60, 2, 1, 7, 'nv-1']);
});

const invalid: [string, Record<string, unknown>, RegExp][] = [
  ['gpuIds outside the allowed values', { gpuIds: 'H100' }, /\/gpuIds/],
  ['a lower-case gpuIds', { gpuIds: 'ampere_16' }, /\/gpuIds/],
  ['an unknown location', { locations: 'DE' }, /\/locations/],
  ['a list of locations', { locations: 'US,FR' }, /\/locations/],
  ['an unknown scalerType', { scalerType: 'CPU' }, /\/scalerType/],
  ['a type other than QB and LB', { type: 'XX' }, /\/type/],
  ['negative workersMin', { workersMin: -1 }, /\/workersMin/],
  ['workersMax over 100', { workersMax: 101 }, /\/workersMax/],
  ['workersMin above workersMax', { workersMin: 5, workersMax: 2 }, /must not exceed workersMax/],
  ['a negative idleTimeout', { idleTimeout: -1 }, /\/idleTimeout/],
  ['scalerValue 0', { scalerValue: 0 }, /\/scalerValue/],
  ['an unknown template', { templateId: 'tpl-none' }, /No template/],
];
for (const [name, change, message] of invalid) {
  test(`saveEndpoint refuses ${name}: errors[], data.saveEndpoint null, nothing created`, async () => {
    const { t, base } = await setup();
    const res = await save(t, { ...base, ...change });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { saveEndpoint: null });
    assert.equal(res.body.errors?.length, 1);
    assert.match(res.body.errors![0]!.message, message);
    assert.equal(res.body.errors![0]!.extensions?.code, 'BAD_USER_INPUT');
    assert.deepEqual(res.body.errors![0]!.path, ['saveEndpoint']);
    assert.equal(endpointCount(t), 0);
  });
}

test('saveEndpoint without a required field fails GraphQL validation (400), nothing created', async () => {
  const { t, base } = await setup();
  for (const missing of ['name', 'gpuIds', 'templateId']) {
    const { [missing]: _gone, ...input } = base;
    const res = await save(t, input);
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.errors![0]!.message, new RegExp(`Field "${missing}" of required type "String!" was not provided`));
  }
  assert.equal(endpointCount(t), 0);
});

test('a template that is not serverless, or of another account, cannot carry an endpoint', async () => {
  const { t, base } = await setup();
  const pod = await t.ok('mutation { saveTemplate(input: {name: "pod-tpl", imageName: "i:1", containerDiskInGb: 5, volumeInGb: 20}) { id } }');
  const res = await save(t, { ...base, templateId: (pod.saveTemplate as { id: string }).id });
  assert.match(res.body.errors![0]!.message, /not a serverless template/);
  const theirs = await t.gql('mutation { saveTemplate(input: {name: "x", imageName: "i:1", containerDiskInGb: 5, volumeInGb: 0, isServerless: true}) { id } }', undefined, { key: t.keys.other });
  const other = await save(t, { ...base, templateId: (theirs.body.data!.saveTemplate as { id: string }).id });
  assert.match(other.body.errors![0]!.message, /No template/);
});

test('saveEndpoint with id modifies: changed fields applied, omitted optional fields kept, type not reset by its default', async () => {
  const { t, base } = await setup();
  const e = await saved(t, { ...base, type: 'LB', locations: 'US', idleTimeout: 30, workersMax: 5, flashBootType: 'FLASHBOOT' });
  const u = await saved(t, { ...base, id: e.id, gpuIds: 'ADA_24', workersMin: 2 });
  assert.equal(u.id, e.id);
  assert.deepEqual([u.gpuIds, u.workersMin, u.type, u.locations, u.idleTimeout, u.workersMax, u.flashBootType], ['ADA_24', 2, 'LB', 'US', 30, 5, 'FLASHBOOT']);
  // An explicit null clears the clearable fields; null elsewhere keeps.
  const c = await saved(t, { ...base, id: e.id, locations: null, flashBootType: null, idleTimeout: null });
  assert.deepEqual([c.locations, c.flashBootType, c.idleTimeout], [null, null, 30]);
  assert.equal(endpointCount(t), 1);
  // The update is checked against the merged record: workersMin over the kept workersMax fails.
  assert.match((await save(t, { ...base, id: e.id, workersMin: 9 })).body.errors![0]!.message, /must not exceed workersMax/);
});

test('another account\'s endpoint cannot be modified, deleted or listed', async () => {
  const { t, base } = await setup();
  const e = await saved(t, { ...base, workersMax: 0 });
  const other = testWorldKeyless(t);
  for (const q of [
    other(SAVE_ENDPOINT, { i: { ...base, id: e.id, name: 'stolen' } }),
    other('mutation($id: String!) { deleteEndpoint(id: $id) }', { id: e.id }),
  ]) {
    const res = await q;
    assert.match(res.body.errors![0]!.message, /No endpoint/);
    assert.equal(res.body.errors![0]!.extensions?.code, 'NOT_FOUND');
  }
  const mine = await other('{ myself { endpoints { id } } }');
  assert.deepEqual(mine.body.data, { myself: { endpoints: [] } });
  assert.equal(t.world.get(endpointsSlice).get(e.id)?.name, 'ep');
});
const testWorldKeyless = (t: TestWorld) => (q: string, v?: unknown) => t.gql(q, v, { key: t.keys.other });

test('deleteEndpoint only when workersMin and workersMax are both 0; then it answers null and myself no longer lists it', async () => {
  const { t, base } = await setup();
  const e = await saved(t, { ...base, workersMin: 1, workersMax: 2 });
  const del = 'mutation($id: String!) { deleteEndpoint(id: $id) }';
  for (const workers of [{ workersMin: 1, workersMax: 2 }, { workersMin: 0, workersMax: 2 }]) {
    await saved(t, { ...base, id: e.id, ...workers });
    const res = await t.gql(del, { id: e.id });
    assert.deepEqual(res.body.data, { deleteEndpoint: null });
    assert.equal(res.body.errors![0]!.extensions?.code, 'CONFLICT');
    assert.match(res.body.errors![0]!.message, /scale both to 0/);
  }
  await saved(t, { ...base, id: e.id, workersMin: 0, workersMax: 0 });
  const ok = await t.gql(del, { id: e.id });
  assert.deepEqual(ok.body, { data: { deleteEndpoint: null } });
  assert.deepEqual(await t.ok('{ myself { endpoints { id } } }'), { myself: { endpoints: [] } });
  assert.equal((await t.gql(del, { id: e.id })).body.errors![0]!.extensions?.code, 'NOT_FOUND');
});

test('myself lists the caller\'s endpoints with pods (desiredStatus) and a null serverlessDiscount', async () => {
  const { t, base } = await setup();
  const a = await saved(t, { ...base, workersMin: 2 });
  const data = await t.ok('{ myself { id endpoints { id pods { desiredStatus } } serverlessDiscount { discountFactor type expirationDate } } }');
  const me = data.myself as { id: string; endpoints: { id: string; pods: { desiredStatus: string }[] }[]; serverlessDiscount: null };
  assert.equal(me.serverlessDiscount, null);
  assert.deepEqual(me.endpoints.map((e) => e.id), [a.id]);
  assert.ok(me.endpoints[0]!.pods.every((p) => typeof p.desiredStatus === 'string'));
});
