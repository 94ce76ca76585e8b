/**
 * What changed since the previous report of the same target (`--previous`): the rules whose
 * verdict differs, and a short trail of the last runs that tells a rule which flips back and
 * forth (unstable) from one that broke or was fixed. Each report carries its trail, so a
 * nightly job that passes only last night's report still sees the last week.
 */
import type { ChangesSection, ConformanceReport, TrailVerdict } from './model.js';
import { UNSTABLE_WINDOW, changeIndexes, isUnstable, trailRunOf, verdictIn } from './trend.js';

const same = (xs: readonly TrailVerdict[]): boolean => xs.every((x) => x === xs[0]);

/** The rule ids of both reports and of the previous trail: this run's catalog order first. */
function ruleIds(report: ConformanceReport, previous: ConformanceReport): string[] {
  return [...new Set([...report.rules.map((r) => r.id), ...previous.rules.map((r) => r.id), ...Object.keys(previous.changes?.trail ?? {})])];
}

/** `report` compared with `previous` (read from `file`, when given). */
export function changesSince(report: ConformanceReport, previous: ConformanceReport, file?: string): ChangesSection {
  const before = previous.changes?.runs ?? [trailRunOf(previous)];
  const all = [...before, trailRunOf(report)];
  const from = Math.max(0, all.length - UNSTABLE_WINDOW);
  const runs = all.slice(from);
  const was = verdictIn(previous);
  const now = verdictIn(report);
  const changed: ChangesSection['changed'] = [];
  const trail: ChangesSection['trail'] = {};
  const unstable: string[] = [];
  for (const rule of ruleIds(report, previous)) {
    if (was(rule) !== now(rule)) changed.push({ rule, from: was(rule), to: now(rule) });
    const earlier = previous.changes?.trail[rule] ?? before.map(() => was(rule));
    const verdicts = [...earlier, now(rule)].slice(from);
    if (verdicts.every((v) => v === 'absent')) continue;
    if (!same(verdicts)) trail[rule] = verdicts;
    if (isUnstable(changeIndexes(verdicts, runs), runs.length)) unstable.push(rule);
  }
  return { previous: { ...trailRunOf(previous), ...(file ? { file } : {}) }, changed, runs, trail, unstable };
}

/** The report with its changes since `previous`. */
export const withChanges = (report: ConformanceReport, previous: ConformanceReport, file?: string): ConformanceReport =>
  ({ ...report, changes: changesSince(report, previous, file) });

/** Rules that fail now and did not before. */
export const newFailures = (c: ChangesSection): ChangesSection['changed'] => c.changed.filter((x) => x.to === 'fail');
/** Rules that pass now and failed or were blocked before. */
export const newPasses = (c: ChangesSection): ChangesSection['changed'] => c.changed.filter((x) => x.to === 'pass' && (x.from === 'fail' || x.from === 'blocked'));
