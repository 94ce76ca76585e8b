/**
 * The catalog part of a preflight: what pods would be made of (the profile's choices checked
 * against the listed GPU types, CPU flavors and data centers), the prices, and the cost bound.
 */
import type { ApiClient } from '../../lib/client/api.js';
import type { TargetProfile } from '../../lib/profile.js';
import type { CpuFlavor, DataCenter } from '../../lib/types.gen.js';
import { gpuCandidates, listOf, picks, vcpuCounts, type GpuEntry, type PodCatalog } from '../../lib/pod-catalog.js';
import { hourlyPrice, podCostUsd, zeroCounts, type PriceTable } from '../../lib/plan.js';
import { serverlessPrices } from '../../lib/worker-time.js';
import type { AddCheck, CreationPlan } from './types.js';

/** How long one preflight request may take before the surface counts as not answering. */
export const TIMEOUT_MS = 10_000;

/**
 * The catalog's prices: a GPU type's `price` ({secure, community} or a number), a CPU flavor's
 * `securePerVcpu` (or a number), and each serverless pool's dearest `price.serverless`.
 */
export function pricesOf(catalog: PodCatalog): PriceTable {
  const table: PriceTable = { gpu: {}, cpu: {}, serverless: serverlessPrices(catalog.gpus) };
  for (const g of catalog.gpus) {
    const p = (g as { price?: unknown }).price;
    if (typeof p === 'number') table.gpu[g.id] = { secure: p, community: p };
    else if (p && typeof p === 'object') {
      const { secure, community } = p as { secure?: unknown; community?: unknown };
      table.gpu[g.id] = { ...(typeof secure === 'number' ? { secure } : {}), ...(typeof community === 'number' ? { community } : {}) };
    }
  }
  for (const c of catalog.cpus) {
    const p = (c as { price?: unknown }).price;
    if (typeof p === 'number') table.cpu[c.id] = p;
    else if (p && typeof p === 'object' && typeof (p as { securePerVcpu?: unknown }).securePerVcpu === 'number') table.cpu[c.id] = (p as { securePerVcpu: number }).securePerVcpu;
  }
  return table;
}

/**
 * Every planned pod priced for the readiness timeout, and the planned worker time (both
 * bounds); undefined when a pod or the worker time is not priced.
 */
export function estimateCost(plan: CreationPlan, profile: TargetProfile): number | undefined {
  if (plan.workerTime && plan.workerTime.estimatedCostUsd === undefined) return undefined;
  const gpu = plan.gpuType ? hourlyPrice(plan.prices, { gpu: { id: plan.gpuType } }) : undefined;
  const cpu = plan.cpuFlavor ? hourlyPrice(plan.prices, { cpu: { id: plan.cpuFlavor, ...(plan.cpuVcpus ? { vcpuCount: plan.cpuVcpus } : {}) } }) : undefined;
  if ((plan.counts.gpuPods > 0 && gpu === undefined) || (plan.counts.cpuPods > 0 && cpu === undefined)) return undefined;
  return podCostUsd((gpu ?? 0) * plan.counts.gpuPods + (cpu ?? 0) * plan.counts.cpuPods, profile.readyTimeoutMs) + (plan.workerTime?.estimatedCostUsd ?? 0);
}

/** Reads the catalog with the main key and checks the profile's choices against it. */
export async function readCatalog(api: ApiClient, profile: TargetProfile, add: AddCheck): Promise<CreationPlan> {
  const list = async <T extends { id: string }>(op: 'listGpuTypes' | 'listCpuFlavors' | 'listDataCenters') => {
    const res = await api.op<unknown>(op, { timeoutMs: TIMEOUT_MS });
    const items = res.status === 200 ? listOf<T>(res.body) : [];
    add({ name: `catalog: ${op}`, status: res.status === 200 ? 'ok' : 'warn', required: false, detail: `${res.status}, ${items.length} entr${items.length === 1 ? 'y' : 'ies'}` });
    return items;
  };
  const catalog: PodCatalog = { gpus: await list<GpuEntry>('listGpuTypes'), cpus: await list<CpuFlavor>('listCpuFlavors'), dataCenters: await list<DataCenter>('listDataCenters') };
  const ids = (items: { id: string }[]) => items.map((i) => String(i.id));
  const pick = (what: string, setting: string, wanted: string | undefined, items: { id: string }[], fallback: () => string | undefined) => {
    if (wanted !== undefined) {
      const known = ids(items).includes(wanted);
      add({ name: `profile ${what} in the catalog`, status: known ? 'ok' : 'fail', required: true, setting, detail: known ? wanted : `${wanted} is not listed (listed: ${ids(items).slice(0, 12).join(', ')})` });
      return wanted;
    }
    return fallback();
  };
  // What the pod tests choose without a profile (contract/specs/pods/support): an NVIDIA type, a flavor with a vCPU count the schema allows.
  const chosen = picks(catalog);
  // The order a valid GPU create tries types in (capacity), as the pod tests use it.
  const candidates = gpuCandidates(catalog, profile).list.map((g) => g.id);
  if (profile.gpuTypes) {
    const unknown = profile.gpuTypes.filter((id) => !ids(catalog.gpus).includes(id));
    add({ name: 'profile GPU types in the catalog', status: candidates.length === 0 ? 'fail' : unknown.length ? 'warn' : 'ok', required: true, setting: 'CPC_GPU_TYPES',
      detail: unknown.length ? `not listed, never tried: ${unknown.join(', ')}` : candidates.join(', ') });
  }
  const gpuType = pick('GPU type', 'CPC_GPU_TYPE', profile.gpuType, catalog.gpus, () => candidates[0]);
  const cpuFlavor = pick('CPU flavor', 'CPC_CPU_FLAVOR', profile.cpuFlavor, catalog.cpus, () => chosen.cpu?.id);
  const dataCenter = profile.dataCenter === undefined ? undefined : pick('data center', 'CPC_DATA_CENTER', profile.dataCenter, catalog.dataCenters, () => undefined);
  const cpuCount = cpuFlavor ? vcpuCounts(catalog.cpus.find((f) => f.id === cpuFlavor) ?? ({} as CpuFlavor))[0] : undefined;
  return { counts: zeroCounts(), upTo: zeroCounts(), pools: [], requests: 0, prices: pricesOf(catalog), ...(gpuType ? { gpuType } : {}), ...(cpuFlavor ? { cpuFlavor } : {}), ...(cpuCount ? { cpuVcpus: cpuCount } : {}), ...(dataCenter ? { dataCenter } : {}), image: profile.podImage, catalog };
}
