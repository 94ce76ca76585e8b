import type { VariantId } from '../switches.js';
import { variantCatalog, variantSets } from '../variants.js';
import { Draws } from './draws.js';

/**
 * The world's conforming variants, drawn over whatever the catalog holds (emulator/variants.ts).
 * Variants that switch the same choice (the same `choice` row) are alternatives of it:
 * `jobs.submit-201` and `jobs.submit-202` both set the success status of /run. Of one choice
 * the draw takes none, one, or several that a variant set names together (`emulator-0.1`
 * switches two catalog shapes at once), never two alternatives nothing says combine. A choice
 * the world already makes explicitly is left to it.
 */
export interface ChoiceGroup { choice: string; options: readonly (readonly VariantId[])[] }

export function choiceGroups(): ChoiceGroup[] {
  const byChoice = new Map<string, VariantId[]>();
  for (const [id, def] of Object.entries(variantCatalog) as [VariantId, { choice: string }][]) {
    byChoice.set(def.choice, [...(byChoice.get(def.choice) ?? []), id]);
  }
  return [...byChoice.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([choice, members]) => {
    const options: VariantId[][] = [[], ...members.map((m) => [m])];
    const seen = new Set(options.map((o) => o.join('+')));
    for (const set of Object.values(variantSets)) {
      const together = members.filter((m) => set.includes(m));
      if (together.length >= 2 && !seen.has(together.join('+'))) {
        seen.add(together.join('+'));
        options.push(together);
      }
    }
    return { choice, options };
  });
}

/** The variants drawn for a world with chaos `seed` and `key`, besides its explicit `ids`. */
export function drawVariants(seed: number, key: string, explicit: ReadonlySet<VariantId>): VariantId[] {
  const out: VariantId[] = [];
  for (const group of choiceGroups()) {
    if (group.options.some((o) => o.some((id) => explicit.has(id)))) continue;
    out.push(...new Draws(seed, `${key}|variant|${group.choice}`).pick(0, group.options));
  }
  return out;
}
