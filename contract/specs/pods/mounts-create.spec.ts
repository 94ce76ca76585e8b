import { test } from './support/fixtures.js';
import type { PodKit } from './support/fixtures.js';
import { conform, creates, must, observe, rules, titled } from '../../support/rules.js';
import { rejectionConformance } from '../../checks/rejection.js';
import type { ExpectedStatus } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { createdPodConformance } from '../../checks/pod-echo.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import { madeNothing, pooledCreate, refusals } from './support/creates.js';
import type { CreatePodRequest, NetworkVolume, Pod } from '../../../lib/types.gen.js';
import type { ApiResult } from '../../../lib/client/api.js';

type Body = Record<string, unknown>;

/**
 * The pooled network volume (lib/plan.ts), and a GPU body placed in its data center. Refused
 * creates leave the volume as it was lent: refusals borrow it, never make one of their own.
 */
async function volumeAndBody(pods: PodKit): Promise<{ volume: NetworkVolume; body: CreatePodRequest }> {
  const volume = await pods.pooledVolume('networkVolume');
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
  // Every case in one test, each body named on its own and judged on its own answer: one listing
  // afterwards tells which of them made a pod (each listing a request of a rate-limited account).
  test(`createPod with a mount broken one rule at a time is refused each time and creates nothing (${refused.length} cases)`,
    rules(...new Set(refused.map((c) => c.rule)), ...PROBLEM_RULES, creates({ pools: ['networkVolume'] })), async ({ api, pods, uniqueName }) => {
      const { volume, body } = await volumeAndBody(pods);
      const sent = refusals({ api, pods, uniqueName });
      const answers: { c: Case; res: ApiResult<Pod> }[] = [];
      for (const c of refused) {
        const base = c.cpu ? await pods.cpuBody({ dataCenterIds: [volume.dataCenter] }) : body;
        answers.push({ c, res: await sent.send({ ...base, name: uniqueName('bad'), mounts: c.mounts(volume.id) }, {}, c.title) });
      }
      const made = await sent.madeBy();
      conform(...answers.map(({ c, res }) => titled(c.title, [...rejectionConformance(c.rule, res, c.expected), ...madeNothing(made, c.title, c.rule)])));
    });

  // "PersistentMount (no additional properties): `size` integer, required, minimum 10 (GB); `path`
  // string, required". The pooled persistent GPU pod sends the minimum, {size: 10, path:
  // '/mnt/state'}: its create answer is this rule's, so a target whose minimum is above 10 fails
  // it (the refusal of 9 GB is LIMIT.POD.PERSISTENT_SIZE_MIN_10's test).
  test('a GPU pod accepts a persistent mount of at least 10 GB', rules('MOUNT.PERSISTENT.ACCEPTED_ON_GPU', 'MOUNT.PERSISTENT.SIZE_IN_RESPONSE', creates({ pools: ['gpuPersistentPod'] })), async ({ pods }) => {
    const { sent, pod } = await pooledCreate(pods, 'gpuPersistentPod', 'MOUNT.PERSISTENT.ACCEPTED_ON_GPU');
    conform(createdPodConformance(sent, pod), podConformance(pod, { kind: 'gpu' }));
  });

  // "Custom paths apply on GPU and CPU pods"; "CPU pods support container disk and network volumes
  // only". The pooled network pods mount the pooled volume at two paths of the test's choosing
  // (no default), /mnt/shared on the GPU pod and /data on the CPU pod: their create answers and
  // reads are this rule's, so a target that mounts every network volume at one path fails.
  test('a network mount keeps the path sent, on GPU and CPU pods alike', rules(
    'MOUNT.NETWORK.CUSTOM_PATH', 'MOUNT.NETWORK.CPU_SUPPORTED', 'MOUNT.NETWORK.SAME_DATA_CENTER', creates({ pools: ['networkVolume', 'gpuNetworkPod', 'cpuNetworkPod'] }),
  ), async ({ pods }) => {
    const volume = await pods.pooledVolume('networkVolume');
    const gpu = await pooledCreate(pods, 'gpuNetworkPod', 'MOUNT.NETWORK.CUSTOM_PATH');
    const cpu = await pooledCreate(pods, 'cpuNetworkPod', 'MOUNT.NETWORK.CPU_SUPPORTED');
    for (const [kind, body, pod] of [['gpu', gpu.sent, gpu.pod], ['cpu', cpu.sent, cpu.pod]] as const) {
      const path = body.mounts!.network![0]!.path;
      const later = await pods.waitFor(pod.id, ['RUNNING'], { maxMs: 20_000 });
      conform(
        createdPodConformance(body, pod),
        // The Pod's shape is the Pod rules' (each breach its own rule), not this test's.
        later.pod ? podConformance(later.pod, { kind }) : [],
        must(later.pod?.mounts?.network?.[0]?.path === path, 'MOUNT.NETWORK.CUSTOM_PATH', `getPod reports path ${JSON.stringify(later.pod?.mounts?.network)}`),
        must([pod.dataCenterId, later.pod?.dataCenterId].every((dc) => dc === null || dc === volume.dataCenter), 'MOUNT.NETWORK.SAME_DATA_CENTER',
          `volume in ${volume.dataCenter}, pod placed in ${pod.dataCenterId} then ${later.pod?.dataCenterId}`),
        must(later.pod?.dataCenterId === volume.dataCenter || !later.reached, 'MOUNT.NETWORK.SAME_DATA_CENTER', `running pod is in ${later.pod?.dataCenterId}, its volume in ${volume.dataCenter}`),
      );
    }
  });

  // Spec: dataCenterIds are "Preferred data centers", and a NetworkMount names "an existing network
  // volume in the same data center as the pod". So the pod is refused, or it runs in the volume's
  // data center whatever the preference; it never runs elsewhere with the volume mounted. The rule
  // names no pod kind: a CPU body is sent, whose refusal is never one GPU type's lack of capacity
  // (no other type to try it on), and which, placed, is a CPU pod.
  test('a network volume outside every preferred data center: refused, or the pod placed with its volume', rules(
    'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', 'MOUNT.NETWORK.OTHER_DATA_CENTER_STATUS', ...PROBLEM_RULES, creates({ maybe: { cpuPods: 1 }, pools: ['networkVolume'] }),
  ), async ({ api, pods, uniqueName }) => {
    const volume = await pods.pooledVolume('networkVolume');
    const others = (await pods.catalog()).dataCenters.filter((d) => d.id !== volume.dataCenter).map((d) => d.id);
    test.skip(others.length === 0, 'the target lists a single data center');
    const sent = refusals({ api, pods, uniqueName });
    const res = await sent.send(await pods.cpuBody({ dataCenterIds: others, mounts: { network: [{ volumeId: volume.id, path: '/data' }] } }));
    observe('MOUNT.NETWORK.OTHER_DATA_CENTER_STATUS', { status: res.status, volume: volume.dataCenter, preferred: others });
    if (res.status >= 200 && res.status < 300) {
      const later = await pods.waitFor(res.body.id, ['RUNNING'], { maxMs: 20_000 });
      const placed = [res.body.dataCenterId, later.pod?.dataCenterId].filter((dc) => dc !== null && dc !== undefined);
      conform(must(placed.every((dc) => dc === volume.dataCenter), 'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED',
        `createPod answered ${res.status} and placed the pod in ${placed.join(' then ')}, its network volume being in ${volume.dataCenter}`));
      return;
    }
    conform(rejectionConformance('MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', res, 'client-error'),
      await sent.madeNothing('MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED'));
  });
});
