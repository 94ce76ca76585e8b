/**
 * A target's history: reports of one target, oldest first, turned into what the history page
 * shows. Per rule its verdict run by run, the runs at which it changed and whether it is
 * unstable (reports/trend.ts); the rules a new suite version added or removed; the load and
 * cost figures over time; and the changes of the newest run since the one before it.
 */
import type { ConformanceReport, RuleResult, TrailRun, TrailVerdict } from '../model.js';
import { resultLabel } from '../render/labels.js';
import { changeIndexes, isUnstable, trailRunOf, verdictIn } from '../trend.js';
import { targetNameOf } from '../target-name.js';
import { costFigures, loadFigures, thresholdStrips, type FigureSeries } from './figures.js';

export interface HistoryRun extends TrailRun {
  /** The report's file name in the folder. */
  file: string;
  schemaVersion: string;
  result: string;
  conformant: boolean;
  complete: boolean;
  mustFailed: number;
  mustBlocked: number;
  faults: string[];
}

export interface HistoryRule {
  id: string;
  level: RuleResult['level'];
  statement: string;
  verdicts: TrailVerdict[];
  /** Indexes of the runs at which the verdict changed. */
  changes: number[];
  unstable: boolean;
}

/** Where the catalog of rules changed between two runs (a new suite version, as a rule). */
export interface CatalogChange { index: number; from: string; to: string; added: string[]; removed: string[] }

export interface HistoryModel {
  target: string;
  runs: HistoryRun[];
  rules: HistoryRule[];
  catalog: CatalogChange[];
  figures: FigureSeries[];
  thresholds: { scenario: string; ok: (boolean | null)[] }[];
  /** Undefined when no report of the window has a cost section. */
  cost?: FigureSeries[];
}

/** One saved report and the name of its file. */
export interface SavedReport { file: string; report: ConformanceReport }

const mustCount = (r: ConformanceReport, verdict: string): number => r.rules.filter((x) => x.level === 'MUST' && x.verdict === verdict).length;

function runOf({ file, report }: SavedReport): HistoryRun {
  return {
    ...trailRunOf(report), file, schemaVersion: report.schemaVersion, result: resultLabel(report), conformant: report.summary.conformant,
    complete: report.run.complete, mustFailed: mustCount(report, 'fail'), mustBlocked: mustCount(report, 'blocked'), faults: report.target.faults.map((f) => f.id),
  };
}

function catalogChanges(reports: readonly ConformanceReport[]): CatalogChange[] {
  const out: CatalogChange[] = [];
  for (let i = 1; i < reports.length; i++) {
    const before = new Set(reports[i - 1]!.rules.map((r) => r.id));
    const after = new Set(reports[i]!.rules.map((r) => r.id));
    const added = [...after].filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !after.has(id));
    if (added.length || removed.length) out.push({ index: i, from: reports[i - 1]!.suite.version, to: reports[i]!.suite.version, added, removed });
  }
  return out;
}

/** The rules of every report, newest catalog order first, then rules only older reports had. */
function rulesOf(reports: readonly ConformanceReport[]): RuleResult[] {
  const byId = new Map<string, RuleResult>();
  for (const r of [...reports].reverse()) for (const rule of r.rules) if (!byId.has(rule.id)) byId.set(rule.id, rule);
  return [...byId.values()];
}

/** The history of one target from its reports (same target, sorted oldest first by the caller). */
export function buildHistory(saved: readonly SavedReport[]): HistoryModel {
  const reports = saved.map((s) => s.report);
  const runs = saved.map(runOf);
  const lookups = reports.map(verdictIn);
  const rules = rulesOf(reports).map((rule): HistoryRule => {
    const verdicts = lookups.map((v) => v(rule.id));
    const changes = changeIndexes(verdicts, runs);
    return { id: rule.id, level: rule.level, statement: rule.statement, verdicts, changes, unstable: isUnstable(changes, runs.length) };
  });
  const cost = costFigures(reports);
  return {
    target: targetNameOf(reports[reports.length - 1]!), runs, rules, catalog: catalogChanges(reports),
    figures: loadFigures(reports), thresholds: thresholdStrips(reports), ...(cost ? { cost } : {}),
  };
}
