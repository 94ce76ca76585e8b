/**
 * A rule's verdicts over a series of runs (a trail of `--previous` reports, or a history
 * folder): the runs at which it changed, and whether it is unstable. Only comparable runs
 * count: an incomplete or partial run shows rules as skipped or untested because they did not
 * run, which says nothing about the target.
 */
import type { ConformanceReport, TrailRun, TrailVerdict } from './model.js';
import { partialRun } from './render/labels.js';

/** A rule is unstable when its verdict changed at least {@link UNSTABLE_CHANGES} times between the last {@link UNSTABLE_WINDOW} runs. */
export const UNSTABLE_WINDOW = 7;
export const UNSTABLE_CHANGES = 2;

/** Whether a run's verdicts can be compared with another's: complete, and the whole suite. */
export const comparable = (report: ConformanceReport): boolean =>
  report.run.complete && report.run.configuration.partial !== true && partialRun(report) === undefined;

export const trailRunOf = (report: ConformanceReport): TrailRun => ({
  startedAt: report.run.startedAt,
  suiteVersion: report.suite.version,
  ...(report.run.seed !== undefined ? { seed: report.run.seed } : {}),
  comparable: comparable(report),
});

/** A rule's verdict in a report, `absent` when its catalog lacks the rule. */
export function verdictIn(report: ConformanceReport): (rule: string) => TrailVerdict {
  const byId = new Map(report.rules.map((r) => [r.id, r.verdict]));
  return (rule) => byId.get(rule) ?? 'absent';
}

/**
 * The indexes of the runs at which the verdict changed, each compared with the last comparable
 * run before it that had the rule (a rule added or removed is not a change of verdict).
 */
export function changeIndexes(verdicts: readonly TrailVerdict[], runs: readonly Pick<TrailRun, 'comparable'>[]): number[] {
  const out: number[] = [];
  let last: TrailVerdict | undefined;
  verdicts.forEach((v, i) => {
    if (!runs[i]?.comparable || v === 'absent') return;
    if (last !== undefined && v !== last) out.push(i);
    last = v;
  });
  return out;
}

/** Whether the changes (indexes into `total` runs) make the rule unstable now. */
export const isUnstable = (changes: readonly number[], total: number): boolean =>
  changes.filter((i) => i > total - UNSTABLE_WINDOW).length >= UNSTABLE_CHANGES;
