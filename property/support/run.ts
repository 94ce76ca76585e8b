import fc from 'fast-check';
import { test } from '@playwright/test';

/**
 * The run's seed: `CPC_SEED` when given (replay), else chosen once per run in the
 * Playwright config so every worker shares it. Printed in every property test's title.
 */
export function runSeed(): number {
  const seed = Number(process.env.CPC_SEED);
  if (!Number.isInteger(seed)) throw new RangeError('CPC_SEED is not set: playwright.config.ts sets it for every run');
  return seed;
}

export interface PropertyOptions {
  numRuns?: number;
  /** Replays one failing case (fast-check's `path`) when set, from `CPC_PATH`. */
  path?: string;
}

/**
 * Runs a fast-check property with the run's seed. A failure shrinks to a minimal
 * counterexample, is recorded for the report (seed, path, counterexample and a replay
 * command) and fails the test with fast-check's own report.
 */
export async function checkProperty<Ts>(property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>, options: PropertyOptions = {}): Promise<void> {
  const seed = runSeed();
  const path = options.path ?? process.env.CPC_PATH;
  const numRuns = options.numRuns ?? 200;
  const details = await fc.check(property as fc.IAsyncProperty<Ts>, { seed, numRuns, ...(path ? { path, endOnFailure: true } : {}) });
  const info = test.info();
  const title = info.title.replace(/"/g, '\\"');
  const record: Record<string, unknown> = { seed, numRuns: details.numRuns };
  if (details.failed) {
    record.path = details.counterexamplePath ?? undefined;
    record.counterexample = fc.stringify(details.counterexample);
    record.replay = `CPC_SEED=${seed} CPC_PATH=${details.counterexamplePath ?? ''} npx playwright test --project=property -g "${title}"`;
  }
  info.annotations.push({ type: 'property', description: JSON.stringify(record) });
  if (details.failed) {
    throw new PropertyFailure(fc.defaultReportMessage(details) ?? 'property failed', String(record.replay));
  }
}

export class PropertyFailure extends Error {
  readonly code = 'CPC_PROPERTY_FAILED';
  constructor(report: string, readonly replay: string) {
    super(`${report}\nReplay: ${replay}`);
    this.name = 'PropertyFailure';
  }
}
