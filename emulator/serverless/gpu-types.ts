import { schemaOf } from '../../lib/schema-registry.js';
import { SchemaFactError } from '../../lib/errors.js';
import { defineSlice } from '../world.js';
import { GPU_TYPES, gpuType } from '../pods/catalog.js';

/**
 * GPU types a serverless endpoint can run on. The spec names the GPU tiers of the GraphQL view
 * (`gpuIds`: `AMPERE_16` ... `ADA_80_PRO`, read from schemas/endpoint.schema.json) and says
 * REST v1 takes `gpuTypeIds` "in priority order". REST v1 accepts the GPU type ids of the pod
 * catalog (`GET /v2/catalog/gpus`, as the live platform does), a tier, or one of the named GPU
 * types below; each maps to the tier the GraphQL view shows (CHOICES.md). With the variant
 * `v1.catalog-gpu-ids` only the catalog's ids, as the live platform (platform-notes).
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

const named = (gpuTypeId: string): string | undefined => (Object.hasOwn(NAMED_TYPES, gpuTypeId) ? NAMED_TYPES[gpuTypeId] : undefined);

/** The tier of a GPU type the pod catalog lists: its serverless pool when that is a tier, else its named tier; none for a type no tier holds. */
function catalogTier(gpuTypeId: string): string | undefined {
  const entry = gpuType(gpuTypeId);
  if (!entry) return undefined;
  return entry.pool !== null && GPU_TIERS.includes(entry.pool) ? entry.pool : named(gpuTypeId);
}

/**
 * The tier of a GPU type id, or undefined when the id names no serverless GPU type (with
 * `catalogOnly`, when it is not a GPU type id of the pod catalog: tier codes are refused).
 */
export function tierOf(gpuTypeId: string, catalogOnly = false): string | undefined {
  const fromCatalog = catalogTier(gpuTypeId);
  if (fromCatalog !== undefined || catalogOnly) return fromCatalog;
  return GPU_TIERS.includes(gpuTypeId) ? gpuTypeId : named(gpuTypeId);
}

/** Every GPU type id REST v1 accepts, tier codes first unless `catalogOnly`. */
export const knownGpuTypeIds = (catalogOnly = false): string[] =>
  [...new Set([...(catalogOnly ? [] : GPU_TIERS), ...GPU_TYPES.map((g) => g.id), ...(catalogOnly ? [] : Object.keys(NAMED_TYPES))])].filter((id) => tierOf(id, catalogOnly) !== undefined);

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
