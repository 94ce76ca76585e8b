import type { ApiClient } from './client/api.js';
import type { CpuFlavor, DataCenter, GpuType } from './types.gen.js';
import type { OperationName } from './client/operations.js';
import { schemaOf } from './schema-registry.js';

/**
 * A GPU type as a target lists it: the live platform's shape (`GpuType`, platform-notes) or an
 * earlier one, as legal where the spec shows no catalog fields: `maxCount` a plain number, or
 * `maxGpuCount` instead, a scalar `price`, any `manufacturer` string.
 */
export interface GpuEntry extends Pick<GpuType, 'id' | 'name' | 'pool' | 'memory' | 'secure' | 'community' | 'availability' | 'dataCenters' | 'cudaVersions'> {
  manufacturer?: string;
  maxCount?: GpuType['maxCount'] | number;
  maxGpuCount?: number;
  price?: GpuType['price'] | number;
  [k: string]: unknown;
}

type Cloud = 'SECURE' | 'COMMUNITY';

const gpuCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/**
 * The most GPUs of this type one pod may have, when the catalog says: the live `maxCount` is
 * per cloud (`{secure, community}`), so with a `cloud` that cloud's count, without one the
 * smaller count (a pod of that size fits either cloud, or the one that offers the type at all);
 * an earlier catalog's `maxCount` or `maxGpuCount` is one number for both.
 */
export function maxGpusOf(g: GpuEntry, cloud?: Cloud): number | undefined {
  const { maxCount } = g;
  if (maxCount !== null && typeof maxCount === 'object') {
    const counts = (cloud ? [cloud === 'SECURE' ? maxCount.secure : maxCount.community] : [maxCount.secure, maxCount.community]).filter(gpuCount);
    return counts.length > 0 ? Math.min(...counts) : undefined;
  }
  return [maxCount, g.maxGpuCount].find(gpuCount);
}

/** The target's catalog, read once per test through the API (never from the emulator's code). */
export interface PodCatalog {
  gpus: GpuEntry[];
  cpus: CpuFlavor[];
  dataCenters: DataCenter[];
}

/**
 * The shape of a list answer. The spec shows none ("their responses are described only by the
 * fields named above"): a deployment may answer a bare JSON array or wrap it in an object, as the
 * live platform does (`{pods: [...]}`, `{cpus: [...]}`, `{dataCenters: [...]}`, `{networkVolumes: [...]}`).
 */
export type ListShape = 'array' | `wrapped:${string}`;

/**
 * The items of a list answer: a JSON array, or the array under `member` of an object, or its
 * only array member. `undefined` when the body is neither.
 */
export function listItems<T = unknown>(body: unknown, member?: string): { items: T[]; shape: ListShape } | undefined {
  if (Array.isArray(body)) return { items: body as T[], shape: 'array' };
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  if (member !== undefined && Array.isArray(record[member])) return { items: record[member] as T[], shape: `wrapped:${member}` };
  const arrays = Object.entries(record).filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? { items: arrays[0]![1] as T[], shape: `wrapped:${arrays[0]![0]}` } : undefined;
}

/** The items of a list answer, or none (see {@link listItems}). */
export const listOf = <T>(body: unknown, member?: string): T[] => listItems<T>(body, member)?.items ?? [];

async function read<T>(api: ApiClient, op: OperationName): Promise<T[]> {
  const res = await api.op(op);
  return res.status >= 200 && res.status < 300 ? listOf<T>(res.body) : [];
}

export async function loadCatalog(api: ApiClient): Promise<PodCatalog> {
  const [gpus, cpus, dataCenters] = await Promise.all([
    read<GpuEntry>(api, 'listGpuTypes'), read<CpuFlavor>(api, 'listCpuFlavors'), read<DataCenter>(api, 'listDataCenters'),
  ]);
  return { gpus, cpus, dataCenters };
}

/** NVIDIA by the catalog's manufacturer, or by the type id when the target lists no manufacturer. */
export const isNvidia = (g: GpuEntry): boolean => (g.manufacturer ?? g.id).toUpperCase().startsWith('NVIDIA');

/**
 * The vCPU counts the request schema allows (spec: "Minimum 2; ... a power of two"), read from
 * it on first use: reading the schemas at import would cost every process that only lists the
 * tests (Playwright's runner) about 100 ms.
 */
export function schemaVcpuCounts(): readonly number[] {
  vcpuEnum ??= (schemaOf('cpu-config-request') as { properties: { vcpuCount: { enum: number[] } } }).properties.vcpuCount.enum;
  return vcpuEnum;
}

let vcpuEnum: readonly number[] | undefined;

/**
 * The counts a flavor offers: the schema's values within the flavor's `vcpu` range; none when
 * the target lists no numeric range (the tests that need a usable flavor then skip, instead of
 * every pod test crashing on one catalog entry).
 */
export function vcpuCounts(flavor: CpuFlavor): number[] {
  const range = (flavor as { vcpu?: { min?: unknown; max?: unknown } | null }).vcpu;
  const min = range?.min;
  const max = range?.max;
  if (typeof min !== 'number' || typeof max !== 'number') return [];
  return schemaVcpuCounts().filter((n) => n >= min && n <= max);
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
