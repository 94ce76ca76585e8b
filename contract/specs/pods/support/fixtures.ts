import { test as base } from '../../../support/fixtures.js';
import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { CreateCpuConfig, CreatePodRequest, NetworkVolume, Pod } from '../../../../lib/types.gen.js';
import { conform } from '../../../support/rules.js';
import { isNvidia, listOf, loadCatalog, picks, vcpuCounts, type PodCatalog } from '../../../../lib/pod-catalog.js';
import { waitForStatus, type WaitOptions, type WaitResult } from './wait.js';
import { runConfig } from '../../../../lib/run-config.js';
import { Registry } from '../../../support/cleanup.js';

/**
 * Pod helpers for one test: catalog picks, valid bodies from the target profile (lib/profile.ts)
 * with a name unique to the run and test, creation that is cleaned up on a real target (pods
 * deleted, volumes the test created deleted), "no pod is created" checks by id, and bounded
 * readiness polling.
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
  /** The caller's pods now (id → name), to tell afterwards whether a refused request made one. */
  snapshot(): Promise<Map<string, string | undefined>>;
  /**
   * Pods listed now that were not in `before` and that no other test of this run made (by the
   * run's record of creations and its names): on a shared account other tests create pods
   * meanwhile, so the suite compares ids, never counts.
   */
  madeSince(before: Map<string, string | undefined>): Promise<string[]>;
  waitFor(podId: string, statuses: readonly string[], options?: WaitOptions): Promise<WaitResult>;
}

/** A real target's catalog, read once per worker (an emulator world has its own, read per test). */
const workerCatalogs = new Map<string, Promise<PodCatalog>>();

/** What a profile-less run creates pods with: an NVIDIA type the catalog says is available, else the first NVIDIA type. */
function defaultGpu(c: PodCatalog): PodCatalog['gpus'][number] | undefined {
  const unavailable = (v: unknown) => v === false || v === 0 || (typeof v === 'string' && /^(none|unavailable|out of stock)$/i.test(v));
  return c.gpus.filter(isNvidia).find((g) => !unavailable((g as { availability?: unknown }).availability)) ?? picks(c).nvidia;
}

export const test = base.extend<{ pods: PodKit }>({
  pods: [async ({ api, emu, uniqueName }, use, testInfo) => {
    const madePods: string[] = [];
    const madeVolumes: string[] = [];
    const profile = runConfig().profile;
    const podName = uniqueName('pod');
    let catalog: Promise<PodCatalog> | undefined;
    // The profile's image and long-running command: a container that exits at once never stays RUNNING.
    const common = () => ({ name: podName, image: profile.podImage, args: profile.podArgs, ...(profile.dataCenter ? { dataCenterIds: [profile.dataCenter] } : {}) });
    const kit: PodKit = {
      catalog: () => {
        if (emu.available) return (catalog ??= loadCatalog(api));
        const key = api.urls.baseUrl;
        if (!workerCatalogs.has(key)) workerCatalogs.set(key, loadCatalog(api));
        return workerCatalogs.get(key)!;
      },
      async gpuBody(extra = {}) {
        const c = await kit.catalog();
        const gpu = profile.gpuType ? c.gpus.find((g) => g.id === profile.gpuType) : defaultGpu(c);
        testInfo.skip(!gpu, profile.gpuType ? `the target's GPU catalog lists no ${profile.gpuType} (CPC_GPU_TYPE)` : 'the target\'s GPU catalog lists no NVIDIA type');
        return { ...common(), gpu: { id: gpu!.id }, ...extra };
      },
      async cpuBody(extra = {}) {
        const c = await kit.catalog();
        const cpu = profile.cpuFlavor ? c.cpus.find((f) => f.id === profile.cpuFlavor && vcpuCounts(f).length > 0) : picks(c).cpu;
        testInfo.skip(!cpu, profile.cpuFlavor ? `the target's CPU catalog lists no usable flavor ${profile.cpuFlavor} (CPC_CPU_FLAVOR)` : 'the target\'s CPU catalog lists no flavor with a power-of-two vCPU count');
        return { ...common(), cpu: { id: cpu!.id, vcpuCount: vcpuCounts(cpu!)[0]! as CreateCpuConfig['vcpuCount'] }, ...extra };
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
          const list = await api.op('listNetworkVolumes');
          const existing = listOf<NetworkVolume>(list.body, 'networkVolumes').find((v) => v?.dataCenter === dataCenterId);
          if (existing) return existing;
        }
        const res = await api.op<NetworkVolume>('createNetworkVolume', { body: { name: uniqueName('vol'), size: 10, dataCenter: dataCenterId } });
        testInfo.skip(res.status !== 201, `the target could not make a network volume in ${dataCenterId} (${res.status})`);
        madeVolumes.push(res.body.id);
        return res.body;
      },
      async snapshot() {
        const res = await api.op('listPods');
        const list = listOf<Pod>(res.body, 'pods');
        return new Map(list.filter((p) => typeof p?.id === 'string').map((p) => [p.id, typeof p.name === 'string' ? p.name : undefined]));
      },
      async madeSince(before) {
        const now = await kit.snapshot();
        const { cleanupFile: file } = runConfig();
        const others = file ? new Registry(file).knownIds('pod', testInfo.titlePath.slice(1).join(' › ')) : new Set<string>();
        // A pod named by another test of this run, of a concurrent shard or of any other run
        // (`cpc-…` but not this test's prefix) is not this test's doing: what a refused request
        // made carries this test's name.
        const mine = uniqueName.prefix;
        return [...now].filter(([id, name]) => !before.has(id) && !others.has(id) && !(name?.startsWith('cpc-') && !name.startsWith(mine))).map(([id]) => id);
      },
      waitFor: (podId, statuses, options) => waitForStatus(api, emu, podId, statuses, options),
    };
    await use(kit);
    // A fresh emulator world disappears with the test; a real target keeps what the test made.
    if (!emu.available) await cleanUp(api, madePods, madeVolumes);
  }, { box: 'self' }],
});

async function cleanUp(api: ApiClient, pods: string[], volumes: string[]): Promise<void> {
  for (const podId of pods) await api.op('deletePod', { params: { podId } }).catch(() => undefined);
  for (const volumeId of volumes) await api.op('deleteNetworkVolume', { params: { networkVolumeId: volumeId } }).catch(() => undefined);
}
