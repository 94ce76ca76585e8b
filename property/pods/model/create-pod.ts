import fc from 'fast-check';
import type { CreatePodRequest, Pod } from '../../../lib/types.gen.js';
import { statusCodeConformance } from '../../../contract/checks/status.js';
import { createdPodConformance } from '../../../contract/checks/pod-echo.js';
import { podConformance } from '../../../contract/checks/pod-conformance.js';
import { type PodModel, type PodReal } from './model.js';
import { throwFindings } from '../../../lib/errors.js';
import { onOtherGpuTypes } from '../../../lib/pod-catalog.js';

type MountKind = 'none' | 'persistent' | 'network';

/** createPod: 201, PROVISIONING, `startedAt` and `runtime` null, the mounts sent. */
export class CreatePodCommand implements fc.AsyncCommand<PodModel, PodReal> {
  constructor(readonly kind: 'gpu' | 'cpu', readonly mount: MountKind) {}

  check = (): boolean => true;

  async run(m: PodModel, r: PodReal): Promise<void> {
    const base = this.kind === 'gpu' ? r.gpuBody : r.cpuBody;
    const mounts = this.mount === 'persistent' ? { persistent: { size: 20, path: '/workspace' } }
      : this.mount === 'network' ? { network: [{ volumeId: r.volume.id, path: '/data' }] } : undefined;
    const sent = { ...base, ...(mounts ? { mounts, dataCenterIds: [r.volume.dataCenter] } : {}) };
    const send = (b: CreatePodRequest) => r.api.op<Pod>('createPod', { body: b });
    // A 400 to a GPU body may be capacity (platform notes): the next candidate types decide.
    const { res, body } = await onOtherGpuTypes(await send(sent), sent, r.gpuCandidates, send);
    throwFindings(statusCodeConformance('POD.CREATE.201_POD', res, 201));
    throwFindings(createdPodConformance(body, res.body), podConformance(res.body, { kind: this.kind, where: 'createPod → 201' }));
    m.pods.push({ id: res.body.id, kind: this.kind, mounts: mounts ?? {}, status: res.body.status, actions: res.body.actions, locked: false, startedAt: res.body.startedAt, since: m.clock });
  }

  toString = (): string => `createPod(${this.kind}, ${this.mount})`;
}

/** GPU pods with any mount; CPU pods without a persistent mount (spec: "disallowed on CPU pods"). */
export const createPodCommand = (): fc.Arbitrary<CreatePodCommand> => fc.oneof(
  fc.constantFrom<MountKind>('none', 'persistent', 'network').map((mount) => new CreatePodCommand('gpu', mount)),
  fc.constantFrom<MountKind>('none', 'network').map((mount) => new CreatePodCommand('cpu', mount)),
);
