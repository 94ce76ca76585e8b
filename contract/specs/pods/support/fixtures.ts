import { test as base } from '../../../support/fixtures.js';
import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { CreateCpuConfig, CreatePodRequest, NetworkVolume, Pod } from '../../../../lib/types.gen.js';
import { conform } from '../../../support/rules.js';
import { loadCatalog, picks, vcpuCounts, type PodCatalog } from './catalog.js';
import { waitForStatus, type WaitOptions, type WaitResult } from './wait.js';

/**
 * Pod helpers for one test: catalog picks, valid bodies, creation that is cleaned up on a real
 * target (pods deleted, volumes the test created deleted), pod counts for "no pod is created"
 * checks, and bounded readiness polling.
 */
export interface PodKit {
  catalog(): Promise<PodCatalog>;
  /** A valid GPU pod body on an NVIDIA type (skips the test when the catalog has none). */
  gpuBody(extra?: Partial<CreatePodRequest>): Promise<CreatePodRequest>;
  /** A valid CPU pod body: the first flavor with its smallest valid vcpuCount. */
  cpuBody(extra?: Partial<CreatePodRequest>): Promise<CreatePodRequest>;
  create(body: unknown, options?: Omit<CallOptions, 'body'>): Promise<ApiResult<Pod>>;
  /** Records a pod made some other way (a property run), so a real target gets it deleted. */
  track(podId: string): void;
  /** Creates and requires 201 (failing `POD.CREATE.201_POD` otherwise). */
  created(body: CreatePodRequest): Promise<Pod>;
  /** A network volume of the caller in `dataCenterId`: an existing one, or (always with `fresh`) one made for the test. */
  volume(dataCenterId: string, options?: { fresh?: boolean }): Promise<NetworkVolume>;
  /** How many pods listPods shows the caller. */
  count(): Promise<number>;
  waitFor(podId: string, statuses: readonly string[], options?: WaitOptions): Promise<WaitResult>;
}

const NAME = 'cpc-conformance';

export const test = base.extend<{ pods: PodKit }>({
  pods: async ({ api, emu }, use, testInfo) => {
    const madePods: string[] = [];
    const madeVolumes: string[] = [];
    let catalog: Promise<PodCatalog> | undefined;
    const kit: PodKit = {
      catalog: () => (catalog ??= loadCatalog(api)),
      async gpuBody(extra = {}) {
        const gpu = picks(await kit.catalog()).nvidia;
        testInfo.skip(!gpu, 'the target\'s GPU catalog lists no NVIDIA type');
        return { name: NAME, image: 'busybox:latest', gpu: { id: gpu!.id }, ...extra };
      },
      async cpuBody(extra = {}) {
        const cpu = picks(await kit.catalog()).cpu;
        testInfo.skip(!cpu, 'the target\'s CPU catalog lists no flavor with a power-of-two vCPU count');
        return { name: NAME, image: 'busybox:latest', cpu: { id: cpu!.id, vcpuCount: vcpuCounts(cpu!)[0]! as CreateCpuConfig['vcpuCount'] }, ...extra };
      },
      async create(body, options = {}) {
        const res = await api.op<Pod>('createPod', { ...options, body });
        if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') madePods.push(res.body.id);
        return res;
      },
      track: (podId) => { madePods.push(podId); },
      async created(body) {
        const res = await kit.create(body);
        conform(res.status === 201 ? [] : [{ rule: 'POD.CREATE.201_POD', message: `createPod of a valid body answered ${res.status}: ${res.text.slice(0, 300)}` }]);
        return res.body;
      },
      async volume(dataCenterId, options = {}) {
        if (!options.fresh) {
          const list = await api.op<NetworkVolume[]>('listNetworkVolumes');
          const existing = Array.isArray(list.body) ? list.body.find((v) => v.dataCenter === dataCenterId) : undefined;
          if (existing) return existing;
        }
        const res = await api.op<NetworkVolume>('createNetworkVolume', { body: { name: `${NAME}-${dataCenterId.toLowerCase()}`, size: 10, dataCenter: dataCenterId } });
        testInfo.skip(res.status !== 201, `the target could not make a network volume in ${dataCenterId} (${res.status})`);
        madeVolumes.push(res.body.id);
        return res.body;
      },
      async count() {
        const res = await api.op<{ pods?: unknown[] }>('listPods');
        return Array.isArray(res.body?.pods) ? res.body.pods.length : Array.isArray(res.body) ? (res.body as unknown[]).length : 0;
      },
      waitFor: (podId, statuses, options) => waitForStatus(api, emu, podId, statuses, options),
    };
    await use(kit);
    // A fresh emulator world disappears with the test; a real target keeps what the test made.
    if (!emu.available) await cleanUp(api, madePods, madeVolumes);
  },
});

async function cleanUp(api: ApiClient, pods: string[], volumes: string[]): Promise<void> {
  for (const podId of pods) await api.op('deletePod', { params: { podId } }).catch(() => undefined);
  for (const volumeId of volumes) await api.op('deleteNetworkVolume', { params: { volumeId } }).catch(() => undefined);
}

export { expect } from '../../../support/fixtures.js';
