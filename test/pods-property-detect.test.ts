// The pod property tests catch a broken target: with a pod fault switched on, the property
// fails, shrinks to a small counterexample and reports the seed that replays it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { ApiClient } from '../lib/client/api.js';
import { EmulatorControl } from '../lib/client/control.js';
import { undiciTransport } from '../lib/client/transport.js';
import { loadPodContext, volumeIn, type PodContext } from '../property/pods/support/context.js';
import { invalidCreateProperty } from '../property/pods/properties/create-invalid.js';
import { validCreateProperty } from '../property/pods/properties/create-valid.js';
import type { InvalidCase } from '../property/pods/arbitraries/invalid-create-pod-request.js';
import type { CreatePodRequest } from '../lib/types.gen.js';

let running: RunningEmulator;
const transport = undiciTransport();
const SEED = 4242;

before(async () => { running = await startEmulator({ port: 0 }); });
after(async () => { await transport.close(); await running.close(); });

/** A client bound to a fresh world with the given faults on. */
async function worldWith(faults: string[]): Promise<{ api: ApiClient; ctx: PodContext }> {
  const info = await new EmulatorControl(running.url).createWorld({ faults, quotas: { minute: 1e6, hour: 1e7, day: 1e8 } });
  const api = new ApiClient({ baseUrl: running.url, serverlessUrl: running.url, restV1Url: running.url }, info.keys, transport, { 'x-emulator-world': info.id });
  return { api, ctx: await loadPodContext(api, volumeIn(api)) };
}

const cases: { fault: string; label: string; shrunk(c: InvalidCase): void }[] = [
  {
    fault: 'pods.gpu-count-0-accepted', label: 'gpu.count below its minimum',
    shrunk: (c) => assert.equal((c.body.gpu as { count: number }).count, 0, 'the count shrinks to the edge of the rule'),
  },
  {
    fault: 'pods.persistent-size-9-accepted', label: 'persistent size below its minimum',
    shrunk: (c) => assert.equal((c.body.mounts as { persistent: { size: number } }).persistent.size, 9, 'only 9 is wrongly accepted, and it is found'),
  },
  {
    fault: 'pods.mounts-both-accepted', label: 'both mount kinds',
    shrunk: (c) => assert.deepEqual(Object.keys(c.body.mounts as object).sort(), ['network', 'persistent']),
  },
];

for (const c of cases) {
  test(`with ${c.fault}, the "${c.label}" property fails with a shrunk counterexample and its seed`, async () => {
    const { api, ctx } = await worldWith([c.fault]);
    const details = await fc.check(invalidCreateProperty(api, ctx, (m) => m.label === c.label), { seed: SEED, numRuns: 200 });
    assert.equal(details.failed, true, 'the property must fail against the broken target');
    assert.equal(details.seed, SEED, 'the seed is reported');
    assert.ok(details.counterexamplePath, 'a replay path is reported');
    const [counterexample] = details.counterexample as [InvalidCase];
    assert.equal(counterexample.label, c.label);
    c.shrunk(counterexample);
    // Shrinking leaves a small request: a one-character name at most, no optional extras.
    assert.ok(String(counterexample.body.name ?? '').length <= 1, `name not shrunk: ${JSON.stringify(counterexample.body.name)}`);
    assert.ok(details.numShrinks > 0, 'the counterexample was shrunk');
    const report = fc.defaultReportMessage(details) ?? '';
    assert.match(report, new RegExp(`seed: ${SEED}`), 'the report names the seed');
    assert.match(report, /Counterexample/);
    // Replaying the reported path reproduces the failure at once.
    const replay = await fc.check(invalidCreateProperty(api, ctx, (m) => m.label === c.label), { seed: SEED, path: details.counterexamplePath!, endOnFailure: true });
    assert.equal(replay.failed, true);
  });
}

test('the same properties pass against the clean emulator', async () => {
  const { api, ctx } = await worldWith([]);
  for (const c of cases) {
    const details = await fc.check(invalidCreateProperty(api, ctx, (m) => m.label === c.label), { seed: SEED, numRuns: 200 });
    assert.equal(details.failed, false, fc.defaultReportMessage(details) ?? c.label);
  }
  const valid = await fc.check(validCreateProperty(api, ctx), { seed: SEED, numRuns: 200 });
  assert.equal(valid.failed, false, fc.defaultReportMessage(valid) ?? 'valid');
});

test('with pods.cloud-default-community, the valid-request property fails on a request without cloud', async () => {
  const { api, ctx } = await worldWith(['pods.cloud-default-community']);
  const details = await fc.check(validCreateProperty(api, ctx), { seed: SEED, numRuns: 200 });
  assert.equal(details.failed, true);
  const [body] = details.counterexample as [CreatePodRequest];
  assert.equal(body.cloud, undefined, 'the minimal failing request omits cloud');
  assert.match(String(details.errorInstance), /POD\.CREATE\.CLOUD_DEFAULT_SECURE/, 'the failure names the broken rule');
});
