import { test } from './support/fixtures.js';
import type { PodKit } from './support/fixtures.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';
import { conform, must, rules } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import type { ExpectedStatus } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { Mounts, NetworkVolume, Pod } from '../../../lib/types.gen.js';

type Kind = 'network' | 'persistent' | 'none';
interface Setup { pods: Record<Kind, Pod>; volume: NetworkVolume; other: NetworkVolume }

/** Three pods as the PATCH rules need them: one per mount kind at creation, and one without mounts. */
async function setup(pods: PodKit): Promise<Setup> {
  const dc = (await pods.catalog()).dataCenters[0];
  test.skip(!dc, 'the target lists no data center');
  const volume = await pods.volume(dc!.id);
  const other = await pods.volume(dc!.id, { fresh: true });
  const [network, persistent, none] = [
    await pods.created(await pods.gpuBody({ dataCenterIds: [dc!.id], mounts: { network: [{ volumeId: volume.id, path: '/data' }] } })),
    await pods.created(await pods.gpuBody({ mounts: { persistent: { size: 20, path: '/workspace' } } })),
    await pods.created(await pods.gpuBody()),
  ];
  return { pods: { network: network!, persistent: persistent!, none: none! }, volume, other };
}

const patch = (api: ApiClient, pod: Pod, body: unknown): Promise<ApiResult<Pod>> => api.op<Pod>('updatePod', { params: { podId: pod.id }, body });
const mountsOf = async (api: ApiClient, pod: Pod): Promise<Mounts | undefined> => (await api.op<Pod>('getPod', { params: { podId: pod.id } })).body?.mounts;

interface Refusal { title: string; rule: string; expected: ExpectedStatus; pod: Kind; mounts(s: Setup): unknown }

// Spec, Mounts, "Update (PATCH) semantics".
const refusals: Refusal[] = [
  { title: 'network: [] on a network pod', rule: 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400', expected: 400, pod: 'network', mounts: () => ({ network: [] }) },
  { title: 'a persistent mount on a network pod', rule: 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400', expected: 400, pod: 'network', mounts: () => ({ persistent: { size: 20, path: '/workspace' } }) },
  { title: 'a network mount on a persistent pod', rule: 'MOUNT.UPDATE.NETWORK_ON_PERSISTENT_POD_400', expected: 400, pod: 'persistent', mounts: (s) => ({ network: [{ volumeId: s.volume.id, path: '/data' }] }) },
  { title: 'a persistent mount on a pod created without mounts', rule: 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', expected: 400, pod: 'none', mounts: () => ({ persistent: { size: 20, path: '/workspace' } }) },
  { title: 'a network mount on a pod created without mounts', rule: 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', expected: 400, pod: 'none', mounts: (s) => ({ network: [{ volumeId: s.volume.id, path: '/data' }] }) },
  { title: 'another volumeId', rule: 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400', expected: 400, pod: 'network', mounts: (s) => ({ network: [{ volumeId: s.other.id, path: '/data' }] }) },
  { title: 'a persistent entry without size', rule: 'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', expected: 422, pod: 'persistent', mounts: () => ({ persistent: { path: '/elsewhere' } }) },
  { title: 'a persistent entry without path', rule: 'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', expected: 422, pod: 'persistent', mounts: () => ({ persistent: { size: 20 } }) },
  { title: 'a network entry without volumeId', rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', expected: 422, pod: 'network', mounts: () => ({ network: [{ path: '/elsewhere' }] }) },
  { title: 'a network entry without path', rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', expected: 422, pod: 'network', mounts: (s) => ({ network: [{ volumeId: s.volume.id }] }) },
  { title: 'both mount kinds', rule: 'MOUNT.BOTH_KINDS_400', expected: 400, pod: 'network', mounts: (s) => ({ persistent: { size: 20, path: '/w' }, network: [{ volumeId: s.volume.id, path: '/data' }] }) },
  { title: 'two network entries', rule: 'MOUNT.NETWORK.AT_MOST_ONE', expected: 'client-error', pod: 'network', mounts: (s) => ({ network: [{ volumeId: s.volume.id, path: '/data' }, { volumeId: s.other.id, path: '/more' }] }) },
];

test.describe('updatePod: mount semantics', () => {
  for (const r of refusals) {
    test(`PATCH with ${r.title} is refused and leaves the mounts unchanged`, rules(r.rule, ...PROBLEM_RULES), async ({ api, pods }) => {
      const s = await setup(pods);
      const pod = s.pods[r.pod];
      const before = await mountsOf(api, pod);
      const res = await patch(api, pod, { mounts: r.mounts(s) });
      const after = await mountsOf(api, pod);
      conform(rejectionConformance(r.rule, res, r.expected),
        must(JSON.stringify(after) === JSON.stringify(before), r.rule, `mounts changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`));
    });
  }

  for (const [title, rule, body] of [
    ['omitting mounts', 'MOUNT.UPDATE.OMITTED_UNCHANGED', { name: 'cpc-renamed' }],
    ['mounts {}', 'MOUNT.UPDATE.EMPTY_OBJECT_UNCHANGED', { mounts: {} }],
  ] as const) {
    test(`PATCH ${title} succeeds and leaves every kind of mount unchanged`, rules(rule), async ({ api, pods }) => {
      const s = await setup(pods);
      for (const kind of ['network', 'persistent', 'none'] as const) {
        const before = await mountsOf(api, s.pods[kind]);
        const res = await patch(api, s.pods[kind], body);
        const after = await mountsOf(api, s.pods[kind]);
        conform(
          must(res.status >= 200 && res.status < 300, rule, `PATCH ${JSON.stringify(body)} on the ${kind} pod answered ${res.status}: ${res.text.slice(0, 200)}`),
          must(JSON.stringify(after) === JSON.stringify(before), rule, `${kind} pod: mounts changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`),
        );
      }
    });
  }

  test('PATCH may change the path of a persistent mount (same size)', rules('MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE'), async ({ api, pods }) => {
    const s = await setup(pods);
    const res = await patch(api, s.pods.persistent, { mounts: { persistent: { size: 20, path: '/moved' } } });
    const after = await mountsOf(api, s.pods.persistent);
    conform(
      must(res.status >= 200 && res.status < 300, 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', `PATCH answered ${res.status}: ${res.text.slice(0, 200)}`),
      must(after?.persistent?.path === '/moved' && after.persistent.size === 20, 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', `mounts are now ${JSON.stringify(after)}`),
    );
  });

  test('PATCH may change the path of a network mount (same volumeId)', rules('MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', 'MOUNT.NETWORK.AT_MOST_ONE'), async ({ api, pods }) => {
    const s = await setup(pods);
    const res = await patch(api, s.pods.network, { mounts: { network: [{ volumeId: s.volume.id, path: '/mnt/moved' }] } });
    const after = await api.op<Pod>('getPod', { params: { podId: s.pods.network.id } });
    conform(
      must(res.status >= 200 && res.status < 300, 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', `PATCH answered ${res.status}: ${res.text.slice(0, 200)}`),
      must(JSON.stringify(after.body?.mounts?.network) === JSON.stringify([{ volumeId: s.volume.id, path: '/mnt/moved' }]), 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', `mounts are now ${JSON.stringify(after.body?.mounts)}`),
      podConformance(after.body, { kind: 'gpu', where: 'getPod after PATCH' }),
    );
  });
});
