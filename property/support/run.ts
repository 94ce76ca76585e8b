import fc from 'fast-check';
import { test } from '@playwright/test';
import { runConfig } from '../../lib/run-config.js';
import { ANNOTATION, type PropertyRecord } from '../../lib/protocol.js';
import { LostAnswerError, NonConformanceError, PropertyFailure, type Finding } from '../../lib/errors.js';
import { blocked } from '../../contract/support/rules.js';
import { splitByAbsence } from '../../contract/support/availability.js';
import { absencesMet } from '../../contract/support/exchanges.js';

/**
 * The run's seed, from the run configuration (`CPC_SEED` when given, a replay; else chosen once
 * per run, so every worker shares it). Printed in every property test's title.
 */
export const runSeed = (): number => runConfig().seed;

export interface PropertyOptions {
  numRuns?: number;
  /** Replays one failing case (fast-check's `path`); default: the run configuration's (`CPC_PATH`). */
  path?: string;
}

/** The findings a {@link NonConformanceError} carries (what checks, properties and models throw), or none for any other error. */
export function findingsOf(error: unknown): Finding[] {
  return error instanceof NonConformanceError ? [...error.findings] : [];
}

/**
 * Runs a fast-check property with the run's seed. A failure shrinks to a minimal
 * counterexample, is recorded for the report (seed, path, counterexample and a replay
 * command) and fails the test with fast-check's own report. The test fails exactly the rules
 * the counterexample's error names (its `findings`); a property stopped by an error that names
 * no rule (the target refused a setup step, a connection broke) fails none: the report shows
 * its rules blocked. `rule-failed` annotations that checks added while fast-check explored and
 * shrunk are replaced by the counterexample's.
 */
export async function checkProperty<Ts>(property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>, options: PropertyOptions = {}): Promise<void> {
  const seed = runSeed();
  const path = options.path ?? runConfig().replayPath;
  const numRuns = options.numRuns ?? 200;
  const info = test.info();
  const before = info.annotations.length;
  const details = await fc.check(property as fc.IAsyncProperty<Ts>, { seed, numRuns, ...(path ? { path, endOnFailure: true } : {}) });
  const added = info.annotations.splice(before).filter((a) => a.type !== ANNOTATION.ruleFailed);
  info.annotations.push(...added);
  const title = info.title.replace(/"/g, '\\"');
  const record: PropertyRecord = { seed, numRuns: details.numRuns };
  if (details.failed) {
    if (details.counterexamplePath) record.path = details.counterexamplePath;
    record.counterexample = fc.stringify(details.counterexample);
    record.replay = `CPC_SEED=${seed} CPC_PATH=${details.counterexamplePath ?? ''} npx playwright test --project=property -g "${title}"`;
  }
  info.annotations.push({ type: ANNOTATION.property, description: JSON.stringify(record) });
  if (details.failed) {
    // A connection that broke under one of the property's requests is the network's, not a counterexample.
    if (details.errorInstance instanceof LostAnswerError) blocked(details.errorInstance.message);
    // Findings read from an operation that is not there are not judged: the property is blocked by it.
    const { kept: findings, absent } = splitByAbsence(findingsOf(details.errorInstance), absencesMet(info));
    if (findings.length === 0 && absent.length > 0) blocked(absent.join('; '));
    for (const rule of new Set(findings.map((f) => f.rule))) info.annotations.push({ type: ANNOTATION.ruleFailed, description: rule });
    throw new PropertyFailure(fc.defaultReportMessage(details) ?? 'property failed', String(record.replay), findings);
  }
}
