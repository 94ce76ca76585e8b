import { runConfig } from '../../../lib/run-config.js';
import type { Creates } from '../../../lib/plan.js';

/**
 * Run counts of the pod properties: 200 by default (`CPC_PROPERTY_RUNS` changes it; the run
 * configuration carries it).
 *
 * Against a real target a property sends that many requests in seconds, far beyond the live
 * per-minute quota (60 in platform-notes), and the valid-creation property creates that many
 * pods, which costs money. So on a target without the emulator's control surface they run only
 * when `CPC_ALLOW_PROPERTY_LOAD=1` says the target can take it.
 */
export const propertyRuns = (): number => runConfig().propertyRuns;

export const PROPERTY_LOAD_OPT_IN = 'CPC_ALLOW_PROPERTY_LOAD';

/** Why a property is skipped on this target, or undefined when it runs. */
export function realTargetSkip(emulated: boolean, what: string): string | undefined {
  if (emulated || runConfig().allowPropertyLoad) return undefined;
  return `${what} ${propertyRuns()} times, beyond a real target's rate limit; set ${PROPERTY_LOAD_OPT_IN}=1 to run it there`;
}

/**
 * What a pod property creates where it runs (lib/plan.ts), for its `creates(...)`: the network
 * volumes of its context, one per kind of data center (with and without `globalNetwork`), each
 * an existing volume of the caller or a new one (contract kit `pods.volume`); and, only on a
 * target without the emulator's control surface where the load is allowed, the pods its runs
 * create (`podsPerRun` each, GPU or CPU as drawn: the bound of each kind is every run's). In an
 * emulator world the runs go through their own client (support/fast-client.ts), which the
 * world, not the run's record, keeps.
 */
export function podPropertyCreates(options: { volumes: number; podsPerRun?: number }): Creates {
  const pods = runConfig().allowPropertyLoad ? propertyRuns() * (options.podsPerRun ?? 0) : 0;
  return { networkVolumes: options.volumes, needs: 'propertyLoad', ...(pods > 0 ? { maybe: { gpuPods: pods, cpuPods: pods } } : {}) };
}
