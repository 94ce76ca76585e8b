/**
 * Faults and variants as the lowest layer sees them: the shape of a catalog entry, the ids a
 * world can switch on, and what a world needs to check names. The catalogs themselves are
 * assembled at the top (`faults.ts` from each surface's table, `variants.ts`) and handed to
 * each world (`catalog.ts`), so nothing here or in `world.ts` imports a surface.
 *
 * The id types grow by declaration merging: each fault table adds its ids to
 * {@link FaultRegistry}, and the variant catalog its ids to {@link VariantRegistry}, so
 * `world.fault('pods.typo')` stays a type error without `world.ts` importing the tables.
 */

export interface FaultDef {
  /** The rule this fault breaks; the detection matrix expects the suite to fail it. */
  rule: string;
  description: string;
}

/** Every fault id, one member per id; each surface's `faults.ts` adds its own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface FaultRegistry {}
/** Every variant id, one member per id; `variants.ts` adds them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface VariantRegistry {}

export type FaultId = keyof FaultRegistry & string;
export type VariantId = keyof VariantRegistry & string;

/** What a world checks fault and variant names against (the catalogs, passed down from the top). */
export interface Switches {
  isFault(id: string): id is FaultId;
  /** Variant and variant-set names to variant ids; unknown names apart. */
  expandVariants(names: readonly string[]): { ids: VariantId[]; unknown: string[] };
  /** Every variant and variant-set name, for the message that refuses an unknown one. */
  readonly variantNames: readonly string[];
}
