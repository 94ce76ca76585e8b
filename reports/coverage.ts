/**
 * How much of the spec's MUST rules a run decided: a verdict of `pass` or `fail` decides a rule;
 * `blocked`, `skip` and `untested` leave it undecided. CONFORMANT on 194 of 282 MUST rules is not
 * CONFORMANT on all 282, so every format says which (reports/render/labels.ts `verdictSentence`),
 * with why the rest were not decided, grouped by cause; `--require-all-must` gates on it.
 */
import type { ConformanceReport, MustCoverage, RuleResult } from './model.js';

/** Causes of a skipped rule, first match wins: what a user can give the run to decide it. */
const SKIP_CAUSES: readonly [RegExp, string][] = [
  [/CPC_ENDPOINT_ID|queue-based endpoint/, 'need a worker endpoint (CPC_ENDPOINT_ID)'],
  [/CPC_TEMPLATE_ID/, 'need a serverless template (CPC_TEMPLATE_ID)'],
  [/CPC_MODEL_ENDPOINT_ID/, 'need a public model endpoint (CPC_MODEL_ENDPOINT_ID)'],
  [/CPC_API_KEY_READONLY/, 'need a read-only key (CPC_API_KEY_READONLY)'],
  [/CPC_API_KEY_OTHER/, "need another account's key (CPC_API_KEY_OTHER)"],
  [/CPC_ALLOW_[A-Z_]+/, 'need an opt-in ($&)'],
  [/control surface|virtual clock|only the emulator/, "need the emulator's control surface"],
  [/^not run: |interrupted/, 'not run: the run ended first'],
  [/could not check it: /, 'could not be checked on this target'],
];

/** The cause of one skip reason and its rank (a lower rank is a need a user can meet; unknown last). */
function rankedCause(reason: string): { rank: number; cause: string } {
  for (const [rank, [pattern, cause]] of SKIP_CAUSES.entries()) {
    const m = pattern.exec(reason);
    if (m) return { rank, cause: cause.replace('$&', m[0]) };
  }
  return { rank: SKIP_CAUSES.length, cause: "skipped for the target's circumstances" };
}

/** Why one undecided MUST rule was not decided: of its tests' reasons, the most actionable. */
function causeOf(rule: RuleResult, partial: boolean): string {
  if (rule.verdict === 'blocked') return 'blocked before their check';
  if (rule.verdict === 'untested') return partial ? 'not selected by this run' : 'no test checks them';
  const ranked = (rule.skipReasons ?? []).map(rankedCause).sort((x, y) => x.rank - y.rank);
  return ranked[0]?.cause ?? 'skipped';
}

/** The MUST rules a report decided, and the undecided ones grouped by cause, largest group first. */
export function mustCoverage(rules: readonly RuleResult[], partial = false): MustCoverage {
  const must = rules.filter((r) => r.level === 'MUST');
  const decided = must.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').length;
  const groups = new Map<string, number>();
  for (const r of must) {
    if (r.verdict === 'pass' || r.verdict === 'fail') continue;
    const cause = causeOf(r, partial);
    groups.set(cause, (groups.get(cause) ?? 0) + 1);
  }
  const undecided = [...groups].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count || a.cause.localeCompare(b.cause));
  return { total: must.length, decided, undecided };
}

/** The report's coverage: as it recorded it (report 2.3), else computed from its rules (older reports). */
export const coverageOf = (report: Pick<ConformanceReport, 'summary' | 'rules' | 'run'>): MustCoverage =>
  report.summary.must ?? mustCoverage(report.rules, isPartial(report.run.configuration));

/** A run that selected part of the suite (a `--grep`, one project): its untested rules were not selected. */
export function isPartial(configuration: Record<string, string | number | boolean>): boolean {
  return typeof configuration.grep === 'string' || (typeof configuration.projects === 'string' && configuration.projects !== 'contract,property');
}

/** "on 194 of 282 MUST rules; 88 not decided (37 need a worker endpoint (CPC_ENDPOINT_ID), …)", or "on all 282 MUST rules, every one decided". */
export function coverageText(c: MustCoverage): string {
  if (c.decided === c.total) return `on all ${c.total} MUST rules, every one decided`;
  return `on ${c.decided} of ${c.total} MUST rules; ${c.total - c.decided} not decided (${c.undecided.map((g) => `${g.count} ${g.cause}`).join(', ')})`;
}

/** Why the certification gate (`--require-all-must`) fails the run, or undefined when every MUST rule was decided. */
export function allMustBreach(report: Pick<ConformanceReport, 'summary' | 'rules' | 'run'>): string | undefined {
  const c = coverageOf(report);
  return c.decided === c.total ? undefined : `--require-all-must: decided ${coverageText(c).slice(3)}`;
}
