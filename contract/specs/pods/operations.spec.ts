import { test } from './support/fixtures.js';
import { isSuccess } from '../../checks/status.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { POD_SHAPE_RULES, PROBLEM_RULES } from './support/rule-sets.js';
import { listOf } from '../../../lib/pod-catalog.js';
import type { NetworkVolume, Pod, PodList } from '../../../lib/types.gen.js';

// The spec names getPod, listing, update, actions and deletion but shows neither paths nor
// payloads: what a target answers is recorded (OBSERVED); any Pod it answers still meets the
// Pod rules, and any error is problem+json.
test.describe('pod operations the spec names but does not show', () => {
  test('getPod of an existing pod and of an unknown id', rules('POD.GET.200', 'POD.GET.UNKNOWN_404', ...POD_SHAPE_RULES, ...PROBLEM_RULES), async ({ api, pods }) => {
    const pod = await pods.created(await pods.gpuBody());
    const found = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    const unknown = await api.op('getPod', { params: { podId: 'pod-does-not-exist-000' } });
    observe('POD.GET.200', { status: found.status, sameId: found.body?.id === pod.id });
    observe('POD.GET.UNKNOWN_404', { status: unknown.status, contentType: unknown.contentType });
    conform(isSuccess(found) ? podConformance(found.body, { kind: 'gpu', where: 'getPod → 200' }) : [], unknown.status >= 400 ? problemJsonConformance(unknown) : []);
  });

  test('listPods lists the caller\'s pods, each a conforming Pod', rules('POD.LIST.SHAPE', ...POD_SHAPE_RULES), async ({ api, pods }) => {
    const made = [await pods.created(await pods.gpuBody()), await pods.created(await pods.cpuBody())];
    const res = await api.op<PodList>('listPods');
    const list = Array.isArray(res.body?.pods) ? res.body.pods : Array.isArray(res.body) ? (res.body as unknown as Pod[]) : [];
    observe('POD.LIST.SHAPE', { status: res.status, shape: Array.isArray(res.body) ? 'array' : Object.keys(res.body ?? {}), count: list.length });
    conform(...list.filter((p) => made.some((m) => m.id === p.id)).map((p) => podConformance(p, { kind: p.id === made[0]!.id ? 'gpu' : 'cpu', where: `listPods item ${p.id}` })));
  });

  test('updatePod: the answer and the fields it changes are recorded', rules('POD.UPDATE.200_FULL_POD', 'POD.UPDATE.MUTABLE_FIELDS', 'POD.UPDATE.UNKNOWN_PROPERTY_REJECTED', ...POD_SHAPE_RULES), async ({ api, pods }) => {
    const pod = await pods.created(await pods.gpuBody({ env: { A: '1' } }));
    const change = { name: 'cpc-updated', image: 'busybox:1.36', args: 'sleep infinity', disk: 31, ports: ['9000/http'], env: { B: '2' }, registry: null, locked: true };
    const res = await api.op<Pod>('updatePod', { params: { podId: pod.id }, body: change });
    const after = (await api.op<Pod>('getPod', { params: { podId: pod.id } })).body;
    const changed = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, JSON.stringify(after?.[k]) === JSON.stringify(v)]));
    const unknown = await api.op('updatePod', { params: { podId: pod.id }, body: { colour: 'blue' } });
    observe('POD.UPDATE.200_FULL_POD', { status: res.status, fullPod: isSuccess(res) && podConformance(res.body).length === 0 });
    observe('POD.UPDATE.MUTABLE_FIELDS', changed);
    observe('POD.UPDATE.UNKNOWN_PROPERTY_REJECTED', { status: unknown.status });
    conform(isSuccess(res) ? podConformance(res.body, { kind: 'gpu', where: 'updatePod → 200' }) : [], podConformance(after, { kind: 'gpu', where: 'getPod after updatePod' }),
      unknown.status >= 400 ? problemJsonConformance(unknown) : []);
  });

  test('deletePod: the answer, the pod\'s absence and its volume are recorded', rules('POD.DELETE.204', 'POD.DELETE.ABSENT_AFTERWARDS', 'POD.DELETE.VOLUME_DETACHED'), async ({ api, pods }) => {
    const dc = (await pods.catalog()).dataCenters[0];
    test.skip(!dc, 'the target lists no data center');
    const volume = await pods.volume(dc!.id);
    const pod = await pods.created(await pods.gpuBody({ dataCenterIds: [dc!.id], mounts: { network: [{ volumeId: volume.id, path: '/data' }] } }));
    const res = await api.op('deletePod', { params: { podId: pod.id } });
    const listed = listOf<Pod>((await api.op('listPods')).body, 'pods').some((p) => p?.id === pod.id && p.status !== 'TERMINATED');
    const get = await api.op('getPod', { params: { podId: pod.id } });
    const vol = await api.op<NetworkVolume>('getNetworkVolume', { params: { networkVolumeId: volume.id } });
    observe('POD.DELETE.204', { status: res.status, bodyBytes: res.bytes });
    observe('POD.DELETE.ABSENT_AFTERWARDS', { listed, getPod: get.status });
    observe('POD.DELETE.VOLUME_DETACHED', { volumeStillExists: isSuccess(vol) });
  });
});

// Spec, Authentication: "A valid key lacking access to a resource or action gets 403." A pod of
// another account must never reach the caller; whether 403 or 404 answers is recorded.
test.describe('another account\'s pod is invisible', () => {
  test('getPod, updatePod, podAction and deletePod with another account\'s key never touch the pod, and listPods never shows it', rules(
    'POD.ACCOUNT.OTHER_INVISIBLE', 'POD.ACCOUNT.OTHER_STATUS', 'POD.LIST.CALLER_ONLY', ...PROBLEM_RULES,
  ), async ({ api, pods }) => {
    const pod = await pods.created(await pods.gpuBody());
    const other = 'other' as const;
    const answers = {
      get: await api.op('getPod', { params: { podId: pod.id }, auth: other }),
      patch: await api.op('updatePod', { params: { podId: pod.id }, body: { name: 'stolen' }, auth: other }),
      action: await api.op('podAction', { params: { podId: pod.id }, body: { action: 'stop' }, auth: other }),
      delete: await api.op('deletePod', { params: { podId: pod.id }, auth: other }),
    };
    const theirList = await api.op<PodList>('listPods', { auth: other });
    const mine = await api.op<Pod>('getPod', { params: { podId: pod.id } });
    observe('POD.ACCOUNT.OTHER_STATUS', Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status])));
    observe('POD.LIST.CALLER_ONLY', { otherListsIt: JSON.stringify(theirList.body ?? '').includes(pod.id) });
    conform(
      ...Object.entries(answers).map(([k, r]) => must(r.status >= 400 && r.status < 500, 'POD.ACCOUNT.OTHER_INVISIBLE', `${k} with another account's key answered ${r.status}: ${r.text.slice(0, 200)}`)),
      ...Object.values(answers).map((r) => (r.status >= 400 ? problemJsonConformance(r) : [])),
      must(!JSON.stringify(answers.get.body ?? '').includes(pod.name) || answers.get.status >= 400, 'POD.ACCOUNT.OTHER_INVISIBLE', 'getPod leaked the pod to another account'),
      must(!JSON.stringify(theirList.body ?? '').includes(pod.id), 'POD.ACCOUNT.OTHER_INVISIBLE', 'listPods of another account shows the pod'),
      must(isSuccess(mine) && mine.body.name === pod.name && mine.body.status !== 'EXITED', 'POD.ACCOUNT.OTHER_INVISIBLE', `the owner's pod changed: ${mine.status} ${mine.body?.name} ${mine.body?.status}`),
    );
  });
});
