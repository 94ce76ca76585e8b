import { CPU_FLAVORS, DATA_CENTERS } from '../pods/catalog.js';
import { HOST_CUDA_VERSIONS } from '../pods/cuda.js';
import { volumesSlice } from '../pods/volumes.js';
import type { Ctx } from '../types.js';
import type { EndpointFields } from '../state/endpoints.js';
import type { RestV1EndpointLiveFields, RestV1EndpointRequest } from '../../lib/types.gen.js';

/** A REST v1 createEndpoint body: the spec's fields and the live platform's (platform-notes). */
export type V1Request = RestV1EndpointRequest & RestV1EndpointLiveFields;

/**
 * The rules of REST v1's live fields (platform-notes) that the schema cannot state: CPU workers
 * name known CPU flavors and no GPU types; known data centers; the caller's network volumes;
 * either an exact CUDA set or a floor. Each broken rule is one `errors[]` line.
 */
export function checkLiveRequest(ctx: Ctx, req: V1Request): string[] {
  const errors: string[] = [];
  if (req.computeType === 'CPU') {
    if (req.gpuTypeIds !== undefined) errors.push('/gpuTypeIds: not with computeType CPU');
    if (req.cpuFlavorIds === undefined || req.cpuFlavorIds.length === 0) errors.push('/cpuFlavorIds: required with computeType CPU, at least one flavor');
    req.cpuFlavorIds?.forEach((id, i) => { if (!CPU_FLAVORS.some((f) => f.id === id)) errors.push(`/cpuFlavorIds/${i}: unknown CPU flavor "${id}"`); });
  } else if (req.cpuFlavorIds !== undefined || req.vcpuCount !== undefined) {
    errors.push(`/${req.cpuFlavorIds !== undefined ? 'cpuFlavorIds' : 'vcpuCount'}: only with computeType CPU`);
  }
  req.dataCenterIds?.forEach((id, i) => { if (!DATA_CENTERS.some((d) => d.id === id)) errors.push(`/dataCenterIds/${i}: unknown data center "${id}"`); });
  const volumes = [...(req.networkVolumeId !== undefined ? [['/networkVolumeId', req.networkVolumeId]] : []),
    ...(req.networkVolumeIds ?? []).map((id, i) => [`/networkVolumeIds/${i}`, id])];
  for (const [pointer, id] of volumes) {
    if (!ctx.world.get(volumesSlice).get(id!, ctx.account.id)) errors.push(`${pointer}: no network volume "${id}" in this account`);
  }
  if ((req.allowedCudaVersions?.length ?? 0) > 0 && req.minCudaVersion !== undefined) errors.push('/minCudaVersion: not with a non-empty allowedCudaVersions');
  if (req.minCudaVersion !== undefined && !/^\d+\.\d+$/.test(req.minCudaVersion)) errors.push('/minCudaVersion: a CUDA version of the form major.minor');
  return errors;
}

const cudaParts = (v: string): number[] => v.split('.').map(Number);
const atLeast = (v: string, floor: string): boolean => {
  const [a, b] = cudaParts(v);
  const [c, d] = cudaParts(floor);
  return a! > c! || (a === c && b! >= d!);
};

/** The record's fields the live request sets, with the live defaults (scaler `QUEUE_DELAY` 4, 1 GPU). */
export function liveEndpointFields(req: V1Request): Pick<EndpointFields, 'flashBootType' | 'scalerType' | 'scalerValue' | 'networkVolumeId' | 'gpuCount' | 'allowedCudaVersions'> {
  return {
    flashBootType: req.flashboot === true ? 'FLASHBOOT' : null,
    scalerType: req.scalerType ?? 'QUEUE_DELAY',
    scalerValue: req.scalerValue ?? 4,
    networkVolumeId: req.networkVolumeId ?? req.networkVolumeIds?.[0] ?? null,
    gpuCount: req.gpuCount ?? 1,
    // A floor becomes the host versions at or above it.
    allowedCudaVersions: req.minCudaVersion !== undefined ? HOST_CUDA_VERSIONS.filter((v) => atLeast(v, req.minCudaVersion!)) : [...(req.allowedCudaVersions ?? [])],
  };
}
