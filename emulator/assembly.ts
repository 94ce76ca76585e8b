/**
 * What the surfaces contribute to every world, assembled once at the top and passed down: the
 * fault and variant catalogs each world checks its switches against, and the seeders that fill
 * a new world. (The routes are `ROUTES` of `http/route.ts`; the control routes are
 * `routes/control.ts`.) Nothing below this module imports it.
 */
import { isFaultId } from './faults.js';
import { podSeeders } from './pods/routes.js';
import { serverlessSeeders } from './serverless/routes.js';
import type { Switches } from './switches.js';
import type { WorldSeeder } from './types.js';
import { expandVariants, variantCatalog, variantSets } from './variants.js';

/** The fault and variant catalogs, as each world checks names against them. */
export const SWITCHES: Switches = {
  isFault: isFaultId,
  expandVariants,
  variantNames: [...Object.keys(variantCatalog), ...Object.keys(variantSets)],
};

/** Seeders run when a world is created through the control surface (or by `main.ts`), in this order. */
export const WORLD_SEEDERS: readonly WorldSeeder[] = [...podSeeders, ...serverlessSeeders];
