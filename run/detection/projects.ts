import { readDetectionPlan } from '../../lib/run-config.js';
import { ALL_SUITE_FILES } from '../../lib/suites.js';

export const DETECTION_PROJECT = 'detection';

/**
 * The detection matrix's one Playwright project: the contract and property tests of the plan,
 * each repeated once per fault it is selected for (see plan.ts), with `detection` on so every
 * run is expected to fail.
 */
export function detectionProjects() {
  return [{
    name: DETECTION_PROJECT,
    testDir: '.',
    testMatch: ALL_SUITE_FILES,
    repeatEach: readDetectionPlan().repeat,
    use: { detection: true },
  }];
}
