// @own-process: lists the suites with Playwright.
// The suites' Playwright projects search the whole project (testDir '.'). Output folders are
// not part of that search: `npm test` runs a conformance gate, the report's browser test and
// both matrices side by side, each emptying its own output folder, and a walk that entered
// another run's folder while it was being emptied failed with ENOENT. A test file planted in
// reports/out/ (git-ignored) must not be listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { listPlaywright } from '../run/playwright.js';
import { PROJECT_ROOT } from '../run/paths.js';
import { parseEmbeddedRunConfig } from '../lib/run-config.js';
import type { PlaywrightListing } from '../run/detection/plan.js';

type Suite = PlaywrightListing['suites'][number];
const files = (suites: readonly Suite[]): string[] => suites.flatMap((s) => [...(s.specs ?? []).map((spec) => spec.file), ...files(s.suites ?? [])]);

test('playwright-collect: the suites are found in the project, never in its git-ignored output folders', { timeout: 120_000 }, async () => {
  const planted = join(PROJECT_ROOT, 'reports', 'out', `cpc-planted-${randomUUID()}`);
  const spec = join(planted, 'contract', 'specs', 'planted.spec.ts');
  mkdirSync(join(planted, 'contract', 'specs'), { recursive: true });
  writeFileSync(spec, "import { test } from '@playwright/test';\ntest('planted in an output folder', () => {});\n");
  try {
    const listing = await listPlaywright({ ...parseEmbeddedRunConfig({}), target: { kind: 'embedded', control: true, baseUrl: 'http://127.0.0.1:9', serverlessUrl: 'http://127.0.0.1:9', restV1Url: 'http://127.0.0.1:9' }, suites: ['contract'] });
    const listed = [...new Set(files(listing.suites))];
    assert.ok(listed.some((f) => f.startsWith('contract/specs/')), `the contract specs are listed: ${listed.slice(0, 5).join(', ')}`);
    assert.deepEqual(listed.filter((f) => f.includes('planted')), [], 'nothing under reports/out is listed');
  } finally {
    rmSync(planted, { recursive: true, force: true });
  }
});
