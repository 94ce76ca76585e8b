import fc from 'fast-check';
import type { Pod } from '../../../lib/types.gen.js';
import { rejectionConformance } from '../../../contract/checks/rejection.js';
import { statusCodeConformance, type ExpectedStatus } from '../../../contract/checks/status.js';
import { livePod, observe, type ModelPod, type PodModel, type PodReal } from './model.js';
import { throwFindings } from '../../../lib/errors.js';

type Variant = 'omitted' | 'empty-object' | 'network-empty' | 'new-kind' | 'other-volume' | 'incomplete' | 'new-path';

/** What the spec's PATCH semantics say about a variant on this pod: the answer and the mounts after. */
function expectation(v: Variant, pod: ModelPod, r: PodReal): { body: unknown; rule: string; status: ExpectedStatus; mounts: ModelPod['mounts'] } | undefined {
  const { persistent, network } = pod.mounts;
  switch (v) {
    case 'omitted': return { body: { name: 'cpc-model' }, rule: 'MOUNT.UPDATE.OMITTED_UNCHANGED', status: 'success', mounts: pod.mounts };
    case 'empty-object': return { body: { mounts: {} }, rule: 'MOUNT.UPDATE.EMPTY_OBJECT_UNCHANGED', status: 'success', mounts: pod.mounts };
    case 'network-empty': return { body: { mounts: { network: [] } }, rule: 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400', status: 400, mounts: pod.mounts };
    case 'new-kind': {
      const rule = persistent ? 'MOUNT.UPDATE.NETWORK_ON_PERSISTENT_POD_400' : network ? 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400' : 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400';
      const body = persistent || pod.kind === 'cpu' ? { mounts: { network: [{ volumeId: r.volume.id, path: '/new' }] } } : { mounts: { persistent: { size: 20, path: '/new' } } };
      // A CPU pod created with a network mount has no kind left that only this rule refuses.
      if (network && pod.kind === 'cpu') return undefined;
      return { body, rule, status: 400, mounts: pod.mounts };
    }
    case 'other-volume': return network ? { body: { mounts: { network: [{ volumeId: r.otherVolume.id, path: network[0]!.path }] } }, rule: 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400', status: 400, mounts: pod.mounts } : undefined;
    case 'incomplete':
      if (persistent) return { body: { mounts: { persistent: { path: '/x' } } }, rule: 'MOUNT.UPDATE.INCOMPLETE_PERSISTENT_422', status: 422, mounts: pod.mounts };
      if (network) return { body: { mounts: { network: [{ path: '/x' }] } }, rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', status: 422, mounts: pod.mounts };
      return undefined;
    case 'new-path':
      if (persistent) return { body: { mounts: { persistent: { ...persistent, path: `${persistent.path}x` } } }, rule: 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', status: 'success', mounts: { persistent: { ...persistent, path: `${persistent.path}x` } } };
      if (network) return { body: { mounts: { network: [{ ...network[0]!, path: `${network[0]!.path}x` }] } }, rule: 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', status: 'success', mounts: { network: [{ ...network[0]!, path: `${network[0]!.path}x` }] } };
      return undefined;
  }
}

/** updatePod with a mounts variant, checked against the spec's "Update (PATCH) semantics". */
export class PatchMountsCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly index: number, readonly variant: Variant) {}

  check = (m: Readonly<PodModel>): boolean => livePod(m as PodModel, this.index) !== undefined;

  async run(m: PodModel, r: PodReal): Promise<void> {
    const pod = livePod(m, this.index)!;
    const e = expectation(this.variant, pod, r);
    if (!e) return;
    const res = await r.api.op<Pod>('updatePod', { params: { podId: pod.id }, body: e.body });
    throwFindings(e.status === 'success'
      ? statusCodeConformance(e.rule, res, 'success').map((f) => ({ ...f, message: `PATCH ${JSON.stringify(e.body)}: ${f.message}` }))
      : rejectionConformance(e.rule, res, e.status));
    pod.mounts = e.mounts;
    const after = await r.api.op<Pod>('getPod', { params: { podId: pod.id } });
    observe(pod, after.body, `getPod ${pod.id} after PATCH ${JSON.stringify(e.body)} (${e.rule})`, m.clock);
  }

  toString = (): string => `patchMounts(#${this.index}, ${this.variant})`;
}

export const patchMountsCommand = (): fc.Arbitrary<PatchMountsCommand> =>
  fc.tuple(fc.nat(7), fc.constantFrom<Variant>('omitted', 'empty-object', 'network-empty', 'new-kind', 'other-volume', 'incomplete', 'new-path'))
    .map(([i, v]) => new PatchMountsCommand(i, v));
