import type { HistoryRun } from '../../../history/model.js';

/** A run on an axis: its date, with the time when two runs of the window share a date. */
export function runLabels(runs: readonly HistoryRun[]): string[] {
  const dates = runs.map((r) => r.startedAt.slice(0, 10));
  const shared = new Set(dates.filter((d, i) => dates.indexOf(d) !== i));
  return runs.map((r, i) => (shared.has(dates[i]!) ? `${dates[i]} ${r.startedAt.slice(11, 16)}` : dates[i]!));
}

/** A run in a tooltip: when, which suite, which seed, whether its verdicts are compared. */
export const runTitle = (r: HistoryRun): string =>
  `${r.startedAt.replace('T', ' ').slice(0, 16)} UTC · suite ${r.suiteVersion}${r.seed !== undefined ? ` · seed ${r.seed}` : ''}${r.comparable ? '' : ' · incomplete or partial run: not compared'}`;
