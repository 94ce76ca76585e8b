import { faultCatalog, type FaultId } from '../../emulator/faults.js';

/** Playwright project name for a fault's detection run. */
export const projectName = (fault: string): string => `fault:${fault}`;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One Playwright project per fault: the contract and property tests that declare the rule the
 * fault breaks (selected by their `@RULE` tag), run with that fault switched on in every test's
 * world. `which` is `all` or a comma-separated list of fault ids.
 */
export function detectionProjects(which: string) {
  const ids = (which === 'all' ? Object.keys(faultCatalog) : which.split(',').map((s) => s.trim()).filter(Boolean)) as FaultId[];
  return ids.map((id) => {
    const def = faultCatalog[id];
    if (!def) throw new RangeError(`unknown fault "${id}"`);
    return {
      name: projectName(id),
      testDir: '.',
      testMatch: [/contract\/specs\/.*\.spec\.ts$/, /property\/.*\.prop\.ts$/],
      grep: new RegExp(`@${escape(def.rule)}(?=\\s|$)`),
      use: { faults: [id], detection: true },
    };
  });
}
