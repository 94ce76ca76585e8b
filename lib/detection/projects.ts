import { readDetectionPlan } from './plan.js';

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
    testMatch: [/contract\/specs\/.*\.spec\.ts$/, /property\/.*\.prop\.ts$/],
    repeatEach: readDetectionPlan().repeat,
    use: { detection: true },
  }];
}
