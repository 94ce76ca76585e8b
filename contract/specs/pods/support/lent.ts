import type { ApiClient } from '../../../../lib/client/api.js';
import type { Mounts, NetworkVolume, Pod } from '../../../../lib/types.gen.js';
import { POOLED, test, type PodKit, type PodPool } from './fixtures.js';

export type { PodPool };

/** A pooled pod as lent: its mounts as the pool creates them, and the pooled volume it mounts. */
export interface Lent { pool: PodPool; pod: Pod; mounts: Mounts; volume?: NetworkVolume }

/** Statuses a pod stays in until asked: no transition under way that a conforming target may answer 409 for. */
const SETTLED = ['RUNNING', 'EXITED', 'ERROR'] as const;

/**
 * Borrows the pooled pod `pool`, once it is in a settled status: a pod an earlier test left
 * restarting (or one still starting) may be answered 409 by a conforming target, whatever the
 * request, so what a test expects never depends on what another did before it. Its mounts as
 * lent are those the pool creates it with (the shapes `PodKit.pooled` documents): every test
 * that changes them puts them back, so a test may compare what it reads afterwards with these
 * without reading them first.
 */
export async function lend(pods: PodKit, pool: PodPool): Promise<Lent> {
  const lent = await lendIfSettled(pods, pool);
  test.skip(typeof lent === 'string', lent as string);
  return lent as Lent;
}

/** As {@link lend}, for a test that goes on without this pool: why not, instead of skipping the test. */
export async function lendIfSettled(pods: PodKit, pool: PodPool): Promise<Lent | string> {
  const pod = await pods.pooled(pool);
  // A pod an earlier test read settled moments ago, and left alone since, is not read again.
  const known = pods.lastRead(pod.id);
  if (!known || !(SETTLED as readonly string[]).includes(known)) {
    const settled = await pods.waitFor(pod.id, SETTLED);
    if (!settled.reached) return `the pooled ${pool} did not settle (${settled.seen.join(' → ')}): no pod in a stable status to send the request to`;
  }
  if (pool === 'gpuPersistentPod') return { pool, pod, mounts: { persistent: { ...POOLED.persistent.mount } } };
  if (pool === 'cpuNetworkPod' || pool === 'gpuNetworkPod') {
    const volume = await pods.pooledVolume('networkVolume');
    return { pool, pod, volume, mounts: { network: [{ volumeId: volume.id, path: POOLED.networkPath[pool] }] } };
  }
  return { pool, pod, mounts: {} };
}

/**
 * Mounts by meaning: the persistent mount's size and path, each network entry's volumeId and
 * path, in order. No mount of a kind (absent, null, an empty list) is the same as another.
 */
export function sameMounts(a: Mounts | null | undefined, b: Mounts | null | undefined): boolean {
  const norm = (m: Mounts | null | undefined) => {
    const p = m?.persistent as { size?: unknown; path?: unknown } | null | undefined;
    const n = Array.isArray(m?.network) ? (m.network as { volumeId?: unknown; path?: unknown }[]) : [];
    return JSON.stringify({
      persistent: p && typeof p === 'object' ? { size: p.size, path: p.path } : null,
      network: n.map((e) => (e && typeof e === 'object' ? { volumeId: e.volumeId, path: e.path } : e)),
    });
  };
  return norm(a) === norm(b);
}

/**
 * Puts a lent pod's mounts back as lent (for `pools.restoreAfter`): PATCHes them and holds the
 * pod as restored when the answer shows them, or else a read does.
 */
export async function restoreMounts(api: ApiClient, lent: Lent): Promise<boolean> {
  const res = await api.op<Pod>('updatePod', { params: { podId: lent.pod.id }, body: { mounts: lent.mounts } });
  if (res.status < 200 || res.status >= 300) return false;
  if (res.body && typeof res.body === 'object' && 'mounts' in res.body) return sameMounts(res.body.mounts, lent.mounts);
  const now = await api.op<Pod>('getPod', { params: { podId: lent.pod.id } });
  return sameMounts(now.body?.mounts, lent.mounts);
}
