import type { RawTestResult } from '../../lib/protocol.js';
import { projectOf, type VariantPlan, type VariantSample } from './plan.js';

/** How the suite fared with one variant (or variant set) on: a conforming target, so nothing may fail. */
export interface VariantRow {
  name: string;
  variants: string[];
  tests: number;
  passed: number;
  skipped: number;
  failedTests: number;
  /** MUST rules a failed check named: each is a false failure of a conforming deployment. */
  failedMust: string[];
  /** Every rule a failed check named (OBSERVED rules never fail, so normally the same). */
  failedRules: string[];
  /** Failed tests, `file › title`, for the report. */
  failures: string[];
}

export interface VariantMatrix {
  schemaVersion: '1.0.0';
  generatedAt: string;
  durationMs: number;
  /** Whether each entry ran the whole suite, or the suites of the surfaces it changes. */
  full: boolean;
  /** Runs per property (fast-check's numRuns) with each variant. */
  propertyRuns: number;
  entries: number;
  /** Entries with no failed test and no failed MUST rule. */
  clean: number;
  rows: VariantRow[];
  /** Present when the run took a sample of the matrix (`--sample`): which one. */
  sample?: VariantSample;
}

const isFailed = (t: RawTestResult): boolean => t.status === 'failed' || t.status === 'timedOut' || t.status === 'interrupted';

/** The matrix from the raw results of the run: one row per plan entry, by its project. `must`: the MUST rule ids of the catalog. */
export function buildVariantMatrix(plan: VariantPlan, raw: readonly RawTestResult[], must: ReadonlySet<string>, durationMs: number, propertyRuns: number): VariantMatrix {
  const rows = plan.entries.map((entry): VariantRow => {
    const tests = raw.filter((t) => t.project === projectOf(entry.name));
    const failed = tests.filter(isFailed);
    const failedRules = [...new Set(failed.flatMap((t) => t.failedRules))].sort();
    return {
      name: entry.name, variants: entry.variants, tests: tests.length,
      passed: tests.filter((t) => t.status === 'passed').length,
      skipped: tests.filter((t) => t.status === 'skipped').length,
      failedTests: failed.length, failedMust: failedRules.filter((r) => must.has(r)), failedRules,
      failures: failed.map((t) => `${t.file} › ${t.title}${t.failedRules.length ? ` [${t.failedRules.join(', ')}]` : ''}`),
    };
  });
  return {
    schemaVersion: '1.0.0', generatedAt: new Date().toISOString(), durationMs: Math.round(durationMs), full: plan.full, propertyRuns,
    entries: rows.length, clean: rows.filter(rowClean).length, rows,
  };
}

/** A row is clean when the entry ran tests and none failed. */
export const rowClean = (r: VariantRow): boolean => r.tests > 0 && r.failedTests === 0 && r.failedMust.length === 0;

export const variantMatrixPasses = (m: VariantMatrix): boolean => m.clean === m.entries;

/** One line per entry, then the failures of the entries that are not clean. */
export function variantMatrixText(m: VariantMatrix): string {
  const part = m.sample ? `, the sample of seed ${m.sample.seed}: window ${m.sample.window + 1} of ${m.sample.windows}` : '';
  const lines = [`Variant matrix: ${m.clean}/${m.entries} variants with 0 failed MUST rules and no failed test (${m.full ? 'whole suite' : 'suites of the surfaces each changes'} per variant, ${m.propertyRuns} runs per property${part}, ${(m.durationMs / 1000).toFixed(0)} s)`];
  for (const r of m.rows) {
    lines.push(`  ${rowClean(r) ? 'ok  ' : 'FAIL'} ${r.name.padEnd(32)} ${String(r.tests).padStart(4)} tests, ${String(r.passed).padStart(4)} passed, ${String(r.skipped).padStart(3)} skipped, ${r.failedTests} failed, failed MUST rules: ${r.failedMust.length ? r.failedMust.join(', ') : 'none'}`);
    if (!rowClean(r)) for (const f of r.failures.slice(0, 10)) lines.push(`         ${f}`);
    if (!rowClean(r)) lines.push(`         alone: npm run variants -- --variants ${r.name}`);
    if (r.tests === 0) lines.push('         no test ran');
  }
  return lines.join('\n');
}
