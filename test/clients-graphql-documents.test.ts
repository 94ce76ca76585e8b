// The GraphQL documents the platform's Python SDK sends (platform-notes, "GraphQL fields the
// official Python SDK sends"), written the way it writes them (literals inline, no variables),
// against the emulator: every field of the notes is sent or selected, and the results checked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../emulator/server.js';
import { volumesSlice } from '../emulator/pods/volumes.js';
import { startHarness, testWorld, type TestWorld } from './graphql-harness.js';

let emu: RunningEmulator;
let t: TestWorld;
before(async () => { emu = await startHarness(); t = testWorld(emu); });
after(() => emu.close());

type Row = Record<string, unknown>;

/** The Python SDK's `saveTemplate` document: every input field, `containerRegistryAuthId: ""` for none. */
const saveTemplate = (name: string, isServerless: boolean): string => `mutation {
  saveTemplate(input: {
    name: "${name}", imageName: "runpod/worker:1.0", dockerArgs: "python -u handler.py",
    containerDiskInGb: 10, volumeInGb: 0, volumeMountPath: "/workspace", ports: "8888/http, 22/tcp",
    env: [{ key: "MODEL", value: "tiny" }, { key: "MODE", value: "fast" }],
    isServerless: ${isServerless}, startSsh: true, isPublic: false, readme: "# ${name}", containerRegistryAuthId: ""
  }) { id name imageName dockerArgs containerDiskInGb volumeInGb volumeMountPath ports env { key value } isServerless startSsh isPublic readme containerRegistryAuthId }
}`;

/** The Python SDK's `saveEndpoint` document, with `gpuCount`, `allowedCudaVersions` and `flashBootType`. */
const saveEndpoint = (name: string, templateId: string, networkVolumeId: string, locations: string): string => `mutation {
  saveEndpoint(input: {
    name: "${name}", templateId: "${templateId}", gpuIds: "AMPERE_16", networkVolumeId: "${networkVolumeId}", locations: "${locations}",
    idleTimeout: 5, scalerType: "QUEUE_DELAY", scalerValue: 4, workersMin: 0, workersMax: 3,
    flashBootType: FLASHBOOT, allowedCudaVersions: "12.1,12.4", gpuCount: 2
  }) { id name templateId gpuIds networkVolumeId locations idleTimeout scalerType scalerValue workersMin workersMax flashBootType allowedCudaVersions gpuCount }
}`;

/** The Python SDK's `get_endpoints` document. */
const MYSELF_ENDPOINTS = `query Query { myself { endpoints {
  aiKey gpuIds id idleTimeout name networkVolumeId locations scalerType scalerValue templateId type userId version
  workersMax workersMin workersStandby gpuCount env { key value } createdAt networkVolume { id dataCenterId }
} } }`;

async function templateId(name: string): Promise<string> {
  const data = await t.ok(saveTemplate(name, true));
  return (data.saveTemplate as Row).id as string;
}

test('saveTemplate with startSsh, isPublic, readme and containerRegistryAuthId "" answers every field', async () => {
  const data = await t.ok(saveTemplate('sdk-template', false));
  const tpl = data.saveTemplate as Row;
  assert.match(String(tpl.id), /\S/);
  assert.deepEqual({ ...tpl, id: undefined }, {
    id: undefined, name: 'sdk-template', imageName: 'runpod/worker:1.0', dockerArgs: 'python -u handler.py', containerDiskInGb: 10, volumeInGb: 0,
    volumeMountPath: '/workspace', ports: '8888/http, 22/tcp', env: [{ key: 'MODEL', value: 'tiny' }, { key: 'MODE', value: 'fast' }],
    isServerless: false, startSsh: true, isPublic: false, readme: '# sdk-template', containerRegistryAuthId: null,
  });
  const again = await t.gql(saveTemplate('sdk-template', false));
  assert.equal(again.body.errors?.[0]?.extensions?.code, 'CONFLICT', 'the spec rules still apply: template names are unique');
});

test('saveEndpoint with gpuCount, allowedCudaVersions, flashBootType and networkVolumeId/locations "" meaning none', async () => {
  const tpl = await templateId('sdk-serverless');
  const data = await t.ok(saveEndpoint('sdk-endpoint', tpl, '', ''));
  const ep = data.saveEndpoint as Row;
  assert.deepEqual({ ...ep, id: undefined }, {
    id: undefined, name: 'sdk-endpoint', templateId: tpl, gpuIds: 'AMPERE_16', networkVolumeId: null, locations: null, idleTimeout: 5,
    scalerType: 'QUEUE_DELAY', scalerValue: 4, workersMin: 0, workersMax: 3, flashBootType: 'FLASHBOOT', allowedCudaVersions: '12.1,12.4', gpuCount: 2,
  });
  for (const [field, value] of [['gpuCount', '0'], ['allowedCudaVersions', '"twelve"']] as const) {
    const bad = await t.gql(saveEndpoint('sdk-bad', tpl, '', '').replace(new RegExp(`${field}: ("[^"]*"|[^,\\n}]+)`), `${field}: ${value}`));
    assert.equal(bad.body.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', field);
    assert.match(bad.body.errors?.[0]?.message ?? '', new RegExp(`/${field}`));
  }
});

test('myself { endpoints { ... } } selects every field the Python SDK reads', async () => {
  const tpl = await templateId('sdk-listed');
  const account = t.world.keys.get(t.keys.main)!.accountId;
  const volume = t.world.get(volumesSlice).create(account, { name: 'sdk-vol', size: 50, dataCenter: 'EU-SE-1', type: 'STANDARD' });
  const created = (await t.ok(saveEndpoint('sdk-listed', tpl, volume.id, 'US'))).saveEndpoint as Row;
  const data = await t.ok(MYSELF_ENDPOINTS);
  const ep = ((data.myself as Row).endpoints as Row[]).find((e) => e.id === created.id)!;
  assert.ok(ep, 'the new endpoint is listed');
  assert.equal(ep.aiKey, null);
  assert.equal(ep.userId, account);
  assert.equal(ep.version, 0);
  assert.equal(ep.workersStandby, 0);
  assert.equal(ep.gpuCount, 2);
  assert.equal(ep.type, 'QB');
  assert.deepEqual(ep.env, [{ key: 'MODEL', value: 'tiny' }, { key: 'MODE', value: 'fast' }], "the template's environment");
  assert.ok(!Number.isNaN(Date.parse(String(ep.createdAt))) && /Z$/.test(String(ep.createdAt)), 'createdAt is RFC 3339');
  assert.deepEqual(ep.networkVolume, { id: volume.id, dataCenterId: 'EU-SE-1' });
  assert.equal(ep.locations, 'US');
  const none = ((data.myself as Row).endpoints as Row[]).find((e) => e.name === 'sdk-endpoint');
  assert.equal(none?.networkVolume, null, 'no volume: null');
});

test('updateEndpointTemplate moves the endpoint to another template and returns it; unknown ids fail in errors[]', async () => {
  const first = await templateId('sdk-first');
  const second = await templateId('sdk-second');
  const ep = (await t.ok(saveEndpoint('sdk-moving', first, '', ''))).saveEndpoint as Row;
  const moved = await t.ok(`mutation { updateEndpointTemplate(input: { endpointId: "${String(ep.id)}", templateId: "${second}" }) { id templateId } }`);
  assert.deepEqual(moved.updateEndpointTemplate, { id: ep.id, templateId: second });
  const listed = ((await t.ok(MYSELF_ENDPOINTS)).myself as Row).endpoints as Row[];
  const after = listed.find((e) => e.id === ep.id)!;
  assert.equal(after.templateId, second);
  assert.equal(after.version, 1, 'a template change counts as a new version');
  for (const [endpointId, tpl, code] of [['ep-none', second, 'NOT_FOUND'], [String(ep.id), 'tpl-none', 'BAD_USER_INPUT']] as const) {
    const res = await t.gql(`mutation { updateEndpointTemplate(input: { endpointId: "${endpointId}", templateId: "${tpl}" }) { id } }`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data?.updateEndpointTemplate, null);
    assert.equal(res.body.errors?.[0]?.extensions?.code, code);
  }
});

test('variables {} and null, and Authorization: Bearer, work as clients send them', async () => {
  for (const variables of [{}, null]) {
    const res = await t.gql('query { myself { id } }', variables);
    assert.equal(res.status, 200, JSON.stringify(variables));
    assert.equal(typeof (res.body.data?.myself as Row | undefined)?.id, 'string');
  }
  const bearer = await t.gql('query { myself { id } }', undefined, { bearer: t.keys.main });
  assert.equal(bearer.status, 200);
  assert.equal((bearer.body.data?.myself as Row).id, t.world.keys.get(t.keys.main)!.accountId);
});
