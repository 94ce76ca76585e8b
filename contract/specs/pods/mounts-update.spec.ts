import { test } from './support/fixtures.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';
import { conform, creates, must, rules, unchecked, type Finding } from '../../support/rules.js';
import type { ExpectedStatus } from '../../checks/status.js';
import { podConformance } from '../../checks/pod-conformance.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import { lend, lendIfSettled, restoreMounts, sameMounts, type Lent, type PodPool } from './support/lent.js';
import { refusedOn, type LentPodIo } from './support/mount-refusals.js';
import { isUnread, podMounts, type Unread } from '../../support/reads.js';
import type { PodKit } from './support/fixtures.js';
import type { PoolName } from '../../../lib/plan.js';
import type { Mounts, NetworkVolume, Pod } from '../../../lib/types.gen.js';

/*
 * The pods these rules PATCH are pooled (lib/plan.ts): on a deployment one of each shape serves
 * every test of the worker, and a test that changes one puts it back. Which pool stands for
 * which kind of pod at creation:
 * - a network pod: `cpuNetworkPod` (the pooled volume at /data; `gpuNetworkPod` has it at /mnt/shared). Custom paths "apply on GPU and
 *   CPU pods", and `network: []`, another volumeId, incomplete or extra network entries are
 *   refused whatever the pod runs on. A persistent mount PATCHed onto a network pod goes to
 *   `gpuNetworkPod`: on a CPU pod it would be refused anyway, for being persistent.
 * - a persistent pod: `gpuPersistentPod` (10 GB at /mnt/state): persistent mounts are
 *   "disallowed on CPU pods", so only a GPU pod has one.
 * - a pod created without mounts: `gpuPod` when a persistent mount is PATCHed onto it (on a CPU
 *   pod that mount is refused anyway, for being persistent), `cpuPod` when a network mount is.
 */
type Kind = 'network' | 'persistent' | 'none';
const PATCH = (api: ApiClient, pod: Pod, body: unknown): Promise<ApiResult<Pod>> => api.op<Pod>('updatePod', { params: { podId: pod.id }, body });
/** The pod's mounts as getPod shows them; `Unread` when it does not answer the pod (never "no mounts"). */
const mountsOf = async (api: ApiClient, pod: Pod): Promise<Mounts | undefined | Unread> => podMounts(await api.op<Pod>('getPod', { params: { podId: pod.id } }), pod.id);
/** The lent pod as {@link refusedOn} works on it. */
const lentIo = (api: ApiClient, lent: Lent): LentPodIo => ({ patch: (mounts) => PATCH(api, lent.pod, { mounts }), read: () => mountsOf(api, lent.pod), restore: () => restoreMounts(api, lent) });

interface Volumes { volume?: NetworkVolume; other?: NetworkVolume }
interface Refusal {
  title: string; rule: string; expected: ExpectedStatus; pool: PodPool;
  /** The pooled volumes the body names, beyond the network pod's own. */
  volumes?: ('networkVolume' | 'otherNetworkVolume')[];
  mounts(v: Volumes): unknown;
}

// Spec, Mounts, "Update (PATCH) semantics": "omitting `mounts` or sending `{}` leaves the mount
// unchanged; `network: []` gives 400; introducing a mount kind not present at creation
// (persistent on a network pod, network on a persistent pod, any mount on a pod created without
// mounts) gives 400; naming a different `volumeId` gives 400; every mount entry must be complete
// (`size` and `path` for persistent, `volumeId` and `path` for network), otherwise 422."
const refusals: Refusal[] = [
  { title: 'network: [] on a network pod', rule: 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400', expected: 400, pool: 'cpuNetworkPod', mounts: () => ({ network: [] }) },
  // On the GPU network pod: a CPU pod may not have a persistent mount at all, a second reason for the same 400.
  { title: 'a persistent mount on a network pod', rule: 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400', expected: 400, pool: 'gpuNetworkPod', mounts: () => ({ persistent: { size: 20, path: '/workspace' } }) },
  { title: 'a network mount on a persistent pod', rule: 'MOUNT.UPDATE.NETWORK_ON_PERSISTENT_POD_400', expected: 400, pool: 'gpuPersistentPod', volumes: ['networkVolume'], mounts: (v) => ({ network: [{ volumeId: v.volume!.id, path: '/data' }] }) },
  { title: 'a persistent mount on a pod created without mounts', rule: 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', expected: 400, pool: 'gpuPod', mounts: () => ({ persistent: { size: 20, path: '/workspace' } }) },
  { title: 'a network mount on a pod created without mounts', rule: 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', expected: 400, pool: 'cpuPod', volumes: ['networkVolume'], mounts: (v) => ({ network: [{ volumeId: v.volume!.id, path: '/data' }] }) },
  { title: 'another volumeId', rule: 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400', expected: 400, pool: 'cpuNetworkPod', volumes: ['otherNetworkVolume'], mounts: (v) => ({ network: [{ volumeId: v.other!.id, path: '/data' }] }) },
  { title: 'a persistent entry without size', rule: 'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', expected: 422, pool: 'gpuPersistentPod', mounts: () => ({ persistent: { path: '/elsewhere' } }) },
  { title: 'a persistent entry without path', rule: 'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', expected: 422, pool: 'gpuPersistentPod', mounts: () => ({ persistent: { size: 20 } }) },
  { title: 'a network entry without volumeId', rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', expected: 422, pool: 'cpuNetworkPod', mounts: () => ({ network: [{ path: '/elsewhere' }] }) },
  { title: 'a network entry without path', rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', expected: 422, pool: 'cpuNetworkPod', mounts: (v) => ({ network: [{ volumeId: v.volume!.id }] }) },
  // Spec: "`persistent` and `network` are mutually exclusive; both present gives 400." Whatever
  // pod it is sent to, one kind is new to it: the GPU network pod (a persistent mount is not
  // refused on a GPU pod for its kind), with its own network entry as it is.
  { title: 'both mount kinds', rule: 'MOUNT.BOTH_KINDS_400', expected: 400, pool: 'gpuNetworkPod', mounts: (v) => ({ persistent: { size: 20, path: '/w' }, network: [{ volumeId: v.volume!.id, path: '/data' }] }) },
  { title: 'two network entries', rule: 'MOUNT.NETWORK.AT_MOST_ONE', expected: 'client-error', pool: 'cpuNetworkPod', volumes: ['otherNetworkVolume'], mounts: (v) => ({ network: [{ volumeId: v.volume!.id, path: '/data' }, { volumeId: v.other!.id, path: '/more' }] }) },
];

/** The pools a case borrows: the pod's, and the volumes its body names. */
const poolsOf = (pool: PodPool, volumes: readonly PoolName[] = []): PoolName[] => [...new Set<PoolName>([pool, ...volumes])];

/** Each kind of pod at creation, for the rules about every kind. */
const EVERY_KIND: Record<Kind, PodPool> = { network: 'cpuNetworkPod', persistent: 'gpuPersistentPod', none: 'cpuPod' };

/** The pooled volumes the cases of one pod name: the network pod's own, and the others borrowed only when named. */
async function volumesOf(pods: PodKit, lent: Lent, cases: readonly Refusal[]): Promise<Volumes> {
  const needs = new Set(cases.flatMap((r) => r.volumes ?? []));
  return {
    volume: lent.volume ?? (needs.has('networkVolume') ? await pods.pooledVolume('networkVolume') : undefined),
    other: needs.has('otherNetworkVolume') ? await pods.pooledVolume('otherNetworkVolume') : undefined,
  };
}

test.describe('updatePod: mount semantics', () => {
  // The refusals to one pooled pod in one test, the pod lent once and read once after its cases
  // (a request each on a rate-limited account); a test per pod, so a pod the target cannot make
  // (no GPU capacity) or that never settled leaves only its own cases' rules undecided.
  for (const pool of [...new Set(refusals.map((r) => r.pool))]) {
    const cases = refusals.filter((r) => r.pool === pool);
    test(`PATCH with a mount change the spec refuses, on the pooled ${pool}, is refused each time and leaves the mounts unchanged (${cases.length} cases)`,
      rules(...new Set(cases.map((r) => r.rule)), ...PROBLEM_RULES, creates({ pools: [...new Set(cases.flatMap((r) => poolsOf(r.pool, r.volumes)))] })), async ({ api, pods, pools }) => {
        const lent = await lendIfSettled(pods, pool);
        if (typeof lent === 'string') {
          // Nothing was sent: the problem rules it declares for the refusals went unchecked too.
          for (const rule of new Set([...cases.map((r) => r.rule), ...PROBLEM_RULES])) unchecked(rule, lent);
          return;
        }
        const volumes = await volumesOf(pods, lent, cases);
        const outcome = await refusedOn(lentIo(api, lent), lent.mounts, cases.map((r) => ({ ...r, mounts: r.mounts(volumes) })));
        // Left other than as lent (or unknown): put back after the test, or the pool retires the pod.
        if (outcome.dirty) pools.restoreAfter(lent.pool, () => restoreMounts(api, lent));
        for (const { rule, reason } of outcome.untold) unchecked(rule, reason);
        conform(outcome.findings);
      });
  }

  // Each PATCH changes something (the name, with the run's prefix kept): a target that drops
  // the mounts on a real update fails, which a PATCH that changes nothing would never show. The
  // new name ends in this test's own mark, so it is a change whatever test renamed the pod
  // before. The pooled pod keeps it: no test relies on a pooled pod's name (each reads its
  // mounts, status or placement; the run finds what it made by id and by the run's prefix), and
  // putting it back would be a request per pod.
  for (const [title, rule, withEmpty] of [
    ['omitting mounts', 'MOUNT.UPDATE.OMITTED_UNCHANGED', false],
    ['mounts {}', 'MOUNT.UPDATE.EMPTY_OBJECT_UNCHANGED', true],
  ] as const) {
    test(`PATCH ${title} with a new name succeeds and leaves every kind of mount unchanged`, rules(rule, creates({ pools: Object.values(EVERY_KIND) })), async ({ api, pods, uniqueName }) => {
      const findings: Finding[] = [];
      const mark = uniqueName.prefix.split('-').at(-2);
      for (const kind of ['network', 'persistent', 'none'] as const) {
        const lent = await lend(pods, EVERY_KIND[kind]);
        const body = { name: `${lent.pod.name}-${mark}`, ...(withEmpty ? { mounts: {} } : {}) };
        const res = await PATCH(api, lent.pod, body);
        const after = await mountsOf(api, lent.pod);
        findings.push(...must(isOk(res), rule, `PATCH ${JSON.stringify(body)} on the ${kind} pod answered ${res.status}: ${res.text.slice(0, 200)}`));
        if (isUnread(after)) unchecked(rule, `${kind} pod: the read after PATCH ${JSON.stringify(body)}: ${after.unread}`);
        else findings.push(...must(sameMounts(after, lent.mounts), rule, `${kind} pod: after PATCH ${JSON.stringify(body)} mounts changed from ${JSON.stringify(lent.mounts)} to ${JSON.stringify(after)}`));
      }
      conform(findings);
    });
  }

  test('PATCH may change the path of a persistent mount (same size)', rules('MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', creates({ pools: ['gpuPersistentPod'] })), async ({ api, pods, pools }) => {
    const lent = await lend(pods, 'gpuPersistentPod');
    // Changed back after the test: a second change of the path, so a path changeable once fails the rule.
    pools.restoreAfter(lent.pool, () => restoreMounts(api, lent), 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE');
    const size = lent.mounts.persistent!.size;
    const res = await PATCH(api, lent.pod, { mounts: { persistent: { size, path: '/moved' } } });
    const after = await mountsOf(api, lent.pod);
    if (isUnread(after)) unchecked('MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', `the read after the PATCH: ${after.unread}`);
    conform(
      must(isOk(res), 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', `PATCH answered ${res.status}: ${res.text.slice(0, 200)}`),
      isUnread(after) ? [] : must(after?.persistent?.path === '/moved' && after.persistent.size === size, 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', `mounts are now ${JSON.stringify(after)}`),
    );
  });

  test('PATCH may change the path of a network mount (same volumeId)', rules('MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', 'MOUNT.NETWORK.AT_MOST_ONE', creates({ pools: ['cpuNetworkPod'] })), async ({ api, pods, pools }) => {
    const lent = await lend(pods, 'cpuNetworkPod');
    pools.restoreAfter(lent.pool, () => restoreMounts(api, lent), 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE');
    const volumeId = lent.volume!.id;
    const res = await PATCH(api, lent.pod, { mounts: { network: [{ volumeId, path: '/mnt/moved' }] } });
    const read = await api.op<Pod>('getPod', { params: { podId: lent.pod.id } });
    const after = podMounts(read, lent.pod.id);
    if (isUnread(after)) for (const rule of ['MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', 'MOUNT.NETWORK.AT_MOST_ONE']) unchecked(rule, `the read after the PATCH: ${after.unread}`);
    conform(
      must(isOk(res), 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', `PATCH answered ${res.status}: ${res.text.slice(0, 200)}`),
      isUnread(after) ? [] : must(JSON.stringify(after?.network) === JSON.stringify([{ volumeId, path: '/mnt/moved' }]), 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', `mounts are now ${JSON.stringify(after)}`),
      isUnread(after) ? [] : podConformance(read.body, { kind: 'cpu', where: 'getPod after PATCH' }),
    );
  });
});

const isOk = (res: ApiResult): boolean => res.status >= 200 && res.status < 300;
