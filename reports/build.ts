import type { Rule } from '../lib/rules.js';
import { RULE_LEVELS, SURFACES } from '../lib/rules.js';
import type { ConformanceReport, Counts, RuleResult, RunInfo, TargetIdentity, TestCounts, TestOutcome } from './model.js';
import { REPORT_SCHEMA_VERSION } from './model.js';
import type { RawPlannedTest, RawTestResult } from './raw.js';
import type { LoadSection } from './load-model.js';
import type { MutationSection } from './mutation-model.js';
import { loadOutcomes } from './load.js';
import { ruleResults, toOutcomes } from './verdicts.js';
import { addCostFiles, costFromRaw, type CostFiles } from './cost.js';
import { isPartial, mustCoverage } from './coverage.js';

export interface BuildInput {
  rules: readonly Rule[];
  raw: readonly RawTestResult[];
  /** Tests selected when the run began; those without a result become `notRun`. */
  planned?: readonly RawPlannedTest[];
  target: TargetIdentity;
  startedAt: Date;
  finishedAt: Date;
  complete: boolean;
  interruption?: string;
  seed?: number;
  replay?: string;
  configuration?: RunInfo['configuration'];
  suiteVersion: string;
  load?: LoadSection;
  mutation?: MutationSection;
  /** The files a deployment run leaves beside the report (reports/cost.ts `readCostFiles`); publishing reads them when not given here. */
  costFiles?: CostFiles;
}

export const emptyCounts = (): Counts => ({ total: 0, pass: 0, fail: 0, blocked: 0, skip: 0, observed: 0, untested: 0 });

/** Totals per surface and per level, in catalog order (every surface and level present). */
export function countRules(results: readonly RuleResult[]): Pick<ConformanceReport['summary'], 'rules' | 'bySurface' | 'byLevel'> {
  const rules = emptyCounts();
  const bySurface: Record<string, Counts> = Object.fromEntries(SURFACES.map((s) => [s, emptyCounts()]));
  const byLevel: Record<string, Counts> = Object.fromEntries(RULE_LEVELS.map((l) => [l, emptyCounts()]));
  for (const r of results) {
    for (const c of [rules, (bySurface[r.surface] ??= emptyCounts()), (byLevel[r.level] ??= emptyCounts())]) { c.total++; c[r.verdict]++; }
  }
  return { rules, bySurface, byLevel };
}

export function countTests(outcomes: readonly TestOutcome[]): TestCounts {
  const n = (s: TestOutcome['status']) => outcomes.filter((t) => t.status === s).length;
  return { total: outcomes.length, passed: n('passed'), failed: n('failed'), skipped: n('skipped'), interrupted: n('interrupted'), notRun: n('notRun') };
}

/** Builds the one result model every renderer reads: contract, property and load results merged. */
export function buildReport(input: BuildInput): ConformanceReport {
  const outcomes = [...toOutcomes(input.raw, input.planned ?? []), ...(input.load ? loadOutcomes(input.load) : [])];
  const results = ruleResults(input.rules, outcomes);
  const tests = countTests(outcomes);
  const mustFailed = results.some((r) => r.level === 'MUST' && r.verdict === 'fail');
  const cost = addCostFiles(costFromRaw(input.raw), input.costFiles ?? {});
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite: { name: 'compute-platform-conformance', version: input.suiteVersion },
    target: input.target,
    run: {
      startedAt: input.startedAt.toISOString(),
      finishedAt: input.finishedAt.toISOString(),
      durationMs: Math.max(0, input.finishedAt.getTime() - input.startedAt.getTime()),
      complete: input.complete,
      ...(input.interruption ? { interruption: input.interruption } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.replay ? { replay: input.replay } : {}),
      configuration: input.configuration ?? {},
    },
    summary: { ...countRules(results), tests, conformant: input.complete && !mustFailed && tests.failed === 0, must: mustCoverage(results, isPartial(input.configuration ?? {})) },
    rules: results,
    tests: outcomes,
    ...(input.load ? { load: input.load } : {}),
    ...(input.mutation ? { mutation: input.mutation } : {}),
    ...(cost ? { cost } : {}),
  };
}
