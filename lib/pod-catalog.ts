import type { ApiClient } from './client/api.js';
import type { CpuFlavor, DataCenter, GpuType } from './types.gen.js';
import type { OperationName } from './client/operations.js';
import { schemaOf } from './schema-registry.js';
import type { ApiResult } from './client/api.js';
import type { CreatePodRequest } from './types.gen.js';
import type { TargetProfile } from './profile.js';

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
 * it on first use: reading the schemas at import would slow every process that only lists the
 * tests (Playwright's runner).
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

/**
 * How available the catalog says a type is, lower first: the live catalog's `availability`
 * (HIGH, MEDIUM, LOW, NONE) when the read lists it, a boolean or a count elsewhere; unknown
 * between the listed levels and none.
 */
function availabilityRank(g: GpuEntry): number {
  const v = (g as { availability?: unknown }).availability;
  if (v === false || v === 0 || (typeof v === 'string' && /^(none|unavailable|out of stock)$/i.test(v))) return 4;
  if (typeof v === 'string') return ({ HIGH: 0, MEDIUM: 1, LOW: 2 } as Record<string, number>)[v.toUpperCase()] ?? 3;
  return v === true || (typeof v === 'number' && v > 0) ? 0 : 3;
}

/**
 * The GPU types a valid GPU create may be placed on, in the order they are tried: the
 * profile's `gpuTypes` as listed (those the catalog knows); else the catalog's NVIDIA types,
 * the profile's `gpuType` first, then by availability (the sort is stable: catalog order
 * within a level). Empty when none is usable; `why` then says what the test skips for.
 */
export function gpuCandidates(c: PodCatalog, profile: Pick<TargetProfile, 'gpuType' | 'gpuTypes'>): { list: GpuEntry[]; why: string } {
  if (profile.gpuTypes?.length) {
    const list = profile.gpuTypes.map((id) => c.gpus.find((g) => g.id === id)).filter((g): g is GpuEntry => g !== undefined);
    return { list, why: `the target's GPU catalog lists none of ${profile.gpuTypes.join(', ')} (CPC_GPU_TYPES)` };
  }
  if (profile.gpuType) {
    const chosen = c.gpus.find((g) => g.id === profile.gpuType);
    const rest = c.gpus.filter(isNvidia).filter((g) => g !== chosen).sort((a, b) => availabilityRank(a) - availabilityRank(b));
    return { list: chosen ? [chosen, ...rest] : [], why: `the target's GPU catalog lists no ${profile.gpuType} (CPC_GPU_TYPE)` };
  }
  return { list: c.gpus.filter(isNvidia).sort((a, b) => availabilityRank(a) - availabilityRank(b)), why: 'the target\'s GPU catalog lists no NVIDIA type' };
}

/**
 * The live platform places one GPU type per createPod and answers 400 when that type has no
 * capacity (platform notes, Capacity), so one type's 400 decides nothing: a GPU body answered
 * 400 (`first`) is sent again on each of `others` in turn until one answers otherwise. Returns
 * the last answer, the body it answered (its `gpu.id` the type that answered) and the types
 * that answered 400.
 */
export async function onOtherGpuTypes<T>(first: ApiResult<T>, body: CreatePodRequest, others: readonly string[],
  send: (body: CreatePodRequest) => Promise<ApiResult<T>>): Promise<{ res: ApiResult<T>; body: CreatePodRequest; refused: string[] }> {
  if (first.status !== 400 || !body.gpu) return { res: first, body, refused: [] };
  const refused = [body.gpu.id];
  let res = first;
  for (const id of others) {
    if (refused.includes(id)) continue;
    const next = { ...body, gpu: { ...body.gpu, id } };
    const answer = await send(next);
    if (answer.status !== 400) return { res: answer, body: next, refused };
    refused.push(id);
    res = answer;
  }
  return { res, body, refused };
}
