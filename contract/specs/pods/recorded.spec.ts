import { test } from './support/fixtures.js';
import { observe, rules } from '../../support/rules.js';
import type { Pod } from '../../../lib/types.gen.js';

// Spec, Limits: "Limits on worker counts, name lengths and the number of environment variables:
// not shown." Versioning: "Compatibility and deprecation policy: not shown." What a target does
// is recorded for the pods surface; nothing here can fail a target.
test.describe('pods: what the spec leaves open is recorded', () => {
  test('the longest pod name and the most environment variables createPod accepts', rules('LIMIT.OTHER.NOT_SHOWN'), async ({ pods }) => {
    const accepted = { nameLength: 0, envCount: 0 };
    const refused: Record<string, number> = {};
    for (const length of [64, 256, 1024, 4096]) {
      const res = await pods.create(await pods.gpuBody({ name: 'n'.repeat(length) }));
      if (res.status === 201) accepted.nameLength = length;
      else { refused[`name ${length}`] = res.status; break; }
    }
    for (const count of [16, 128, 1024]) {
      const env = Object.fromEntries(Array.from({ length: count }, (_, i) => [`VAR_${i}`, String(i)]));
      const res = await pods.create(await pods.gpuBody({ env }));
      if (res.status === 201) accepted.envCount = count;
      else { refused[`env ${count}`] = res.status; break; }
    }
    observe('LIMIT.OTHER.NOT_SHOWN', { surface: 'rest-v2 pods', accepted, refused });
  });

  test('204 answers of the pod operations (deletePod, terminate) carry no body', rules('HTTP.NO_CONTENT.NO_BODY'), async ({ api, pods }) => {
    const seen: Record<string, unknown> = {};
    const a = await pods.created(await pods.gpuBody());
    const b = await pods.created(await pods.gpuBody());
    for (const [name, res] of [
      ['deletePod', await api.op('deletePod', { params: { podId: a.id } })],
      ['terminate', await api.op('podAction', { params: { podId: b.id }, body: { action: 'terminate' } })],
    ] as const) {
      seen[name] = { status: res.status, bytes: res.bytes, contentType: res.contentType || null };
    }
    observe('HTTP.NO_CONTENT.NO_BODY', seen);
  });

  test('version and deprecation signals on pod answers', rules('VERSION.POLICY.NOT_SHOWN'), async ({ api, pods }) => {
    const created = await pods.place(await pods.gpuBody());
    const got = await api.op<Pod>('getPod', { params: { podId: created.body.id } });
    const signals = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => /version|deprecat|sunset/i.test(k)));
    observe('VERSION.POLICY.NOT_SHOWN', { createPod: signals(created.headers), getPod: signals(got.headers) });
  });
});
