/**
 * The pod catalog the emulator serves (`GET /v2/catalog/gpus|cpus|datacenters`): GPU types,
 * CPU flavors and data centers. The spec names only the fields `globalNetwork` (data centers)
 * and the CPU flavor's RAM multiplier; what the routes answer follows the live platform's
 * published description (platform-notes: {@link catalogViews}), or earlier shapes with the
 * variants `catalog.scalar-fields` and `catalog.emulator-fields`. The entries are static and
 * identical in every world, so tests can rely on them.
 */
import type { World } from '../world.js';
import { HOST_CUDA_VERSIONS } from './cuda.js';

type Manufacturer = 'NVIDIA' | 'AMD';

export interface GpuTypeEntry {
  id: string;
  displayName: string;
  manufacturer: Manufacturer;
  /** The serverless GPU pool of the type (like `ADA_24`); null when no serverless pool holds it. */
  pool: string | null;
  memoryInGb: number;
  /** Most GPUs of this type one pod may have, in either cloud (the emulator's choice; the spec gives no maximum). */
  maxGpuCount: number;
  /** USD per GPU per hour, per cloud; `serverlessPrice` only for a type in a serverless pool. */
  securePrice: number;
  communityPrice: number;
  serverlessPrice?: number;
}

export interface CpuFlavorEntry {
  id: string;
  displayName: string;
  /** The flavor family (`cpu3`, `cpu5`). */
  group: string;
  vcpu: { min: number; max: number };
  /** Pod memory in GB = vCPUs times this (platform-notes). */
  ramGbPerVcpu: number;
  /** USD per vCPU per hour, in a pod and on a serverless worker. */
  pricePerVcpu: number;
  serverlessPricePerVcpu: number;
}

/** The live platform's regions (platform-notes, "Catalog entries"). */
type Region = 'NORTH_AMERICA' | 'SOUTH_AMERICA' | 'EUROPE' | 'ASIA' | 'MIDDLE_EAST' | 'AFRICA' | 'OCEANIA' | 'ANTARCTICA' | 'UNKNOWN';

export interface DataCenterEntry {
  id: string;
  name: string;
  /** Eligible for `globalNetworking: true` (spec, CreatePodRequest rule 5). */
  globalNetwork: boolean;
  region: Region;
  /** The short region code the emulator answered before it took the live regions (variant `catalog.scalar-fields`). */
  regionCode: 'US' | 'CA' | 'EU';
  networkVolumeTypes: readonly ('STANDARD' | 'HIGH_PERFORMANCE')[];
  compliance: readonly string[];
}

export const GPU_TYPES: readonly GpuTypeEntry[] = [
  { id: 'NVIDIA GeForce RTX 4090', pool: 'ADA_24', displayName: 'RTX 4090', manufacturer: 'NVIDIA', memoryInGb: 24, maxGpuCount: 8, securePrice: 0.69, communityPrice: 0.34, serverlessPrice: 1.1 },
  { id: 'NVIDIA RTX A6000', pool: 'AMPERE_48', displayName: 'RTX A6000', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.49, communityPrice: 0.33, serverlessPrice: 1.22 },
  { id: 'NVIDIA L40S', pool: 'ADA_48_PRO', displayName: 'L40S', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.86, communityPrice: 0.79, serverlessPrice: 1.9 },
  { id: 'NVIDIA A100 80GB PCIe', pool: 'AMPERE_80', displayName: 'A100 PCIe', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 1.64, communityPrice: 1.19, serverlessPrice: 2.72 },
  { id: 'NVIDIA H100 80GB HBM3', pool: 'ADA_80_PRO', displayName: 'H100 SXM', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 2.99, communityPrice: 2.69, serverlessPrice: 4.47 },
  // After the other NVIDIA types, so those the tests pick first stay first: the AMPERE_16 pool the provisioned endpoints ask for.
  { id: 'NVIDIA RTX A4000', pool: 'AMPERE_16', displayName: 'RTX A4000', manufacturer: 'NVIDIA', memoryInGb: 16, maxGpuCount: 8, securePrice: 0.25, communityPrice: 0.17, serverlessPrice: 0.58 },
  { id: 'AMD Instinct MI300X OAM', pool: null, displayName: 'MI300X', manufacturer: 'AMD', memoryInGb: 192, maxGpuCount: 8, securePrice: 2.49, communityPrice: 2.49 },
];

export const CPU_FLAVORS: readonly CpuFlavorEntry[] = [
  { id: 'cpu3c', group: 'cpu3', displayName: 'Compute-Optimized (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 2, pricePerVcpu: 0.03, serverlessPricePerVcpu: 0.04 },
  { id: 'cpu3g', group: 'cpu3', displayName: 'General Purpose (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 4, pricePerVcpu: 0.035, serverlessPricePerVcpu: 0.045 },
  { id: 'cpu3m', group: 'cpu3', displayName: 'Memory-Optimized (3rd gen)', vcpu: { min: 2, max: 16 }, ramGbPerVcpu: 8, pricePerVcpu: 0.05, serverlessPricePerVcpu: 0.065 },
  { id: 'cpu5c', group: 'cpu5', displayName: 'Compute-Optimized (5th gen)', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 2, pricePerVcpu: 0.04, serverlessPricePerVcpu: 0.05 },
  { id: 'cpu5g', group: 'cpu5', displayName: 'General Purpose (5th gen)', vcpu: { min: 4, max: 64 }, ramGbPerVcpu: 4, pricePerVcpu: 0.045, serverlessPricePerVcpu: 0.06 },
  { id: 'cpu5m', group: 'cpu5', displayName: 'Memory-Optimized (5th gen)', vcpu: { min: 4, max: 32 }, ramGbPerVcpu: 8, pricePerVcpu: 0.06, serverlessPricePerVcpu: 0.08 },
];

export const DATA_CENTERS: readonly DataCenterEntry[] = [
  { id: 'US-TX-3', name: 'United States, Texas 3', globalNetwork: true, region: 'NORTH_AMERICA', regionCode: 'US', networkVolumeTypes: ['STANDARD', 'HIGH_PERFORMANCE'], compliance: ['SOC_2_TYPE_2'] },
  { id: 'US-GA-1', name: 'United States, Georgia 1', globalNetwork: true, region: 'NORTH_AMERICA', regionCode: 'US', networkVolumeTypes: ['STANDARD'], compliance: ['SOC_2_TYPE_2'] },
  { id: 'US-KS-2', name: 'United States, Kansas 2', globalNetwork: false, region: 'NORTH_AMERICA', regionCode: 'US', networkVolumeTypes: ['STANDARD'], compliance: [] },
  { id: 'CA-MTL-1', name: 'Canada, Montreal 1', globalNetwork: false, region: 'NORTH_AMERICA', regionCode: 'CA', networkVolumeTypes: ['STANDARD'], compliance: [] },
  { id: 'EU-RO-1', name: 'Europe, Romania 1', globalNetwork: true, region: 'EUROPE', regionCode: 'EU', networkVolumeTypes: ['STANDARD', 'HIGH_PERFORMANCE'], compliance: ['ISO_IEC_27001'] },
  { id: 'EU-SE-1', name: 'Europe, Sweden 1', globalNetwork: false, region: 'EUROPE', regionCode: 'EU', networkVolumeTypes: ['HIGH_PERFORMANCE', 'STANDARD'], compliance: ['ISO_IEC_27001'] },
  { id: 'EUR-IS-1', name: 'Europe, Iceland 1', globalNetwork: true, region: 'EUROPE', regionCode: 'EU', networkVolumeTypes: ['STANDARD'], compliance: [] },
];

const byId = <T extends { id: string }>(list: readonly T[]): ReadonlyMap<string, T> => new Map(list.map((e) => [e.id, e]));
const GPU_INDEX = byId(GPU_TYPES);
const CPU_INDEX = byId(CPU_FLAVORS);
const DC_INDEX = byId(DATA_CENTERS);

export const gpuType = (id: string): GpuTypeEntry | undefined => GPU_INDEX.get(id);
export const cpuFlavor = (id: string): CpuFlavorEntry | undefined => CPU_INDEX.get(id);
export const dataCenter = (id: string): DataCenterEntry | undefined => DC_INDEX.get(id);

/** Internal DNS domain of globally networked pods: `<pod_id>.<INTERNAL_DOMAIN>` (spec, PodGlobalNetworking). */
export const INTERNAL_DOMAIN = 'runpod.internal';

/** What a catalog read asks for besides the entries: `include=AVAILABILITY&product=POD` (platform-notes). */
const asksPodAvailability = (query: URLSearchParams): boolean => {
  const values = (name: string) => query.getAll(name).flatMap((v) => v.split(','));
  return values('include').includes('AVAILABILITY') && values('product').includes('POD');
};

/**
 * A GPU type's pod availability, as a read that asks for it sees it. The emulator has no pod
 * capacity to run out of (createPod never refuses for capacity), so every type is `HIGH` in
 * every data center; NVIDIA hosts report every host CUDA version, an AMD type none.
 */
const podAvailability = (e: GpuTypeEntry) => ({
  availability: 'HIGH',
  dataCenters: DATA_CENTERS.map((d) => ({ id: d.id, name: d.name, availability: 'HIGH' })),
  cudaVersions: e.manufacturer === 'NVIDIA' ? [...HOST_CUDA_VERSIONS] : [],
});

/**
 * An entry as the catalog routes answer it. By default the live platform's published shapes
 * (platform-notes, "Catalog entries"): GPU `{id, name, pool, manufacturer, memory, secure,
 * community, price: {secure, community, serverless?}, maxCount: {secure, community}}`, with
 * `availability`, `dataCenters` and `cudaVersions` when the read asks for them; CPU `{id, name,
 * group, vcpu, ramGbPerVcpu, price: {securePerVcpu, serverlessPerVcpu}}`; data center `{id, name,
 * region, globalNetwork, networkVolumeTypes, compliance}`, `region` one of the live regions.
 * `catalog.scalar-fields`: the same fields with the emulator's earlier values (prices and
 * `maxCount` plain numbers, `region` a short code). `catalog.emulator-fields`: the emulator's
 * first fields; it decides the whole entry, so with both on it wins (its entries have no
 * `price`, `maxCount` or `region` for the other to change). `catalog.cpu-no-vcpu-range`: a CPU
 * flavor without its `vcpu` range, with either of the others.
 */
export const catalogViews = {
  gpu(e: GpuTypeEntry, world: World, query: URLSearchParams): Record<string, unknown> {
    if (world.variant('catalog.emulator-fields')) {
      return { id: e.id, displayName: e.displayName, manufacturer: e.manufacturer, memoryInGb: e.memoryInGb, maxGpuCount: e.maxGpuCount, securePrice: e.securePrice, communityPrice: e.communityPrice };
    }
    const scalar = world.variant('catalog.scalar-fields');
    const price = scalar ? e.securePrice : { secure: e.securePrice, community: e.communityPrice, ...(e.serverlessPrice !== undefined ? { serverless: e.serverlessPrice } : {}) };
    const maxCount = scalar ? e.maxGpuCount : { secure: e.maxGpuCount, community: e.maxGpuCount };
    return {
      id: e.id, name: e.displayName, pool: e.pool, manufacturer: e.manufacturer, memory: e.memoryInGb, secure: true, community: true, price, maxCount,
      ...(asksPodAvailability(query) ? podAvailability(e) : {}),
    };
  },
  cpu(e: CpuFlavorEntry, world: World): Record<string, unknown> {
    const range = world.variant('catalog.cpu-no-vcpu-range') ? {} : { vcpu: { ...e.vcpu } };
    if (world.variant('catalog.emulator-fields')) return { id: e.id, displayName: e.displayName, ...range, ramGbPerVcpu: e.ramGbPerVcpu, pricePerVcpu: e.pricePerVcpu };
    const price = world.variant('catalog.scalar-fields') ? e.pricePerVcpu : { securePerVcpu: e.pricePerVcpu, serverlessPerVcpu: e.serverlessPricePerVcpu };
    return { id: e.id, name: e.displayName, group: e.group, ...range, ramGbPerVcpu: e.ramGbPerVcpu, price };
  },
  dataCenter(e: DataCenterEntry, world: World): Record<string, unknown> {
    if (world.variant('catalog.emulator-fields')) return { id: e.id, name: e.name, globalNetwork: e.globalNetwork };
    const region = world.variant('catalog.scalar-fields') ? e.regionCode : e.region;
    return { id: e.id, name: e.name, region, globalNetwork: e.globalNetwork, networkVolumeTypes: [...e.networkVolumeTypes], compliance: [...e.compliance] };
  },
};
