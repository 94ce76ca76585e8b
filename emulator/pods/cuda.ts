import { conflict } from './validation.js';

/**
 * CUDA versions the emulator's GPU hosts report, oldest first. The spec names no CUDA field;
 * the live platform takes `gpu.allowedCudaVersions` and `gpu.minCudaVersion` and answers the
 * pod's `cudaVersion` (platform-notes). Every NVIDIA type is offered on hosts of each version.
 */
export const HOST_CUDA_VERSIONS: readonly string[] = ['11.8', '12.1', '12.2', '12.4', '12.6', '12.8'];

/** `major.minor` as a number pair compared numerically (12.11 is above 12.2); undefined when not of that form. */
function parts(version: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(version);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}
const atLeast = (v: [number, number], floor: [number, number]): boolean => v[0] > floor[0] || (v[0] === floor[0] && v[1] >= floor[1]);

/**
 * The host CUDA version a new pod gets: null for CPU pods and non-NVIDIA GPUs, else the newest
 * host version meeting the constraints. A constraint the scheduler cannot meet is 400 (platform
 * notes: 400 for "a rule across fields or a placement the scheduler cannot make").
 */
export function chooseCudaVersion(type: { id: string; manufacturer: string } | undefined, allowed: readonly string[] | undefined, min: string | undefined): string | null {
  const constrained = (allowed !== undefined && allowed.length > 0) || min !== undefined;
  if (!type || type.manufacturer !== 'NVIDIA') {
    if (constrained) throw conflict(type ? '/gpu/id' : '/gpu', `CUDA constraints need an NVIDIA GPU${type ? `; "${type.id}" is not one` : ''}`);
    return null;
  }
  if (!constrained) return HOST_CUDA_VERSIONS[HOST_CUDA_VERSIONS.length - 1]!;
  if (allowed !== undefined && allowed.length > 0 && min !== undefined) {
    throw conflict('/gpu/minCudaVersion', 'send either a non-empty allowedCudaVersions or minCudaVersion, not both');
  }
  let candidates = HOST_CUDA_VERSIONS;
  if (min !== undefined) {
    const floor = parts(min);
    if (!floor) throw conflict('/gpu/minCudaVersion', `"${min}" is not a CUDA version of the form major.minor`);
    candidates = candidates.filter((v) => atLeast(parts(v)!, floor));
  } else {
    candidates = candidates.filter((v) => allowed!.includes(v));
  }
  const chosen = candidates[candidates.length - 1];
  if (chosen === undefined) {
    const wanted = min !== undefined ? `CUDA ${min} or later` : `CUDA ${allowed!.join(' or ')}`;
    throw conflict(min !== undefined ? '/gpu/minCudaVersion' : '/gpu/allowedCudaVersions',
      `no host with ${wanted} offers "${type.id}" (hosts report ${HOST_CUDA_VERSIONS.join(', ')})`);
  }
  return chosen;
}
