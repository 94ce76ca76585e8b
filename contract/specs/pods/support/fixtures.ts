import { existsSync, readFileSync } from 'node:fs';
import { test as base } from '../../../support/fixtures.js';
import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { CreateCpuConfig, CreatePodRequest, NetworkVolume, Pod } from '../../../../lib/types.gen.js';
import { blocked, breaks, conform } from '../../../support/rules.js';
import { gpuCandidates, listOf, loadCatalog, onOtherGpuTypes, picks, vcpuCounts, type GpuEntry, type PodCatalog } from '../../../../lib/pod-catalog.js';
import { ANNOTATION } from '../../../../lib/protocol.js';
import { waitForStatus, type WaitOptions, type WaitResult } from './wait.js';
import { runConfig } from '../../../../lib/run-config.js';
import { Registry } from '../../../../lib/cleanup.js';
import { podListing, type Listing, type Unread } from '../../../support/reads.js';

/**
 * Pod helpers for one test: catalog picks, valid bodies from the target profile (lib/profile.ts)
 * with a name unique to the run and test, creation that is cleaned up on a real target (pods
 * deleted, volumes the test created deleted), "no pod is created" checks by id, and bounded
 * readiness polling.
 */
/** The pooled pods (lib/plan.ts `PoolName`). */
export type PodPool = 'gpuPod' | 'gpuPersistentPod' | 'gpuNetworkPod' | 'cpuPod' | 'cpuNetworkPod';

export interface PodKit {
  catalog(): Promise<PodCatalog>;
  /** A valid GPU pod body on an NVIDIA type (skips the test when the catalog has none). */
  gpuBody(extra?: Partial<CreatePodRequest>): Promise<CreatePodRequest>;
  /** A valid CPU pod body: the first flavor with its smallest valid vcpuCount. */
  cpuBody(extra?: Partial<CreatePodRequest>): Promise<CreatePodRequest>;
  /**
   * Sends createPod. A GPU body on one of the candidate types ({@link gpuCandidates}) that is
   * answered 400 is sent again on the next candidates until one answers otherwise: the live
   * platform places one specific type per create and answers 400 when it has no capacity, so
   * one candidate's 400 decides nothing (a 400 from every candidate is the body's). When
   * another type answers, the body's `gpu` is set to it, so checks against the body compare
   * with what was sent last.
   */
  create(body: unknown, options?: Omit<CallOptions, 'body'>): Promise<ApiResult<Pod>>;
  /**
   * Creates a body the test holds valid and expects placed: {@link create}, and when every
   * candidate refused it, finds out why. The same placement (data centers, cloud) without the
   * body's other features placed: the answer is returned for the test's own check to judge.
   * Only elsewhere: the test is blocked, "no capacity". Nowhere, not even a minimal body: the
   * target refuses valid GPU creates, which fails `POD.CREATE.201_POD`.
   */
  place(body: CreatePodRequest): Promise<ApiResult<Pod>>;
  /** The GPU types a valid GPU create is tried on, in order (the profile's list, else the catalog's NVIDIA types, available first). */
  gpuCandidates(): Promise<GpuEntry[]>;
  /** Records a pod made some other way (a property run), so a real target gets it deleted. */
  track(podId: string): void;
  /** Creates and requires 201 (failing `POD.CREATE.201_POD` otherwise). */
  created(body: CreatePodRequest): Promise<Pod>;
  /** A network volume of the caller in `dataCenterId`: an existing one, or (always with `fresh`) one made for the test. */
  volume(dataCenterId: string, options?: { fresh?: boolean }): Promise<NetworkVolume>;
  /**
   * The caller's pods now (id → name), to tell afterwards whether a refused request made one;
   * `Unread` when listPods did not answer a list (a failed listing is never "no pods").
   */
  snapshot(): Promise<Listing | Unread>;
  /**
   * Pods in `after` that were not in `before` and that no other test of this run made (by the
   * run's record of creations and its names): on a shared account other tests create pods
   * meanwhile, so the suite compares ids, never counts.
   */
  newIn(before: Listing, after: Listing): string[];
  waitFor(podId: string, statuses: readonly string[], options?: WaitOptions): Promise<WaitResult>;
  /**
   * The status of a pod as read moments ago (at most {@link FRESH_MS}) by a test of this worker on
   * a deployment, when nothing was asked of the pod since: a pooled pod lent to test after test
   * need not be read again for each. Undefined when unknown (an emulator world: pods of its own).
   */
  lastRead(podId: string): string | undefined;
  /**
   * A pooled pod or volume (lib/plan.ts `PoolName`; the test declares it with
   * `creates({ pools: [...] })`): on a deployment one per worker, lent to each test that
   * declares it; in an emulator world the test's own. `gpuPod` a GPU pod without mounts,
   * `gpuPersistentPod` one on COMMUNITY with 2 GPUs and a 10 GB persistent mount at /mnt/state
   * ({@link POOLED}), preferably in a data center without global networking, `gpuNetworkPod` one with the pooled `networkVolume` at /mnt/shared in the volume's data center, asking for global
   * networking where that data center has it (an NVIDIA type: the one pod global networking
   * needs), `cpuPod` a CPU pod without mounts that says `globalNetworking: false`,
   * `cpuNetworkPod` a CPU pod with the pooled volume at /data. A test that changes one restores it ({@link Pools.restoreAfter}); reading or
   * being refused changes nothing. Pooled pods are never waited for: a test that needs one
   * RUNNING waits itself.
   */
  pooled(name: PodPool): Promise<Pod>;
  /** A pooled pod with the body its createPod sent (its answer is a create answer like any other, for a test to judge). */
  pooledAnswer(name: PodPool): Promise<{ pod: Pod; sent: CreatePodRequest }>;
  pooledVolume(name: 'networkVolume' | 'otherNetworkVolume'): Promise<NetworkVolume>;
}

/**
 * What the pooled pods are made with beyond a minimal body, so that a deployment, where every
 * test borrows them, still sends the values the rules are about: the persistent GPU pod on
 * COMMUNITY hardware with 2 GPUs and a persistent mount of the minimum size (10 GB, spec:
 * "minimum 10") at a path of its own; the two network pods at two different paths (a target
 * that mounts every network volume at one path fails the one elsewhere).
 */
export const POOLED = {
  persistent: { cloud: 'COMMUNITY' as const, gpuCount: 2, mount: { size: 10, path: '/mnt/state' } },
  networkPath: { cpuNetworkPod: '/data', gpuNetworkPod: '/mnt/shared' } as const,
};

/** How long a pod's status read by an earlier test is taken as its status now (see `PodKit.lastRead`). */
export const FRESH_MS = 30_000;

/**
 * Pods' statuses as last read on a deployment, by base URL and id, across the tests of a worker;
 * forgotten when the pod is asked anything that may move it (an accepted update or action).
 */
const readStatuses = new Map<string, { status: string; at: number }>();

/** A real target's catalog, read once per worker (an emulator world has its own, read per test). */
const workerCatalogs = new Map<string, Promise<PodCatalog>>();

/** The parts of a pod body that choose where it runs, and the minimal body that keeps them. */
const placementOf = (body: CreatePodRequest): Partial<CreatePodRequest> => ({
  ...(body.cloud ? { cloud: body.cloud } : {}), ...(body.dataCenterIds?.length ? { dataCenterIds: body.dataCenterIds } : {}),
});

export const test = base.extend<{ pods: PodKit }>({
  pods: [async ({ api, emu, uniqueName, pools }, use, testInfo) => {
    const madePods: string[] = [];
    const madeVolumes: string[] = [];
    const profile = runConfig().profile;
    const podName = uniqueName('pod');
    let catalog: Promise<PodCatalog> | undefined;
    // The profile's image and long-running command: a container that exits at once never stays RUNNING.
    const common = () => ({ name: podName, image: profile.podImage, args: profile.podArgs, ...(profile.dataCenter ? { dataCenterIds: [profile.dataCenter] } : {}) });
    const gpuBodyOf = (body: unknown): (CreatePodRequest & { gpu: NonNullable<CreatePodRequest['gpu']> }) | undefined => {
      const b = body as CreatePodRequest | undefined;
      return b && typeof b === 'object' && b.gpu && typeof b.gpu === 'object' && typeof b.gpu.id === 'string' ? b as CreatePodRequest & { gpu: NonNullable<CreatePodRequest['gpu']> } : undefined;
    };
    const send = async (body: unknown, options: Omit<CallOptions, 'body'> = {}) => {
      const res = await api.op<Pod>('createPod', { ...options, body });
      if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') madePods.push(res.body.id);
      return res;
    };
    /** Sends `body` on its type, then, while the answer is 400, on the other candidates; which were refused 400. */
    const onCandidates = async (body: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<{ res: ApiResult<Pod>; refused: string[] }> => {
      const first = await send(body, options);
      const gpuBody = gpuBodyOf(body);
      if (first.status !== 400 || !gpuBody) return { res: first, refused: [] };
      const candidates = (await kit.gpuCandidates()).map((g) => g.id);
      if (!candidates.includes(gpuBody.gpu.id)) return { res: first, refused: [] };
      const { res, body: answered, refused } = await onOtherGpuTypes(first, gpuBody, candidates, (next) => send(next, options));
      if (answered !== gpuBody) {
        // What was placed (or answered otherwise) is what the test's checks compare with.
        gpuBody.gpu = answered.gpu!;
        testInfo.annotations.push({ type: ANNOTATION.note, description: `createPod answered 400 on GPU type(s) ${refused.join(', ')} and ${res.status} on ${gpuBody.gpu.id} (capacity: the next candidate is tried)` });
      }
      return { res, refused };
    };
    const kit: PodKit = {
      catalog: () => {
        if (emu.available) return (catalog ??= loadCatalog(api));
        const key = api.urls.baseUrl;
        // The catalog preflight read for this run (a deployment reads it once per run), else once per worker.
        const file = runConfig().catalogFile;
        if (!workerCatalogs.has(key)) workerCatalogs.set(key, file && existsSync(file) ? Promise.resolve(JSON.parse(readFileSync(file, 'utf8')) as PodCatalog) : loadCatalog(api));
        return workerCatalogs.get(key)!;
      },
      async gpuCandidates() {
        return gpuCandidates(await kit.catalog(), profile).list;
      },
      async gpuBody(extra = {}) {
        const { list, why } = gpuCandidates(await kit.catalog(), profile);
        testInfo.skip(list.length === 0, why);
        return { ...common(), gpu: { id: list[0]!.id }, ...extra };
      },
      async cpuBody(extra = {}) {
        const c = await kit.catalog();
        const cpu = profile.cpuFlavor ? c.cpus.find((f) => f.id === profile.cpuFlavor && vcpuCounts(f).length > 0) : picks(c).cpu;
        testInfo.skip(!cpu, profile.cpuFlavor ? `the target's CPU catalog lists no usable flavor ${profile.cpuFlavor} (CPC_CPU_FLAVOR)` : 'the target\'s CPU catalog lists no flavor with a power-of-two vCPU count');
        return { ...common(), cpu: { id: cpu!.id, vcpuCount: vcpuCounts(cpu!)[0]! as CreateCpuConfig['vcpuCount'] }, ...extra };
      },
      async create(body, options = {}) {
        return (await onCandidates(body, options)).res;
      },
      async place(body) {
        const { res, refused } = await onCandidates(body);
        const gpu = gpuBodyOf(body)?.gpu;
        if (!gpu || res.status !== 400) return res;
        // A type the test chose on purpose (not a candidate: a non-NVIDIA GPU, say) is tried alone.
        const tried = `tried ${(refused.length ? refused : [gpu.id]).join(', ')}`;
        // Where the body's network volume is, it must run: that is part of its placement.
        const volumeId = body.mounts?.network?.[0]?.volumeId;
        const volumeDc = volumeId ? (await api.op<NetworkVolume>('getNetworkVolume', { params: { networkVolumeId: volumeId } })).body?.dataCenter : undefined;
        const placement = { ...placementOf(body), ...(typeof volumeDc === 'string' && !body.dataCenterIds?.length ? { dataCenterIds: [volumeDc] } : {}) };
        const minimal = (where: Partial<CreatePodRequest>, gpuId = gpu.id): CreatePodRequest => ({ name: uniqueName('probe'), image: profile.podImage, args: profile.podArgs, gpu: { id: gpuId }, ...where });
        const probe = async (b: CreatePodRequest) => (await onCandidates(b)).res.status === 201;
        // The same type and placement place a plain pod: the refusal was of this body, for its checks to judge.
        if (await probe(minimal(placement))) return res;
        const where = JSON.stringify(placement);
        const first = (await kit.gpuCandidates())[0]?.id ?? gpu.id;
        const chosen = refused.length === 0;
        if (where !== '{}' || chosen) {
          // A plain GPU pod anywhere, on the first candidate type it could be placed on: the pooled
          // GPU pod is one, and once it was placed (201) the target does take valid GPU creates;
          // else a minimal body is sent to find out.
          const pooled = pools.peek<{ pod: Pod }>('gpuPod')?.pod;
          const elsewhere = pooled ? `while the pooled GPU pod ${pooled.id} was placed` : await probe(minimal({}, first)) ? 'while a plain pod placed elsewhere' : undefined;
          if (elsewhere) blocked(`no GPU capacity for ${chosen ? `GPU type ${gpu.id}` : 'the candidate GPU types'}${where !== '{}' ? ` in ${where}` : ''}: ${tried}, answered 400, ${elsewhere}`);
        }
        breaks('POD.CREATE.201_POD', `every candidate GPU type refused a valid GPU createPod with 400, a minimal body too (${tried}): ${res.text.slice(0, 300)}`);
      },
      track: (podId) => { madePods.push(podId); },
      async created(body) {
        const res = await kit.place(body);
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
        return podListing(await api.op('listPods'));
      },
      newIn(before, now) {
        const { cleanupFile: file } = runConfig();
        const others = file ? new Registry(file).knownIds('pod', testInfo.titlePath.slice(1).join(' › ')) : new Set<string>();
        // A pod named by another test of this run, of a concurrent shard or of any other run
        // (`cpc-…` but not this test's prefix) is not this test's doing: what a refused request
        // made carries this test's name.
        const mine = uniqueName.prefix;
        return [...now].filter(([id, name]) => !before.has(id) && !others.has(id) && !(name?.startsWith('cpc-') && !name.startsWith(mine))).map(([id]) => id);
      },
      waitFor: (podId, statuses, options) => waitForStatus(api, emu, podId, statuses, options),
      lastRead(podId) {
        const read = pools.shared ? readStatuses.get(`${api.urls.baseUrl} ${podId}`) : undefined;
        return read && Date.now() - read.at <= FRESH_MS ? read.status : undefined;
      },
      pooledVolume(name) {
        return pools.borrow(name, async () => {
          // The profile's data center, else one with global networking (the pooled network GPU
          // pod asks for it there), else the first listed.
          const dcs = (await kit.catalog()).dataCenters;
          const dc = profile.dataCenter ? dcs.find((d) => d.id === profile.dataCenter) ?? dcs[0] : dcs.find((d) => d.globalNetwork === true) ?? dcs[0];
          testInfo.skip(!dc, 'the target lists no data center');
          const res = await api.op<NetworkVolume>('createNetworkVolume', { body: { name: poolName(name === 'networkVolume' ? 'vol' : 'vol2'), size: 10, dataCenter: dc!.id } });
          testInfo.skip(res.status !== 201, `the target could not make a network volume in ${dc!.id} (${res.status})`);
          return res.body;
        });
      },
      async pooled(name) {
        return (await kit.pooledAnswer(name)).pod;
      },
      pooledAnswer(name) {
        return pools.borrow(name, async () => {
          const named = { name: poolName(name) };
          let body: CreatePodRequest;
          if (name === 'gpuPod') body = await kit.gpuBody(named);
          else if (name === 'gpuPersistentPod') {
            // Preferably where the catalog lists a data center without global networking (unless the
            // profile names one): the NVIDIA pod such a data center needs (update-edges.spec.ts) is then a pooled one.
            const plain = profile.dataCenter ? undefined : picks(await kit.catalog()).plainDc;
            const gpu = await kit.gpuBody({ ...named, cloud: POOLED.persistent.cloud, mounts: { persistent: { ...POOLED.persistent.mount } }, ...(plain ? { dataCenterIds: [plain.id] } : {}) });
            body = { ...gpu, gpu: { ...gpu.gpu!, count: POOLED.persistent.gpuCount } };
          }
          else if (name === 'cpuPod') body = await kit.cpuBody({ ...named, globalNetworking: false });
          else {
            const volume = await kit.pooledVolume('networkVolume');
            const network = { dataCenterIds: [volume.dataCenter], mounts: { network: [{ volumeId: volume.id, path: POOLED.networkPath[name] }] } };
            const global = (await kit.catalog()).dataCenters.find((d) => d.id === volume.dataCenter)?.globalNetwork === true;
            body = name === 'gpuNetworkPod' ? await kit.gpuBody({ ...named, ...network, ...(global ? { globalNetworking: true } : {}) }) : await kit.cpuBody({ ...named, ...network });
          }
          const res = await kit.place(body);
          conform(res.status === 201 ? [] : [{ rule: 'POD.CREATE.201_POD', message: `createPod of a valid body answered ${res.status}: ${res.text.slice(0, 300)}` }]);
          // Made by the pool, deleted by the run's teardown (not by this test's).
          const i = madePods.indexOf(res.body.id);
          if (i >= 0) madePods.splice(i, 1);
          // `place` set the body's GPU type to the one that answered (capacity): what was sent last.
          return { pod: res.body, sent: body };
        });
      },
    };
    const poolName = (what: string) => `cpc-${runConfig().runId ?? 'local'}-pool-${what}`;
    // What the test deleted itself is not deleted again (a request each on a rate-limited target).
    api.observers.push((e) => {
      // Only the owner's deletion: another account's 404 means "not yours", not "gone".
      const gone = e.auth === 'main' && (e.status < 300 || e.status === 404);
      if (e.operation === 'deletePod' && gone && e.params?.podId) madePods.splice(0, madePods.length, ...madePods.filter((id) => id !== e.params!.podId));
      if (e.operation === 'deleteNetworkVolume' && gone && e.params?.networkVolumeId) madeVolumes.splice(0, madeVolumes.length, ...madeVolumes.filter((id) => id !== e.params!.networkVolumeId));
    });
    // Every read of a pod by its owner is remembered; anything else accepted for it (an update, an
    // action, a deletion) may move it, so its status is forgotten until read again.
    if (pools.shared) api.observers.push((e) => {
      const podId = e.params?.podId;
      if (!podId || e.auth !== 'main') return;
      const key = `${api.urls.baseUrl} ${podId}`;
      const status = (e.responseBody as { status?: unknown } | undefined)?.status;
      if (e.operation === 'getPod' && e.status >= 200 && e.status < 300 && typeof status === 'string') readStatuses.set(key, { status, at: Date.now() });
      else if (e.operation !== 'getPod' && (e.status < 400 || e.status >= 500)) readStatuses.delete(key);
    });
    await use(kit);
    // A fresh emulator world disappears with the test; a real target keeps what the test made.
    if (!emu.available) await cleanUp(api, madePods, madeVolumes);
  }, { box: 'self' }],
});

async function cleanUp(api: ApiClient, pods: string[], volumes: string[]): Promise<void> {
  for (const podId of pods) await api.op('deletePod', { params: { podId } }).catch(() => undefined);
  for (const volumeId of volumes) await api.op('deleteNetworkVolume', { params: { networkVolumeId: volumeId } }).catch(() => undefined);
}
