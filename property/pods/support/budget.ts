import { runConfig } from '../../../lib/run-config.js';

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
