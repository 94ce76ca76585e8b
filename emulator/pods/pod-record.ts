import type { Cloud, PodStatus } from '../../lib/types.gen.js';

/** The emulator's stored form of a pod; `view.ts` turns it into the spec's Pod object. */
export interface PodRecord {
  id: string;
  accountId: string;
  name: string;
  image: string;
  args: string;
  disk: number;
  ports: readonly string[];
  env: Readonly<Record<string, string>>;
  registry: string | null;
  mounts: StoredMounts;
  gpu?: { id: string; count: number };
  cpu?: { id: string; vcpuCount: number; memory?: number };
  cloud: Cloud;
  dataCenterId: string;
  template: string | null;
  /** The host's CUDA version (live field `cudaVersion`); null for CPU pods and non-NVIDIA GPUs. */
  cudaVersion: string | null;
  /** Created with `startSsh` (live field): an SSH daemon runs in the container. */
  ssh: boolean;
  /** Created with `startJupyter` (live field): JupyterLab runs in the container. */
  jupyter: boolean;
  /** USD per hour while billed. */
  hourlyCost: number;
  locked: boolean;
  /** The assigned global-network address, when global networking is on. */
  globalIp: string | null;
  status: PodStatus;
  /** Virtual time the current status began. */
  statusSince: number;
  createdAt: number;
  /** Virtual time the container last became healthy (RUNNING); null until then. */
  startedAt: number | null;
}

export interface StoredMounts {
  persistent?: { size: number; path: string };
  network?: { volumeId: string; path: string }[];
}

/**
 * Defaults the emulator applies to optional container fields (the spec shows none but `cloud`,
 * `gpu.count` and `globalNetworking`). A pod without ports or env stores these frozen values,
 * shared: records never change them in place (a PATCH replaces them whole), and every pod a
 * world keeps is memory the collector copies, so thousands of pods need not each hold empties.
 */
export const CONTAINER_DEFAULTS = {
  args: '', disk: 20, registry: null,
  ports: Object.freeze([]) as readonly string[],
  env: Object.freeze({}) as Readonly<Record<string, string>>,
} as const;

/** A small, stable hash (FNV-1a) for deterministic addresses and metrics. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A global-network address in 10.128.0.0/9, derived from the pod id. */
export function globalIpFor(podId: string): string {
  const h = hash32(podId);
  return `10.${128 + ((h >>> 16) & 0x7f)}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1}`;
}
