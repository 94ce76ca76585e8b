import { defineConfig } from '@playwright/test';
import { detectionProjects } from './test/detection/projects.js';
import { variantProjects } from './test/variants/projects.js';

// One seed per run, shared by every worker (they inherit the environment); CPC_SEED replays.
process.env.CPC_SEED ??= String(Math.floor(Math.random() * 2 ** 31));

const names = (value: string | undefined): string[] => (value ?? '').split(',').map((f) => f.trim()).filter(Boolean);
const faults = names(process.env.CPC_EMULATOR_FAULTS);
// Conforming variants (emulator/variants.ts) every test world answers with.
const variants = names(process.env.CPC_EMULATOR_VARIANTS);

/**
 * Contract and property suites. No browser: API tests use the `request` fixture. The
 * embedded emulator starts in global setup unless CPC_BASE_URL names a target.
 */
export default defineConfig<object, { faults: string[]; variants: string[]; detection: boolean }>({
  globalSetup: './contract/global-setup.ts',
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  workers: process.env.CPC_WORKERS ? Number(process.env.CPC_WORKERS) : 2,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['./reports/playwright-reporter.ts']],
  outputDir: 'test-results',
  use: { faults, variants },
  // CPC_DETECTION_PLAN: the detection matrix's plan (written by `cpc detect`).
  // CPC_VARIANT_MATRIX: the variant matrix's plan (one project per variant, test/variants).
  projects: process.env.CPC_DETECTION_PLAN ? detectionProjects() : process.env.CPC_VARIANT_MATRIX ? variantProjects() : [
    { name: 'contract', testDir: './contract/specs', testMatch: /.*\.spec\.ts$/ },
    { name: 'property', testDir: './property', testMatch: /.*\.prop\.ts$/ },
    // The HTML report in a real browser (npm run test:report-ui); never part of a conformance run.
    { name: 'report-ui', testDir: './reports/test', testMatch: /.*\.ui\.ts$/ },
  ],
});
