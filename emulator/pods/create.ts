import type { CreatePodLiveFields, CreatePodRequest, NetworkMount } from '../../lib/types.gen.js';
import type { Account, World } from '../world.js';
import { cpuFlavor, gpuType } from './catalog.js';
import { chooseCudaVersion } from './cuda.js';
import { CONTAINER_DEFAULTS, globalIpFor, type PodRecord, type StoredMounts } from './pod-record.js';
import { setPodTimes } from './lifecycle.js';
import { chooseDataCenter } from './schedule.js';
import { podTemplate } from './template-link.js';
import { validateBody, conflict } from './validation.js';
import { volumesSlice } from './volumes.js';

const NONE: readonly string[] = [];

/** What a pod without mounts stores: one frozen value, shared (see CONTAINER_DEFAULTS). */
const NO_MOUNTS: StoredMounts = Object.freeze({});

/** Rounds a price to a tenth of a cent, as billing shows it. */
const price = (usd: number): number => Math.round(usd * 1000) / 1000;

/**
 * createPod's rules (spec, CreatePodRequest, GpuConfig, CPU configuration, Mounts): the schema
 * first (400, or 422 for an incomplete mount entry), then the rules that need the catalog, the
 * caller's volumes and the scheduler (400 where the spec says "not shown"; see CHOICES.md).
 * The live platform's extra fields (platform-notes) are taken too: `templateId` (404 when the
 * caller has no such template), `startSsh`, `startJupyter` and the CUDA constraints in `gpu`.
 * Answers the new pod in PROVISIONING, `startedAt` null, `runtime` null.
 */
/** The live platform's words for a GPU type without capacity (platform notes, Capacity). */
const NO_CAPACITY_DETAIL = 'There are no longer any instances available with the requested specifications. Please refresh and try again.';

export function createPodRecord(world: World, account: Account, body: unknown): PodRecord {
  validateBody(world, 'create-pod-request', body, { incompleteFault: 'pods.incomplete-mount-400' });
  const req = body as CreatePodRequest & CreatePodLiveFields;
  const now = world.clock.now();
  const id = world.nextId('pod');

  let gpu: PodRecord['gpu'];
  let cpu: PodRecord['cpu'];
  let hourly = 0;
  let nvidia = false;
  let cudaVersion: string | null = null;
  if (req.gpu) {
    const type = gpuType(req.gpu.id);
    if (!type) throw conflict('/gpu/id', `unknown GPU type "${req.gpu.id}" (see GET /v2/catalog/gpus)`);
    const asked = req.gpu.count ?? (world.fault('pods.gpu-count-default-2') ? 2 : 1);
    const count = world.fault('pods.gpu-count-ignored') ? 1 : asked;
    if (count > type.maxGpuCount) throw conflict('/gpu/count', `at most ${type.maxGpuCount} GPUs of type "${type.id}" fit one pod`);
    gpu = { id: type.id, count };
    cudaVersion = chooseCudaVersion(type, req.gpu.allowedCudaVersions, req.gpu.minCudaVersion);
    nvidia = type.manufacturer === 'NVIDIA';
    hourly += count * ((req.cloud ?? 'SECURE') === 'SECURE' ? type.securePrice : type.communityPrice);
  }
  if (req.cpu) {
    const flavor = cpuFlavor(req.cpu.id);
    if (!flavor) throw conflict('/cpu/id', `unknown CPU flavor "${req.cpu.id}" (see GET /v2/catalog/cpus)`);
    const n = req.cpu.vcpuCount;
    if ((n < flavor.vcpu.min || n > flavor.vcpu.max) && !world.fault('pods.vcpu-beyond-flavor-accepted')) {
      throw conflict('/cpu/vcpuCount', `flavor ${flavor.id} offers ${flavor.vcpu.min} to ${flavor.vcpu.max} vCPUs, not ${n}`);
    }
    // Spec, rule 3: memory is derived from the flavor's RAM multiplier.
    cpu = { id: flavor.id, vcpuCount: n, memory: Math.max(1, Math.round(n * flavor.ramGbPerVcpu)) };
    hourly += n * flavor.pricePerVcpu;
  }

  const mounts: StoredMounts = req.mounts?.persistent || req.mounts?.network ? {} : NO_MOUNTS;
  let volumeDataCenter: { volumeId: string; dataCenter: string } | undefined;
  if (req.mounts?.persistent && req.mounts.persistent.size < 20 && world.fault('pods.persistent-min-20')) {
    throw conflict('/mounts/persistent/size', `a persistent mount is at least 20 GB, not ${req.mounts.persistent.size}`);
  }
  if (req.mounts?.persistent) mounts.persistent = { size: req.mounts.persistent.size, path: req.mounts.persistent.path };
  if (req.mounts?.network) {
    // Only the fault pods.network-object-accepted lets a single NetworkMount object through validation.
    const network = Array.isArray(req.mounts.network) ? req.mounts.network : [req.mounts.network as NetworkMount];
    mounts.network = network.map((m, i) => {
      const volume = world.get(volumesSlice).get(m.volumeId, account.id);
      if (!volume) throw conflict(`/mounts/network/${i}/volumeId`, `no network volume "${m.volumeId}" exists (see GET /v2/network-volumes)`);
      volumeDataCenter ??= { volumeId: volume.id, dataCenter: volume.dataCenter };
      return { volumeId: m.volumeId, path: world.fault('pods.network-path-pinned') ? '/data' : m.path };
    });
  }

  const globalNetwork = req.globalNetworking === true;
  if (globalNetwork && !nvidia && !world.fault('pods.global-networking-without-nvidia-accepted')) {
    throw conflict('/globalNetworking', gpu ? `global networking requires an NVIDIA GPU; "${gpu.id}" is not one` : 'global networking requires an NVIDIA GPU; CPU pods cannot use it');
  }
  const dataCenterId = chooseDataCenter(world, { preferred: req.dataCenterIds ?? NONE, globalNetwork, podId: id, volumeDataCenter });
  if (gpu && world.fault('pods.no-capacity')) throw conflict('/gpu/id', NO_CAPACITY_DETAIL);
  if (gpu && world.chaos?.capacityRefused(req as unknown as Record<string, unknown>, gpu.id)) throw conflict('/gpu/id', NO_CAPACITY_DETAIL);
  // Last of the checks: resolving the template records a use of it.
  const template = req.templateId === undefined ? null : podTemplate(world, account, req.templateId, '/templateId');

  const pod: PodRecord = {
    id, accountId: account.id,
    name: req.name,
    image: req.image,
    args: req.args ?? CONTAINER_DEFAULTS.args,
    disk: req.disk ?? CONTAINER_DEFAULTS.disk,
    ports: req.ports !== undefined && req.ports.length > 0 ? [...req.ports] : CONTAINER_DEFAULTS.ports,
    env: req.env !== undefined && Object.keys(req.env).length > 0 ? { ...req.env } : CONTAINER_DEFAULTS.env,
    registry: req.registry ?? CONTAINER_DEFAULTS.registry,
    mounts,
    cloud: world.fault('pods.cloud-ignored') ? 'SECURE' : req.cloud ?? (world.fault('pods.cloud-default-community') ? 'COMMUNITY' : 'SECURE'),
    dataCenterId,
    template,
    cudaVersion,
    ssh: req.startSsh === true,
    jupyter: req.startJupyter === true,
    hourlyCost: price(hourly),
    locked: false,
    globalIp: globalNetwork ? globalIpFor(id) : null,
    status: 'PROVISIONING',
    statusSince: now,
    createdAt: now,
    startedAt: world.fault('pods.started-at-on-create') ? now : null,
  };
  if (gpu) pod.gpu = gpu;
  if (cpu) pod.cpu = cpu;
  if (world.chaos) setPodTimes(pod, world.chaos.podTimes(id));
  return pod;
}
