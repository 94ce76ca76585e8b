/**
 * The pod catalog the emulator serves (`GET /v2/catalog/gpus|cpus|datacenters`): GPU types,
 * CPU flavors and data centers. The spec names only the fields `globalNetwork` (data centers)
 * and the CPU flavor's RAM multiplier; the shapes follow the live platform (platform-notes).
 * The entries are static and identical in every world, so tests can rely on them.
 */

export interface GpuTypeEntry {
  id: string;
  displayName: string;
  manufacturer: 'NVIDIA' | 'AMD';
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
}

export const GPU_TYPES: readonly GpuTypeEntry[] = [
  { id: 'NVIDIA GeForce RTX 4090', displayName: 'RTX 4090', manufacturer: 'NVIDIA', memoryInGb: 24, maxGpuCount: 8, securePrice: 0.69, communityPrice: 0.34 },
  { id: 'NVIDIA RTX A6000', displayName: 'RTX A6000', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.49, communityPrice: 0.33 },
  { id: 'NVIDIA L40S', displayName: 'L40S', manufacturer: 'NVIDIA', memoryInGb: 48, maxGpuCount: 8, securePrice: 0.86, communityPrice: 0.79 },
  { id: 'NVIDIA A100 80GB PCIe', displayName: 'A100 PCIe', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 1.64, communityPrice: 1.19 },
  { id: 'NVIDIA H100 80GB HBM3', displayName: 'H100 SXM', manufacturer: 'NVIDIA', memoryInGb: 80, maxGpuCount: 8, securePrice: 2.99, communityPrice: 2.69 },
  { id: 'AMD Instinct MI300X OAM', displayName: 'MI300X', manufacturer: 'AMD', memoryInGb: 192, maxGpuCount: 8, securePrice: 2.49, communityPrice: 2.49 },
];

export const CPU_FLAVORS: readonly CpuFlavorEntry[] = [
  { id: 'cpu3c', displayName: 'Compute-Optimized (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 2, pricePerVcpu: 0.03 },
  { id: 'cpu3g', displayName: 'General Purpose (3rd gen)', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 4, pricePerVcpu: 0.035 },
  { id: 'cpu3m', displayName: 'Memory-Optimized (3rd gen)', vcpu: { min: 2, max: 16 }, ramGbPerVcpu: 8, pricePerVcpu: 0.05 },
  { id: 'cpu5c', displayName: 'Compute-Optimized (5th gen)', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 2, pricePerVcpu: 0.04 },
  { id: 'cpu5g', displayName: 'General Purpose (5th gen)', vcpu: { min: 4, max: 64 }, ramGbPerVcpu: 4, pricePerVcpu: 0.045 },
  { id: 'cpu5m', displayName: 'Memory-Optimized (5th gen)', vcpu: { min: 4, max: 32 }, ramGbPerVcpu: 8, pricePerVcpu: 0.06 },
];

export const DATA_CENTERS: readonly DataCenterEntry[] = [
  { id: 'US-TX-3', name: 'United States, Texas 3', globalNetwork: true },
  { id: 'US-GA-1', name: 'United States, Georgia 1', globalNetwork: true },
  { id: 'US-KS-2', name: 'United States, Kansas 2', globalNetwork: false },
  { id: 'CA-MTL-1', name: 'Canada, Montreal 1', globalNetwork: false },
  { id: 'EU-RO-1', name: 'Europe, Romania 1', globalNetwork: true },
  { id: 'EU-SE-1', name: 'Europe, Sweden 1', globalNetwork: false },
  { id: 'EUR-IS-1', name: 'Europe, Iceland 1', globalNetwork: true },
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
