import type { Rule, RuleLevel, Surface } from '../lib/rules.js';
import type { Evidence } from '../lib/evidence.js';
import type { RawTestResult } from './raw.js';

export const REPORT_SCHEMA_VERSION = '1.0.0';

export type Verdict = 'pass' | 'fail' | 'skip' | 'observed' | 'untested';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'skip', 'observed', 'untested'];

export interface TestOutcome {
  id: string;
  kind: 'contract' | 'property' | 'load' | 'other';
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped' | 'interrupted';
  durationMs: number;
  rules: string[];
  failedRules: string[];
  skipReason?: string;
  error?: string;
  evidence?: Evidence[];
  property?: RawTestResult['property'];
  observed?: { rule: string; value: unknown }[];
}

export interface RuleResult {
  id: string;
  level: RuleLevel;
  surface: Surface;
  section: string;
  statement: string;
  verdict: Verdict;
  /** Ids of the tests that verify the rule. */
  tests: string[];
  /** For `observed`: what the target did, one entry per observation. */
  observed?: unknown[];
  /** For `skip`: why. */
  skipReasons?: string[];
  /** For `fail`: each failing test and its message. */
  failures?: { test: string; message: string }[];
}

export type Counts = Record<Verdict, number> & { total: number };

export interface ConformanceReport {
  schemaVersion: string;
  suite: { name: string; version: string };
  target: { kind: 'embedded' | 'remote'; baseUrl?: string; serverlessUrl?: string; restV1Url?: string; emulator: boolean; faults: string[] };
  run: { startedAt: string; finishedAt: string; durationMs: number; complete: boolean; interruption?: string; seed?: number; configuration: Record<string, string | number | boolean> };
  summary: {
    rules: Counts;
    bySurface: Record<string, Counts>;
    byLevel: Record<string, Counts>;
    tests: { total: number; passed: number; failed: number; skipped: number; interrupted: number };
    /** True when every MUST rule that ran passed and no test failed. */
    conformant: boolean;
  };
  rules: RuleResult[];
  tests: TestOutcome[];
}

const emptyCounts = (): Counts => ({ total: 0, pass: 0, fail: 0, skip: 0, observed: 0, untested: 0 });

const kindOf = (project: string): TestOutcome['kind'] => (project === 'contract' || project === 'property' || project === 'load' ? project : 'other');

/** Turns raw test records into outcomes (a `timedOut` test failed). */
export function toOutcomes(raw: readonly RawTestResult[]): TestOutcome[] {
  return raw.map((r) => ({
    id: r.id,
    kind: kindOf(r.project),
    title: [...r.titlePath.slice(0, -1), r.title].filter(Boolean).join(' › '),
    file: r.file,
    status: r.status === 'passed' ? 'passed' : r.status === 'skipped' ? 'skipped' : r.status === 'interrupted' ? 'interrupted' : 'failed',
    durationMs: r.durationMs,
    rules: r.rules,
    failedRules: r.failedRules,
    ...(r.skipReason ? { skipReason: r.skipReason } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.evidence ? { evidence: r.evidence } : {}),
    ...(r.property ? { property: r.property } : {}),
    ...(r.observed.length ? { observed: r.observed } : {}),
  }));
}

/**
 * The verdict of each rule from the tests that declare it:
 * - `fail`: a test failed on this rule (a check attributed the failure to it, or the test failed
 *   without attributing its failure, which counts against every rule it declares);
 * - `pass`: otherwise, a test that declares it passed (for an OBSERVED rule with observations: `observed`);
 * - `skip`: every test that declares it was skipped (with the reasons);
 * - `untested`: no test declares it: a gap the report shows.
 */
export function ruleResults(rules: readonly Rule[], outcomes: readonly TestOutcome[], observations: ReadonlyMap<string, unknown[]>): RuleResult[] {
  const byRule = new Map<string, TestOutcome[]>();
  for (const t of outcomes) for (const id of new Set([...t.rules, ...t.failedRules])) {
    let list = byRule.get(id);
    if (!list) byRule.set(id, (list = []));
    list.push(t);
  }
  return rules.map((rule) => {
    const tests = byRule.get(rule.id) ?? [];
    const failures = tests
      .filter((t) => t.status === 'failed' && (t.failedRules.includes(rule.id) || t.failedRules.length === 0))
      .map((t) => ({ test: t.id, message: t.error ?? 'failed' }));
    const passed = tests.filter((t) => t.status === 'passed' || (t.status === 'failed' && !t.failedRules.includes(rule.id) && t.failedRules.length > 0));
    const observed = observations.get(rule.id);
    let verdict: Verdict;
    if (failures.length > 0) verdict = 'fail';
    else if (rule.level === 'OBSERVED' && observed && observed.length > 0) verdict = 'observed';
    else if (passed.length > 0) verdict = 'pass';
    else if (tests.length > 0) verdict = 'skip';
    else verdict = 'untested';
    const result: RuleResult = { id: rule.id, level: rule.level, surface: rule.surface, section: rule.section, statement: rule.statement, verdict, tests: tests.map((t) => t.id) };
    if (observed && observed.length) result.observed = observed;
    if (verdict === 'skip') result.skipReasons = [...new Set(tests.map((t) => t.skipReason ?? (t.status === 'interrupted' ? 'the run was interrupted' : 'skipped')))];
    if (failures.length) result.failures = failures;
    return result;
  });
}

export interface BuildInput {
  rules: readonly Rule[];
  raw: readonly RawTestResult[];
  target: ConformanceReport['target'];
  startedAt: Date;
  finishedAt: Date;
  complete: boolean;
  interruption?: string;
  seed?: number;
  configuration?: Record<string, string | number | boolean>;
  suiteVersion: string;
}

/** Builds the one result model every renderer reads. */
export function buildReport(input: BuildInput): ConformanceReport {
  const outcomes = toOutcomes(input.raw);
  const observations = new Map<string, unknown[]>();
  for (const r of input.raw) for (const o of r.observed) {
    let list = observations.get(o.rule);
    if (!list) observations.set(o.rule, (list = []));
    list.push(o.value);
  }
  const results = ruleResults(input.rules, outcomes, observations);
  const counts = emptyCounts();
  const bySurface: Record<string, Counts> = {};
  const byLevel: Record<string, Counts> = {};
  for (const r of results) {
    for (const c of [counts, (bySurface[r.surface] ??= emptyCounts()), (byLevel[r.level] ??= emptyCounts())]) { c.total++; c[r.verdict]++; }
  }
  const tests = {
    total: outcomes.length,
    passed: outcomes.filter((t) => t.status === 'passed').length,
    failed: outcomes.filter((t) => t.status === 'failed').length,
    skipped: outcomes.filter((t) => t.status === 'skipped').length,
    interrupted: outcomes.filter((t) => t.status === 'interrupted').length,
  };
  const mustFailed = results.some((r) => r.level === 'MUST' && r.verdict === 'fail');
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite: { name: 'compute-platform-conformance', version: input.suiteVersion },
    target: input.target,
    run: {
      startedAt: input.startedAt.toISOString(),
      finishedAt: input.finishedAt.toISOString(),
      durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
      complete: input.complete,
      ...(input.interruption ? { interruption: input.interruption } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      configuration: input.configuration ?? {},
    },
    summary: { rules: counts, bySurface, byLevel, tests, conformant: !mustFailed && tests.failed === 0 && input.complete },
    rules: results,
    tests: outcomes,
  };
}
