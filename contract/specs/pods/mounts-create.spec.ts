import { test } from './support/fixtures.js';
import type { PodKit } from './support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import { acceptedConformance, type ExpectedStatus } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { createdPodConformance } from '../../checks/pod-echo.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import type { CreatePodRequest, NetworkVolume } from '../../../lib/types.gen.js';

type Body = Record<string, unknown>;

/** A volume in the first data center of the catalog, and a GPU body placed there. */
async function volumeAndBody(pods: PodKit): Promise<{ volume: NetworkVolume; body: CreatePodRequest }> {
  const dc = (await pods.catalog()).dataCenters[0];
  test.skip(!dc, 'the target lists no data center');
  const volume = await pods.volume(dc!.id);
  return { volume, body: await pods.gpuBody({ dataCenterIds: [volume.dataCenter] }) };
}

interface Case { title: string; rule: string; expected: ExpectedStatus; mounts(volumeId: string): Body; cpu?: boolean }

// Spec, Mounts: "both present gives 400"; "At most 1 item"; "`size` ... minimum 10 (GB)";
// "disallowed on CPU pods"; "(no additional properties)"; "every mount entry must be complete ...
// otherwise 422" (and Errors: 422 "for example an incomplete mount entry").
const refused: Case[] = [
  { title: 'both persistent and network', rule: 'MOUNT.BOTH_KINDS_400', expected: 400, mounts: (v) => ({ persistent: { size: 20, path: '/workspace' }, network: [{ volumeId: v, path: '/data' }] }) },
  { title: 'two network mounts', rule: 'LIMIT.POD.NETWORK_MAX_1', expected: [400, 422], mounts: (v) => ({ network: [{ volumeId: v, path: '/data' }, { volumeId: v, path: '/data2' }] }) },
  { title: 'a persistent mount of 9 GB', rule: 'LIMIT.POD.PERSISTENT_SIZE_MIN_10', expected: [400, 422], mounts: () => ({ persistent: { size: 9, path: '/workspace' } }) },
  { title: 'a persistent mount on a CPU pod', rule: 'MOUNT.PERSISTENT.CPU_INVALID', expected: [400, 422], cpu: true, mounts: () => ({ persistent: { size: 20, path: '/workspace' } }) },
  { title: 'an unknown property in the persistent mount', rule: 'MOUNT.PERSISTENT.NO_ADDITIONAL_PROPERTIES', expected: [400, 422], mounts: () => ({ persistent: { size: 20, path: '/workspace', readOnly: true } }) },
  { title: 'an unknown property in the network mount', rule: 'MOUNT.NETWORK.NO_ADDITIONAL_PROPERTIES', expected: [400, 422], mounts: (v) => ({ network: [{ volumeId: v, path: '/data', readOnly: true }] }) },
  { title: 'a network mount given as an object, not an array', rule: 'MOUNT.NETWORK.ARRAY', expected: [400, 422], mounts: (v) => ({ network: { volumeId: v, path: '/data' } }) },
  { title: 'a network volume that does not exist', rule: 'MOUNT.NETWORK.VOLUME_EXISTS', expected: 'client-error', mounts: () => ({ network: [{ volumeId: 'vol-does-not-exist-0000', path: '/data' }] }) },
  { title: 'a network mount without path', rule: 'MOUNT.NETWORK.PATH_NO_DEFAULT', expected: 422, mounts: (v) => ({ network: [{ volumeId: v }] }) },
  { title: 'a network mount without volumeId', rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', expected: 422, mounts: () => ({ network: [{ path: '/data' }] }) },
  { title: 'a persistent mount without size', rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', expected: 422, mounts: () => ({ persistent: { path: '/workspace' } }) },
  { title: 'a persistent mount without path', rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', expected: 422, mounts: () => ({ persistent: { size: 20 } }) },
];

test.describe('createPod: mount rules', () => {
  for (const c of refused) {
    test(`createPod with ${c.title} is refused`, rules(c.rule, ...PROBLEM_RULES), async ({ pods }) => {
      const { volume, body } = await volumeAndBody(pods);
      const base = c.cpu ? await pods.cpuBody({ dataCenterIds: [volume.dataCenter] }) : body;
      const before = await pods.snapshot();
      const res = await pods.create({ ...base, mounts: c.mounts(volume.id) });
      conform(rejectionConformance(c.rule, res, c.expected), must((await pods.madeSince(before)).length === 0, c.rule, 'a refused createPod still created a pod'));
    });
  }

  test('a GPU pod accepts a persistent mount of at least 10 GB', rules('MOUNT.PERSISTENT.ACCEPTED_ON_GPU', 'MOUNT.PERSISTENT.SIZE_IN_RESPONSE'), async ({ pods }) => {
    for (const size of [10, 250]) {
      const body = await pods.gpuBody({ mounts: { persistent: { size, path: '/workspace' } } });
      const res = await pods.place(body);
      conform(acceptedConformance('MOUNT.PERSISTENT.ACCEPTED_ON_GPU', 'POD.CREATE.201_POD', res, 201));
      conform(createdPodConformance(body, res.body), podConformance(res.body, { kind: 'gpu' }));
    }
  });

  test('a network mount keeps the path sent, on GPU and CPU pods alike', rules(
    'MOUNT.NETWORK.CUSTOM_PATH', 'MOUNT.NETWORK.CPU_SUPPORTED', 'MOUNT.NETWORK.SAME_DATA_CENTER',
  ), async ({ pods }) => {
    const { volume } = await volumeAndBody(pods);
    for (const [kind, path] of [['gpu', '/mnt/models'], ['cpu', '/srv/data-set_1']] as const) {
      const mounts = { network: [{ volumeId: volume.id, path }] };
      const body = kind === 'gpu' ? await pods.gpuBody({ mounts }) : await pods.cpuBody({ mounts });
      const res = await pods.place(body);
      conform(acceptedConformance(kind === 'cpu' ? 'MOUNT.NETWORK.CPU_SUPPORTED' : 'MOUNT.NETWORK.CUSTOM_PATH', 'POD.CREATE.201_POD', res, 201));
      const later = await pods.waitFor(res.body.id, ['RUNNING'], { maxMs: 20_000 });
      conform(
        createdPodConformance(body, res.body),
        // The Pod's shape is the Pod rules' (each breach its own rule), not this test's.
        later.pod ? podConformance(later.pod, { kind }) : [],
        must(later.pod?.mounts?.network?.[0]?.path === path, 'MOUNT.NETWORK.CUSTOM_PATH', `getPod reports path ${JSON.stringify(later.pod?.mounts?.network)}`),
        must([res.body.dataCenterId, later.pod?.dataCenterId].every((dc) => dc === null || dc === volume.dataCenter), 'MOUNT.NETWORK.SAME_DATA_CENTER',
          `volume in ${volume.dataCenter}, pod placed in ${res.body.dataCenterId} then ${later.pod?.dataCenterId}`),
        must(later.pod?.dataCenterId === volume.dataCenter || !later.reached, 'MOUNT.NETWORK.SAME_DATA_CENTER', `running pod is in ${later.pod?.dataCenterId}, its volume in ${volume.dataCenter}`),
      );
    }
  });

  // Spec: dataCenterIds are "Preferred data centers", and a NetworkMount names "an existing network
  // volume in the same data center as the pod". So the pod is refused, or it runs in the volume's
  // data center whatever the preference; it never runs elsewhere with the volume mounted.
  test('a network volume outside every preferred data center: refused, or the pod placed with its volume', rules(
    'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', 'MOUNT.NETWORK.OTHER_DATA_CENTER_STATUS', ...PROBLEM_RULES,
  ), async ({ pods }) => {
    const { volume } = await volumeAndBody(pods);
    const others = (await pods.catalog()).dataCenters.filter((d) => d.id !== volume.dataCenter).map((d) => d.id);
    test.skip(others.length === 0, 'the target lists a single data center');
    const before = await pods.snapshot();
    const res = await pods.create(await pods.gpuBody({ dataCenterIds: others, mounts: { network: [{ volumeId: volume.id, path: '/data' }] } }));
    observe('MOUNT.NETWORK.OTHER_DATA_CENTER_STATUS', { status: res.status, volume: volume.dataCenter, preferred: others });
    if (res.status >= 200 && res.status < 300) {
      const later = await pods.waitFor(res.body.id, ['RUNNING'], { maxMs: 20_000 });
      const placed = [res.body.dataCenterId, later.pod?.dataCenterId].filter((dc) => dc !== null && dc !== undefined);
      conform(must(placed.every((dc) => dc === volume.dataCenter), 'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED',
        `createPod answered ${res.status} and placed the pod in ${placed.join(' then ')}, its network volume being in ${volume.dataCenter}`));
      return;
    }
    conform(rejectionConformance('MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', res, 'client-error'),
      must((await pods.madeSince(before)).length === 0, 'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', 'a refused createPod still created a pod'));
  });
});
