// GraphQL templates and secrets: saveTemplate, deleteTemplate (use and delay), secretCreate, secretDelete.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../emulator/server.js';
import { templatesSlice, templateUsages } from '../emulator/state/templates.js';
import { SAVE_ENDPOINT, serverlessTemplate, startHarness, testWorld, type TestWorld } from './graphql-harness.js';

let emu: RunningEmulator;
before(async () => { emu = await startHarness(); });
after(() => emu.close());

const SAVE_TEMPLATE = `mutation($i: PodTemplateInput!) { saveTemplate(input: $i) {
  id name imageName containerDiskInGb volumeInGb dockerArgs env { key value } ports readme volumeMountPath isServerless containerRegistryAuthId } }`;
const DELETE_TEMPLATE = 'mutation($n: String!) { deleteTemplate(templateName: $n) }';
const base = { name: 't1', imageName: 'repo/img:1.0', containerDiskInGb: 10, volumeInGb: 0 };
const save = (t: TestWorld, input: Record<string, unknown>) => t.gql(SAVE_TEMPLATE, { i: input });
const templateCount = (t: TestWorld) => t.world.get(templatesSlice).listByAccount([...t.world.accounts.keys()][0]!).length;

test('saveTemplate creates with defaults and returns env as key/value pairs and ports as sent', async () => {
  const t = testWorld(emu);
  const res = await save(t, { ...base, env: [{ key: 'A', value: '1' }, { key: 'B', value: '' }], ports: '8888/http, 22/tcp', isServerless: true });
  assert.equal(res.status, 200, res.text);
  const tpl = res.body.data!.saveTemplate as Record<string, unknown>;
  assert.deepEqual({ ...tpl, id: 'x' }, {
    id: 'x', name: 't1', imageName: 'repo/img:1.0', containerDiskInGb: 10, volumeInGb: 0, dockerArgs: '',
    env: [{ key: 'A', value: '1' }, { key: 'B', value: '' }], ports: '8888/http, 22/tcp', readme: '', volumeMountPath: '/workspace',
    isServerless: true, containerRegistryAuthId: null,
  });
});

const invalid: [string, Record<string, unknown>, RegExp][] = [
  ['a serverless template with a volume', { isServerless: true, volumeInGb: 10 }, /\/volumeInGb: must be equal to 0/],
  ['ports without a protocol', { ports: '8888' }, /\/ports/],
  ['ports with a trailing comma', { ports: '80/http,' }, /\/ports/],
  ['a container disk of 0', { containerDiskInGb: 0 }, /\/containerDiskInGb/],
  ['a negative volume', { volumeInGb: -1 }, /\/volumeInGb/],
  ['a null env entry', { env: [null] }, /\/env\/0/],
];
for (const [name, change, message] of invalid) {
  test(`saveTemplate refuses ${name}`, async () => {
    const t = testWorld(emu);
    const res = await save(t, { ...base, ...change });
    assert.deepEqual(res.body.data, { saveTemplate: null });
    assert.match(res.body.errors![0]!.message, message);
    assert.equal(templateCount(t), 0);
  });
}

test('template names are unique: a duplicate fails with CONFLICT; an update may keep its own name', async () => {
  const t = testWorld(emu);
  const first = (await save(t, base)).body.data!.saveTemplate as { id: string };
  const dup = await save(t, { ...base, imageName: 'other:2' });
  assert.deepEqual(dup.body.data, { saveTemplate: null });
  assert.equal(dup.body.errors![0]!.extensions?.code, 'CONFLICT');
  const upd = await save(t, { ...base, id: first.id, imageName: 'repo/img:2.0', readme: 'hi' });
  assert.deepEqual([(upd.body.data!.saveTemplate as { id: string }).id, (upd.body.data!.saveTemplate as { imageName: string }).imageName], [first.id, 'repo/img:2.0']);
  await save(t, { ...base, name: 't2' });
  assert.match((await save(t, { ...base, id: first.id, name: 't2' })).body.errors![0]!.message, /already exists/);
  assert.equal(templateCount(t), 2);
  // Another account may use the same name: uniqueness is per account (CHOICES.md).
  assert.equal((await t.gql(SAVE_TEMPLATE, { i: base }, { key: t.keys.other })).body.errors, undefined);
});

test('an update that makes a template serverless while it keeps a volume fails', async () => {
  const t = testWorld(emu);
  const first = (await save(t, { ...base, volumeInGb: 20 })).body.data!.saveTemplate as { id: string };
  const res = await save(t, { ...base, id: first.id, volumeInGb: 20, isServerless: true });
  assert.match(res.body.errors![0]!.message, /volumeInGb/);
  assert.equal((await save(t, { ...base, id: 'tpl-none' })).body.errors![0]!.extensions?.code, 'NOT_FOUND');
});

test('deleteTemplate works by name (not id), refuses while an endpoint uses it, then waits out the 2-minute delay', async () => {
  const t = testWorld(emu);
  const id = await serverlessTemplate(t, 'sls');
  assert.equal((await t.gql(DELETE_TEMPLATE, { n: id })).body.errors![0]!.extensions?.code, 'NOT_FOUND', 'the id is not a name');
  const ep = (await t.ok(SAVE_ENDPOINT, { i: { name: 'e', gpuIds: 'AMPERE_16', templateId: id, workersMax: 0 } })).saveEndpoint as { id: string };
  const inUse = await t.gql(DELETE_TEMPLATE, { n: 'sls' });
  assert.deepEqual(inUse.body.data, { deleteTemplate: null });
  assert.match(inUse.body.errors![0]!.message, new RegExp(`in use by ${ep.id}`));
  t.advance(60_000);
  await t.ok('mutation($id: String!) { deleteEndpoint(id: $id) }', { id: ep.id });
  t.advance(119_999);
  const early = await t.gql(DELETE_TEMPLATE, { n: 'sls' });
  assert.match(early.body.errors![0]!.message, /can be deleted 1 s from now/);
  t.advance(1);
  assert.deepEqual((await t.gql(DELETE_TEMPLATE, { n: 'sls' })).body, { data: { deleteTemplate: null } });
  assert.equal(templateCount(t), 0);
});

test('a never-used template is deleted at once; a pod registered as a user blocks deletion', async () => {
  const t = testWorld(emu);
  await save(t, base);
  assert.deepEqual((await t.gql(DELETE_TEMPLATE, { n: 't1' })).body, { data: { deleteTemplate: null } });
  const id = ((await save(t, { ...base, name: 'for-pod' })).body.data!.saveTemplate as { id: string }).id;
  const usage = (_w: unknown, templateId: string) => (templateId === id ? ['pod_x'] : []);
  templateUsages.push(usage);
  try {
    assert.match((await t.gql(DELETE_TEMPLATE, { n: 'for-pod' })).body.errors![0]!.message, /in use by pod_x/);
  } finally {
    templateUsages.splice(templateUsages.indexOf(usage), 1);
  }
});

test('secretCreate returns id, name, description null; the value never comes back, even in errors', async () => {
  const t = testWorld(emu);
  const value = 'sv-7f3a9c1e-very-secret';
  const created = await t.gql('mutation($i: SecretInput!) { secretCreate(input: $i) { id name description } }', { i: { name: 'db', value } });
  const secret = created.body.data!.secretCreate as { id: string; name: string; description: null };
  assert.equal(secret.name, 'db');
  assert.equal(secret.description, null);
  const answers = [
    created,
    await t.gql('mutation($i: SecretInput!) { secretCreate(input: $i) { id } }', { i: { name: 'db', value } }),
    await t.gql('mutation($i: SecretInput!) { secretCreate(input: $i) { id } }', { i: { name: 5, value } }),
    await t.gql('mutation($i: SecretInput!) { secretCreate(input: $i) { id } }', { i: { value, extra: [value] } }),
    await t.gql(`mutation { secretCreate(input: {name: 5, value: "${value}"}) { id } }`),
    await t.gql(`mutation { secretCreate(input: {name: "n", value: ["${value}"]}) { id } }`),
    await t.gql('mutation($v: Int) { secretCreate(input: {name: "n", value: $v}) { id } }', { v: value }),
    await t.gql('mutation($i: SecretInput!) { secretCreate(input: $i) { id value } }', { i: { name: 'x', value } }),
  ];
  for (const res of answers) assert.ok(!res.text.includes(value) && !res.text.includes('very-secret'), res.text);
  assert.ok(answers.slice(1).every((r) => r.body.errors && r.body.errors.length > 0));
});

test('secretDelete works by id only, for the caller\'s secrets only', async () => {
  const t = testWorld(emu);
  const { id } = (await t.ok('mutation { secretCreate(input: {name: "s1", value: "v"}) { id } }')).secretCreate as { id: string };
  const del = 'mutation($id: String!) { secretDelete(id: $id) }';
  assert.equal((await t.gql(del, { id: 's1' })).body.errors![0]!.extensions?.code, 'NOT_FOUND', 'a name is not an id');
  assert.equal((await t.gql(del, { id }, { key: t.keys.other })).body.errors![0]!.extensions?.code, 'NOT_FOUND');
  assert.deepEqual((await t.gql(del, { id })).body, { data: { secretDelete: null } });
  assert.equal((await t.gql(del, { id })).body.errors![0]!.extensions?.code, 'NOT_FOUND');
});
