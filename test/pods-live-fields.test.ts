// The live platform's pod fields (platform-notes) in the emulator: accepted besides the spec's,
// checked by their own schema, answered on every pod; pod logs as server-sent events; 405 with Allow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { validate } from '../lib/schema-registry.js';
import { HOST_CUDA_VERSIONS } from '../emulator/pods/cuda.js';
import { podsHarness, GPU, AMD, CPU, type PodsHarness } from './pods-harness.js';

let h: PodsHarness;
before(async () => { h = await podsHarness(); });
after(() => h.close());

const RUNNING_AFTER = 15_000;
const newest = HOST_CUDA_VERSIONS[HOST_CUDA_VERSIONS.length - 1];

async function raw(method: string, path: string, accept = 'text/event-stream'): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const res = await request(h.url + path, { method: method as 'GET', headers: { authorization: `Bearer ${h.keys.main}`, accept } });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** The `data` of each event of a server-sent event stream. */
const events = (text: string): { source: string; line: string; ts: string }[] =>
  text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
    return JSON.parse(data) as { source: string; line: string; ts: string };
  });

async function template(name: string, isServerless = false): Promise<string> {
  const res = await request(`${h.url}/graphql`, {
    method: 'POST', headers: { authorization: `Bearer ${h.keys.main}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($i: PodTemplateInput!) { saveTemplate(input: $i) { id } }', variables: { i: { name, imageName: 'busybox:1', containerDiskInGb: 5, volumeInGb: 0, isServerless } } }),
  });
  const json = (await res.body.json()) as { data: { saveTemplate: { id: string } } };
  return json.data.saveTemplate.id;
}

test('createPod takes the live fields: startSsh, startJupyter, templateId and the CUDA constraints in gpu', async () => {
  const tpl = await template('live-pod-template');
  const res = await h.call('POST', '/v2/pods', { ...GPU, ports: ['22/tcp', '8888/http'], templateId: tpl, startSsh: true, startJupyter: true, gpu: { ...GPU.gpu, minCudaVersion: '12.2' } });
  assert.equal(res.status, 201, JSON.stringify(res.json));
  assert.equal(res.json.template, tpl);
  assert.equal(res.json.cudaVersion, newest);
  assert.deepEqual(res.json.ssh, { proxy: null, direct: null }, 'no SSH before the pod runs');
  assert.ok(validate('pod', res.json).valid && validate('pod-live-fields', res.json).valid);
  await h.advance(RUNNING_AFTER);
  const got = await h.call('GET', `/v2/pods/${res.json.id}`);
  assert.equal(got.json.status, 'RUNNING');
  assert.equal(got.json.ssh.proxy.port, 22);
  assert.match(got.json.ssh.proxy.command, /^ssh \S+@\S+ -i /);
  assert.equal(got.json.ssh.direct.username, 'root');
  const port22 = got.json.runtime.ports.find((p: { private: number }) => p.private === 22);
  assert.equal(got.json.ssh.direct.port, port22.public, 'direct SSH uses the public port of 22/tcp');
  assert.equal(got.json.ssh.direct.host, port22.ip);
  assert.ok(validate('pod-live-fields', got.json).valid);
});

test('CUDA: an exact set picks the newest allowed host version; no match, both constraints, or a non-NVIDIA GPU are 400', async () => {
  const exact = await h.call('POST', '/v2/pods', { ...GPU, gpu: { ...GPU.gpu, allowedCudaVersions: ['12.1', '12.4'] } });
  assert.equal(exact.json.cudaVersion, '12.4');
  const emptySetWithFloor = await h.call('POST', '/v2/pods', { ...GPU, gpu: { ...GPU.gpu, allowedCudaVersions: [], minCudaVersion: '12.6' } });
  assert.equal(emptySetWithFloor.json.cudaVersion, newest);
  for (const [gpu, pointer] of [
    [{ ...GPU.gpu, allowedCudaVersions: ['10.0'] }, '/gpu/allowedCudaVersions'],
    [{ ...GPU.gpu, minCudaVersion: '99.0' }, '/gpu/minCudaVersion'],
    [{ ...GPU.gpu, minCudaVersion: 'twelve' }, '/gpu/minCudaVersion'],
    [{ ...GPU.gpu, allowedCudaVersions: ['12.4'], minCudaVersion: '12.1' }, '/gpu/minCudaVersion'],
    [{ ...AMD.gpu, minCudaVersion: '12.1' }, '/gpu/id'],
  ] as const) {
    const res = await h.call('POST', '/v2/pods', { ...GPU, gpu });
    assert.equal(res.status, 400, JSON.stringify(gpu));
    assert.match(res.json.errors.join(' '), new RegExp(`^${pointer}:`), JSON.stringify(res.json));
  }
  const amd = await h.call('POST', '/v2/pods', AMD);
  assert.equal(amd.json.cudaVersion, null);
  const cpu = await h.call('POST', '/v2/pods', { ...CPU, startSsh: true });
  assert.equal(cpu.status, 201);
  assert.equal(cpu.json.cudaVersion, null);
});

test('live fields of the wrong type are refused with their pointer; other unknown names still are, in gpu too', async () => {
  for (const [body, pointer] of [
    [{ ...GPU, startSsh: 'yes' }, '/startSsh'],
    [{ ...GPU, templateId: '' }, '/templateId'],
    [{ ...GPU, gpu: { ...GPU.gpu, allowedCudaVersions: '12.4' } }, '/gpu/allowedCudaVersions'],
    [{ ...GPU, startSSH: true }, '/startSSH'],
    [{ ...GPU, gpu: { ...GPU.gpu, minRamPerGpu: 8 } }, '/gpu/minRamPerGpu'],
    [{ ...CPU, cpu: { ...CPU.cpu, minCudaVersion: '12.1' } }, '/cpu/minCudaVersion'],
  ] as const) {
    const res = await h.call('POST', '/v2/pods', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(res.json.errors.join('\n'), new RegExp(`^${pointer}:`, 'm'), JSON.stringify(res.json));
  }
  const noImage = await h.call('POST', '/v2/pods', { name: 'x', gpu: GPU.gpu, templateId: await template('image-still-required') });
  assert.equal(noImage.status, 400, 'image stays required (spec) even with templateId');
  const update = await h.call('PATCH', `/v2/pods/${(await h.call('POST', '/v2/pods', GPU)).json.id}`, { startSsh: true });
  assert.equal(update.status, 400, 'startSsh is a create-time field only');
});

test('templateId: unknown is 404, a serverless template 400; updatePod moves the pod and the template counts as used', async () => {
  assert.equal((await h.call('POST', '/v2/pods', { ...GPU, templateId: 'tpl-none' })).status, 404);
  assert.equal((await h.call('POST', '/v2/pods', { ...GPU, templateId: await template('sls', true) })).status, 400);
  const pod = (await h.call('POST', '/v2/pods', GPU)).json;
  assert.equal(pod.template, null);
  const tpl = await template('moved-to');
  const moved = await h.call('PATCH', `/v2/pods/${pod.id}`, { templateId: tpl });
  assert.equal(moved.status, 200);
  assert.equal(moved.json.template, tpl);
  assert.equal((await h.call('PATCH', `/v2/pods/${pod.id}`, { templateId: 'tpl-none' })).status, 404);
  const del = await request(`${h.url}/graphql`, {
    method: 'POST', headers: { authorization: `Bearer ${h.keys.main}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { deleteTemplate(templateName: "moved-to") }' }),
  });
  const body = (await del.body.json()) as { errors?: { message: string }[] };
  assert.match(body.errors?.[0]?.message ?? '', /in use by .*pod/);
});

test('GET /v2/pods/{id}/logs: server-sent events from the virtual clock, filtered by source, tail and since', async () => {
  const pod = (await h.call('POST', '/v2/pods', { ...GPU, startSsh: true })).json;
  const early = await raw('GET', `/v2/pods/${pod.id}/logs`);
  assert.equal(early.status, 200);
  assert.match(String(early.headers['content-type']), /^text\/event-stream/);
  assert.deepEqual(events(early.text).map((e) => e.source), ['system', 'system']);
  await h.advance(RUNNING_AFTER + 10 * 60_000);
  const all = events((await raw('GET', `/v2/pods/${pod.id}/logs`)).text);
  assert.ok(all.some((e) => e.line.includes('sshd')));
  assert.equal(all.filter((e) => e.line.startsWith('heartbeat')).length, 10);
  assert.deepEqual(all, events((await raw('GET', `/v2/pods/${pod.id}/logs`)).text), 'same world, same time, same lines');
  for (let i = 1; i < all.length; i++) assert.ok(all[i]!.ts >= all[i - 1]!.ts, 'oldest first');
  const container = events((await raw('GET', `/v2/pods/${pod.id}/logs?source=container&tail=3`)).text);
  assert.deepEqual(container, all.filter((e) => e.source === 'container').slice(-3));
  const since = all[all.length - 4]!.ts;
  assert.deepEqual(events((await raw('GET', `/v2/pods/${pod.id}/logs?since=${since}&tail=1`)).text), all.filter((e) => e.ts >= since));
  assert.equal((await raw('GET', `/v2/pods/${pod.id}/logs?tail=0`)).text, '');
  for (const q of ['tail=-1', 'tail=5001', 'tail=x', 'source=stdout', 'since=yesterday']) {
    const bad = await raw('GET', `/v2/pods/${pod.id}/logs?${q}`);
    assert.equal(bad.status, 400, q);
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
  }
  const unknown = await raw('GET', '/v2/pods/pod-none/logs');
  assert.equal(unknown.status, 404);
  assert.match(String(unknown.headers['content-type']), /^application\/problem\+json/);
});

test('405 answers carry Allow with the methods the path serves, on every surface', async () => {
  for (const [method, path, allow] of [
    ['PUT', '/v2/pods', 'GET, POST'],
    ['POST', '/v2/pods/pod-x', 'GET, PATCH, DELETE'],
    ['DELETE', '/v2/pods/pod-x/logs', 'GET'],
    ['GET', '/graphql', 'POST'],
    ['GET', '/v1/endpoints', 'POST'],
  ] as const) {
    const res = await raw(method, path, 'application/json');
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.allow, allow, `${method} ${path}`);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  }
});
