/**
 * What a run asks of the emulator's worlds (faults, conforming variants, legal chaos), checked
 * as the control surface checks a world's body: a setting it would refuse is a configuration
 * error naming it (exit 2) before anything runs, not a refusal in every test's fixture.
 */
import { ConfigError } from '../lib/errors.js';
import { chaosProblems, formatChaos, type ChaosOptions } from '../lib/chaos/options.js';
import { FAULT_IDS, isFaultId } from '../emulator/faults.js';
import { expandVariants } from '../emulator/variants.js';

/** The emulator settings of a run, each with the flag or variable it came from (named by an error). */
export interface EmulatorSettings {
  faults: readonly string[];
  variants: readonly string[];
  chaos?: ChaosOptions | undefined;
  /** Where each came from, for the error (default: the variables). */
  from?: { faults?: string; variants?: string; chaos?: string };
}

/** Throws a {@link ConfigError} for the first setting the emulator would refuse. */
export function checkEmulatorSettings(s: EmulatorSettings): void {
  const unknown = s.faults.filter((f) => !isFaultId(f));
  const faults = s.from?.faults ?? 'CPC_EMULATOR_FAULTS';
  if (unknown.length) throw new ConfigError(`unknown fault(s): ${unknown.join(', ')} (known: ${FAULT_IDS.join(', ')})`, faults);
  const unknownVariants = expandVariants(s.variants).unknown;
  const variants = s.from?.variants ?? 'CPC_EMULATOR_VARIANTS';
  if (unknownVariants.length) throw new ConfigError(`${variants}: unknown variant(s): ${unknownVariants.join(', ')}`, variants);
  const refused = s.chaos ? chaosProblems({ ...s.chaos }) : [];
  const chaos = s.from?.chaos ?? 'CPC_EMULATOR_CHAOS';
  if (refused.length) throw new ConfigError(`${chaos} ${formatChaos(s.chaos!)}: ${refused.join('; ')}`, chaos);
}
