import { variantCatalog, variantSets, variantSurfaces, type VariantSurface } from '../../emulator/variants.js';
import type { VariantEntry, VariantPlan } from '../../lib/protocol.js';

export type { VariantEntry, VariantPlan };
import { ALL_SUITE_FILES } from '../../lib/suites.js';

/**
 * The variant matrix's plan: one entry per variant of the emulator's catalog and per variant
 * set (`live`), each run as its own Playwright project with the variant on in every world.
 * An entry runs the suites of the surfaces its variants change (plus the cross-surface core
 * specs), or the whole contract and property suite with `full`.
 */
/** The project of an entry. */
export const projectOf = (name: string): string => `variant:${name}`;

/** The spec and property files of each surface; the core specs (auth, problem+json, routes, rate limits) run for every entry. */
const FILES: Record<VariantSurface | 'core', RegExp[]> = {
  core: [/contract\/specs\/core\/.*\.spec\.ts$/],
  'rest-v2': [/contract\/specs\/pods\/.*\.spec\.ts$/, /property\/pods\/.*\.prop\.ts$/],
  serverless: [/contract\/specs\/serverless\/.*\.spec\.ts$/, /property\/jobs\/.*\.prop\.ts$/],
  'rest-v1': [/contract\/specs\/rest-v1\/.*\.spec\.ts$/],
  graphql: [/contract\/specs\/graphql\/.*\.spec\.ts$/],
};

/** The test files an entry runs. */
export const filesOf = (entry: VariantEntry, full: boolean): RegExp[] => (full ? ALL_SUITE_FILES : [...FILES.core, ...entry.surfaces.flatMap((s) => FILES[s])]);

/** The plan for `names` (variant ids or set names; default: every variant, then every set). */
export function buildVariantPlan(names: readonly string[], full = false): VariantPlan {
  const chosen = names.length > 0 ? names : [...Object.keys(variantCatalog), ...Object.keys(variantSets)];
  return { full, entries: chosen.map((name) => ({ name, variants: [name], surfaces: variantSurfaces([name]) })) };
}


/**
 * Which part of the matrix a sampled run takes (`npm test`): the entries are dealt into
 * `windows` windows by stride (entry i in window i mod windows, so each window spans the
 * catalog's surfaces), and the run takes window `seed mod windows`. Consecutive seeds cover
 * every entry; the seed is printed, so a sample replays, and any entry runs alone by its name.
 */
export interface VariantSample { seed: number; size: number; window: number; windows: number }

/** The entries of `plan` in the window `seed` picks, windows of about `size` entries. */
export function sampleVariantPlan(plan: VariantPlan, size: number, seed: number): { plan: VariantPlan; sample: VariantSample } {
  const n = plan.entries.length;
  const windows = Math.max(1, Math.ceil(n / Math.max(1, size)));
  const window = seed % windows;
  const entries = plan.entries.filter((_, i) => i % windows === window);
  return { plan: { ...plan, entries }, sample: { seed, size: entries.length, window, windows } };
}
