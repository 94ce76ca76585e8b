/**
 * The pod catalog the emulator serves (`GET /v2/catalog/gpus|cpus|datacenters`): GPU types,
 * CPU flavors and data centers. The spec names only the fields `globalNetwork` (data centers)
 * and the CPU flavor's RAM multiplier; what the routes answer follows the live platform's
 * published description (platform-notes: {@link liveEntry}), or the emulator's earlier fields
 * with the variant `catalog.emulator-fields`. The entries are static and identical in every
 * world, so tests can rely on them.
 */
import type { World } from '../world.js';

export interface GpuTypeEntry {
  id: string;
  displayName: string;
  manufacturer: 'NVIDIA' | 'AMD';
  /** The GPU pool (the serverless tier, like `ADA_24`). */
  pool: string;
  memoryInGb: number;
  /** Most GPUs of this type one pod may have (the emulator's choice; the spec gives no maximum). */
  maxGpuCount: number;
  /** USD per GPU per hour. */
  securePrice: number;
  communityPrice: number;
}

export interface CpuFlavorEntry {
  id: string;
  displayName: string;
  /** The flavor family (`cpu3`, `cpu5`). */
  group: string;
  vcpu: { min: number; max: number };
  /** Pod memory in GB = vCPUs times this (platform-notes). */
  ramGbPerVcpu: number;
  /** USD per vCPU per hour. */
  pricePerVcpu: number;
}

export interface DataCenterEntry {
  id: string;
  name: string;
  /** Eligible for `globalNetworking: true` (spec, CreatePodRequest rule 5). */
  globalNetwork: boolean;
  region: string;
  networkVolumeTypes: readonly ('STANDARD' | 'HIGH_PERFORMANCE')[];
  compliance: readonly string[];
}

export const GPU_TYPES: readonly GpuTypeEntry[] = [
  { id: 'NVIDIA GeForce RTX 4090', pool: 'ADA_24', displayName: 'RTX 4090', manufacturer: 'NVIDIA', memoryInGb: 24, maxGpuCount: 8, securePrice: 0.69, communityPrice: 0.34 },
  { id: 'NVIDIA RTX A6000', pool: 'AMPERE_48', displayName: 'RTX A6000', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.49, communityPrice: 0.33 },
  { id: 'NVIDIA L40S', pool: 'ADA_48_PRO', displayName: 'L40S', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.86, communityPrice: 0.79 },
  { id: 'NVIDIA A100 80GB PCIe', pool: 'AMPERE_80', displayName: 'A100 PCIe', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 1.64, communityPrice: 1.19 },
  { id: 'NVIDIA H100 80GB HBM3', pool: 'HOPPER_141', displayName: 'H100 SXM', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 2.99, communityPrice: 2.69 },
  { id: 'AMD Instinct MI300X OAM', pool: 'AMD_192', displayName: 'MI300X', manufacturer: 'AMD', memoryInGb: 192, maxGpuCount: 8, securePrice: 2.49, communityPrice: 2.49 },
];

export const CPU_FLAVORS: readonly CpuFlavorEntry[] = [
  { id: 'cpu3c', group: 'cpu3', displayName: 'Compute-Optimized (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 2, pricePerVcpu: 0.03 },
  { id: 'cpu3g', group: 'cpu3', displayName: 'General Purpose (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 4, pricePerVcpu: 0.035 },
  { id: 'cpu3m', group: 'cpu3', displayName: 'Memory-Optimized (3rd gen)', vcpu: { min: 2, max: 16 }, ramGbPerVcpu: 8, pricePerVcpu: 0.05 },
  { id: 'cpu5c', group: 'cpu5', displayName: 'Compute-Optimized (5th gen)', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 2, pricePerVcpu: 0.04 },
  { id: 'cpu5g', group: 'cpu5', displayName: 'General Purpose (5th gen)', vcpu: { min: 4, max: 64 }, ramGbPerVcpu: 4, pricePerVcpu: 0.045 },
  { id: 'cpu5m', group: 'cpu5', displayName: 'Memory-Optimized (5th gen)', vcpu: { min: 4, max: 32 }, ramGbPerVcpu: 8, pricePerVcpu: 0.06 },
];

export const DATA_CENTERS: readonly DataCenterEntry[] = [
  { id: 'US-TX-3', name: 'United States, Texas 3', globalNetwork: true, region: 'US', networkVolumeTypes: ['STANDARD', 'HIGH_PERFORMANCE'], compliance: ['SOC_2_TYPE_2'] },
  { id: 'US-GA-1', name: 'United States, Georgia 1', globalNetwork: true, region: 'US', networkVolumeTypes: ['STANDARD'], compliance: ['SOC_2_TYPE_2'] },
  { id: 'US-KS-2', name: 'United States, Kansas 2', globalNetwork: false, region: 'US', networkVolumeTypes: ['STANDARD'], compliance: [] },
  { id: 'CA-MTL-1', name: 'Canada, Montreal 1', globalNetwork: false, region: 'CA', networkVolumeTypes: ['STANDARD'], compliance: [] },
  { id: 'EU-RO-1', name: 'Europe, Romania 1', globalNetwork: true, region: 'EU', networkVolumeTypes: ['STANDARD', 'HIGH_PERFORMANCE'], compliance: ['ISO_IEC_27001'] },
  { id: 'EU-SE-1', name: 'Europe, Sweden 1', globalNetwork: false, region: 'EU', networkVolumeTypes: ['HIGH_PERFORMANCE', 'STANDARD'], compliance: ['ISO_IEC_27001'] },
  { id: 'EUR-IS-1', name: 'Europe, Iceland 1', globalNetwork: true, region: 'EU', networkVolumeTypes: ['STANDARD'], compliance: [] },
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

/**
 * An entry as the catalog routes answer it. The live platform's fields (platform-notes: GPU
 * `{id, name, pool, manufacturer, memory, secure, community, price, maxCount}`, CPU `{id, name,
 * group, vcpu, ramGbPerVcpu, price}`, data center `{id, name, region, globalNetwork,
 * networkVolumeTypes, compliance}`) by default; the emulator's earlier ones with
 * `catalog.emulator-fields`; a CPU flavor without its `vcpu` range with `catalog.cpu-no-vcpu-range`.
 */
export const catalogViews = {
  gpu(e: GpuTypeEntry, world: World): Record<string, unknown> {
    if (world.variant('catalog.emulator-fields')) {
      return { id: e.id, displayName: e.displayName, manufacturer: e.manufacturer, memoryInGb: e.memoryInGb, maxGpuCount: e.maxGpuCount, securePrice: e.securePrice, communityPrice: e.communityPrice };
    }
    return { id: e.id, name: e.displayName, pool: e.pool, manufacturer: e.manufacturer, memory: e.memoryInGb, secure: true, community: true, price: e.securePrice, maxCount: e.maxGpuCount };
  },
  cpu(e: CpuFlavorEntry, world: World): Record<string, unknown> {
    const range = world.variant('catalog.cpu-no-vcpu-range') ? {} : { vcpu: { ...e.vcpu } };
    if (world.variant('catalog.emulator-fields')) return { id: e.id, displayName: e.displayName, ...range, ramGbPerVcpu: e.ramGbPerVcpu, pricePerVcpu: e.pricePerVcpu };
    return { id: e.id, name: e.displayName, group: e.group, ...range, ramGbPerVcpu: e.ramGbPerVcpu, price: e.pricePerVcpu };
  },
  dataCenter(e: DataCenterEntry, world: World): Record<string, unknown> {
    if (world.variant('catalog.emulator-fields')) return { id: e.id, name: e.name, globalNetwork: e.globalNetwork };
    return { id: e.id, name: e.name, region: e.region, globalNetwork: e.globalNetwork, networkVolumeTypes: [...e.networkVolumeTypes], compliance: [...e.compliance] };
  },
};
