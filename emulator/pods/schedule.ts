import type { World } from '../world.js';
import { DATA_CENTERS, dataCenter } from './catalog.js';
import { hash32 } from './pod-record.js';
import { conflict } from './validation.js';

const ALL_IDS: readonly string[] = DATA_CENTERS.map((d) => d.id);

/** What constrains where a pod may run. */
export interface Placement {
  /** `dataCenterIds` from the request: preferred data centers, in order; empty lets the scheduler choose. */
  preferred: readonly string[];
  /** The data center of the mounted network volume, if any (the pod must run there). */
  volumeDataCenter?: { volumeId: string; dataCenter: string } | undefined;
  /** Global networking asked for: only data centers with `globalNetwork` qualify. */
  globalNetwork: boolean;
  /** Spreads pods without a preference over the eligible data centers, deterministically. */
  podId: string;
}

/**
 * Chooses the pod's data center (spec, CreatePodRequest: `dataCenterIds` "Preferred data
 * centers; omit or pass an empty array to let the scheduler choose"). The first preferred data
 * center that satisfies the volume and global-network constraints wins; without a preference a
 * deterministic pick among the eligible ones. No eligible data center is a 400 conflict.
 */
export function chooseDataCenter(world: World, p: Placement): string {
  const unknown = p.preferred.findIndex((id) => dataCenter(id) === undefined);
  if (unknown >= 0) throw conflict(`/dataCenterIds/${unknown}`, `unknown data center "${p.preferred[unknown]}" (see GET /v2/catalog/datacenters)`);
  let candidates: readonly string[] = p.preferred.length > 0 ? [...new Set(p.preferred)] : ALL_IDS;

  if (p.volumeDataCenter) {
    const { volumeId, dataCenter: dc } = p.volumeDataCenter;
    if (world.fault('pods.volume-other-dc-accepted') && !candidates.includes(dc)) return candidates[0]!;
    candidates = candidates.filter((id) => id === dc);
    if (candidates.length === 0) {
      throw conflict('/mounts/network/0/volumeId', `network volume "${volumeId}" is in ${dc}, which is not among the preferred data centers (${p.preferred.join(', ')})`);
    }
  }
  if (p.globalNetwork) {
    const eligible = candidates.filter((id) => dataCenter(id)!.globalNetwork);
    if (eligible.length === 0) {
      throw conflict('/globalNetworking', `global networking needs a data center with globalNetwork enabled; none of ${candidates.join(', ')} has it`);
    }
    candidates = eligible;
  }
  return p.preferred.length > 0 ? candidates[0]! : candidates[hash32(p.podId) % candidates.length]!;
}
