import type { ApiClient } from '../../../../lib/client/api.js';
import type { CpuFlavor, DataCenter, GpuType } from '../../../../lib/types.gen.js';
import type { OperationName } from '../../../../lib/client/operations.js';
import { schemaOf } from '../../../../lib/schema-registry.js';

/** A GPU type as far as the suite needs it; `manufacturer` and `maxGpuCount` only when the target lists them. */
export interface GpuEntry extends GpuType { manufacturer?: string; maxGpuCount?: number }

/** The target's catalog, read once per test through the API (never from the emulator's code). */
export interface PodCatalog {
  gpus: GpuEntry[];
  cpus: CpuFlavor[];
  dataCenters: DataCenter[];
}

/** A catalog list: a JSON array, or an object holding one array (`{gpus: [...]}`). */
function listOf<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body !== null && typeof body === 'object') {
    const arrays = Object.values(body).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as T[];
  }
  return [];
}

async function read<T>(api: ApiClient, op: OperationName): Promise<T[]> {
  const res = await api.op(op);
  return res.status === 200 ? listOf<T>(res.body) : [];
}

export async function loadCatalog(api: ApiClient): Promise<PodCatalog> {
  const [gpus, cpus, dataCenters] = await Promise.all([
    read<GpuEntry>(api, 'listGpuTypes'), read<CpuFlavor>(api, 'listCpuFlavors'), read<DataCenter>(api, 'listDataCenters'),
  ]);
  return { gpus, cpus, dataCenters };
}

/** NVIDIA by the catalog's manufacturer, or by the type id when the target lists no manufacturer. */
export const isNvidia = (g: GpuEntry): boolean => (g.manufacturer ?? g.id).toUpperCase().startsWith('NVIDIA');

/** The vCPU counts the request schema allows (spec: "Minimum 2; ... a power of two"), read from it. */
export const SCHEMA_VCPU_COUNTS: readonly number[] = (schemaOf('cpu-config-request') as { properties: { vcpuCount: { enum: number[] } } }).properties.vcpuCount.enum;

/** The counts a flavor offers: the schema's values within the flavor's `vcpu` range. */
export function vcpuCounts(flavor: CpuFlavor): number[] {
  return SCHEMA_VCPU_COUNTS.filter((n) => n >= flavor.vcpu.min && n <= flavor.vcpu.max);
}

/** What the spec's rules need from the catalog; each `undefined` makes the tests that need it skip. */
export function picks(c: PodCatalog) {
  return {
    nvidia: c.gpus.find(isNvidia),
    nonNvidia: c.gpus.find((g) => !isNvidia(g)),
    cpu: c.cpus.find((f) => vcpuCounts(f).length > 0),
    globalDc: c.dataCenters.find((d) => d.globalNetwork === true),
    plainDc: c.dataCenters.find((d) => d.globalNetwork === false),
  };
}
