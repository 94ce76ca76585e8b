import { filesOf, projectOf } from './plan.js';
import { readVariantPlan } from '../../lib/run-config.js';

/**
 * The variant matrix's Playwright projects: one per entry of the plan (see plan.ts), with the
 * entry's variants on in every world the tests create. No test is expected to fail.
 */
export function variantProjects() {
  const plan = readVariantPlan();
  return plan.entries.map((entry) => ({
    name: projectOf(entry.name),
    testDir: '.',
    testMatch: filesOf(entry, plan.full),
    use: { variants: entry.variants },
  }));
}
