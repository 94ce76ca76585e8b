import { schemaOf } from '../../lib/schema-registry.js';
import { SchemaFactError } from '../../lib/errors.js';
import { defineSlice } from '../world.js';

/**
 * GPU types a serverless endpoint can run on. The spec names the GPU tiers of the GraphQL view
 * (`gpuIds`: `AMPERE_16` ... `ADA_80_PRO`, read from schemas/endpoint.schema.json) and says
 * REST v1 takes `gpuTypeIds` "in priority order". REST v1 accepts a tier or one of the named
 * GPU types below; each maps to the tier the GraphQL view shows (CHOICES.md).
 */
export const GPU_TIERS: readonly string[] = (() => {
  const gpuIds = (schemaOf('endpoint').properties as Record<string, { enum?: string[] }>).gpuIds;
  if (!gpuIds?.enum) throw new SchemaFactError('endpoint', '/properties/gpuIds', 'enum');
  return gpuIds.enum;
})();

/** Named GPU types (as the pod catalog lists them) and the tier of each. */
const NAMED_TYPES: Readonly<Record<string, string>> = {
  'NVIDIA RTX A4000': 'AMPERE_16',
  'NVIDIA RTX A5000': 'AMPERE_24',
  'NVIDIA GeForce RTX 4090': 'ADA_24',
  'NVIDIA RTX A6000': 'AMPERE_48',
  'NVIDIA L40S': 'ADA_48_PRO',
  'NVIDIA A100 80GB PCIe': 'AMPERE_80',
  'NVIDIA H100 80GB HBM3': 'ADA_80_PRO',
};

/** The tier of a GPU type id, or undefined when the id names no serverless GPU type. */
export function tierOf(gpuTypeId: string): string | undefined {
  if (GPU_TIERS.includes(gpuTypeId)) return gpuTypeId;
  return Object.hasOwn(NAMED_TYPES, gpuTypeId) ? NAMED_TYPES[gpuTypeId] : undefined;
}

/** Every GPU type id REST v1 accepts. */
export const knownGpuTypeIds = (): string[] => [...GPU_TIERS, ...Object.keys(NAMED_TYPES)];

/**
 * Which GPU types have no capacity in a world (all have capacity by default). The control
 * surface sets it (`PUT /__emulator/worlds/:id/gpu-availability`) to exercise the priority rule.
 */
export class GpuAvailability {
  readonly unavailable = new Set<string>();

  isAvailable(gpuTypeId: string): boolean {
    return !this.unavailable.has(gpuTypeId);
  }

  set(unavailable: readonly string[]): void {
    this.unavailable.clear();
    for (const id of unavailable) this.unavailable.add(id);
  }
}

export const gpuAvailabilitySlice = defineSlice('serverless-gpu-availability', () => new GpuAvailability());
