/**
 * The suites a conformance run is made of, by their files: the contract specs and the property
 * tests. `cpc conformance` runs the ones it is asked for in ONE Playwright project (`suite`), so
 * its two workers serve both (a worker serves one project only: two projects of two workers
 * each started four); a plain `npx playwright test` keeps the `contract` and `property` projects.
 */
export type SuiteName = 'contract' | 'property';

export const SUITE_NAMES: readonly SuiteName[] = ['contract', 'property'];

/** The test files of each suite, relative to the project root or absolute (as Playwright matches them). */
export const SUITE_FILES: Record<SuiteName, RegExp> = {
  contract: /(?:^|\/)contract\/specs\/.*\.spec\.ts$/,
  property: /(?:^|\/)property\/.*\.prop\.ts$/,
};

/** Every suite's files: what a conformance run, the detection matrix and a whole-suite variant run select. */
export const ALL_SUITE_FILES: RegExp[] = SUITE_NAMES.map((s) => SUITE_FILES[s]);

export const isSuiteName = (name: string): name is SuiteName => (SUITE_NAMES as readonly string[]).includes(name);

/** The project that runs the suites of a `cpc conformance` run. */
export const SUITE_PROJECT = 'suite';

/** The suite a test file belongs to, if any. */
export const suiteOfFile = (file: string): SuiteName | undefined => {
  const f = file.split('\\').join('/');
  return SUITE_NAMES.find((s) => SUITE_FILES[s].test(f));
};
