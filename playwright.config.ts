import { defineConfig } from '@playwright/test';
import { detectionProjects } from './run/detection/projects.js';
import { variantProjects } from './run/variants/projects.js';
import { runConfig, workersFor } from './lib/run-config.js';
import { RAW_REPORTER } from './run/paths.js';
import { SUITE_FILES } from './lib/suites.js';
import { conformanceProjects, lanesFor, totalWorkers } from './lib/lanes.js';

// The run's configuration (lib/run-config.ts): the one the command line handed down, or, for a
// plain `npx playwright test`, resolved once from the user's variables by the runner process
// (its workers read the runner's). Nothing here changes it.
const run = runConfig();
// Whether the target has the emulator's control surface, decided once; a plain run decides it from the target it names.
const control = run.target.kind === 'pending' ? run.target.setting.kind === 'embedded' : run.target.control;
// The suite's workers and, on a deployment that opts in to long waits, the long-wait lane's one (lib/lanes.ts).
const lanes = lanesFor(workersFor(run.workers, control), { control, allowLongWaits: run.allowLongWaits });

/**
 * Contract and property suites. No browser: API tests send through undici (one pool per worker). The
 * embedded emulator starts in global setup unless the run configuration names a target.
 */
export default defineConfig<object, { faults: string[]; variants: string[]; detection: boolean }>({
  globalSetup: './run/global-setup.ts',
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  // Decided once (lib/run-config.ts); the long-wait lane's worker is one more (a `cpc conformance` run's only).
  workers: run.suites ? totalWorkers(lanes) : lanes.suite,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], [RAW_REPORTER]],
  outputDir: 'test-results',
  // The suites' projects search the whole project (testDir '.'): without this, Playwright would
  // also walk test-results/ and reports/out/, where another run (npm test runs several side by
  // side) may be emptying its own output folder, and fail on a folder gone mid-walk.
  respectGitIgnore: true,
  // Ajv's standalone code for the schemas (lib/schema-registry.ts) is plain CommonJS: Playwright's
  // transform would only slow it down, in every worker on every run (workers never cache it).
  build: { external: ['**/validators.gen.cjs'] },
  // Faults and conforming variants (emulator/variants.ts) every test world answers with.
  use: { faults: run.faults, variants: run.variants },
  // A matrix run (cpc detect, the variant matrix) names its plan in the run configuration;
  // `cpc conformance` names its suites, run in one project so its workers serve both (beside
  // it, on a deployment, the long-wait lane's project: lib/lanes.ts).
  projects: run.plan?.kind === 'detection' ? detectionProjects() : run.plan?.kind === 'variants' ? variantProjects() : run.suites ? conformanceProjects(run.suites.map((s) => SUITE_FILES[s]), lanes) : [
    { name: 'contract', testDir: './contract/specs', testMatch: /.*\.spec\.ts$/ },
    { name: 'property', testDir: './property', testMatch: /.*\.prop\.ts$/ },
    // The HTML report in a real browser (npm run test:report-ui); never part of a conformance run.
    { name: 'report-ui', testDir: './reports/test', testMatch: /.*\.ui\.ts$/ },
  ],
});
