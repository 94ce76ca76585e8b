import { relative, isAbsolute } from 'node:path';
import type { ConformanceReport } from '../../reports/model.js';
import { applyBaseline, readBaseline, updatedBaseline, writeBaseline } from '../../reports/baseline.js';
import { writeReports } from '../../reports/write.js';
import { validateReport } from '../../reports/validate.js';
import { textSummary } from '../../reports/summary.js';

export interface BaselineOptions { path: string; update: boolean }

export interface Published { report: ConformanceReport; files: string[] }

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/**
 * The last steps of every command that produces a report: compare with (or rewrite) the
 * baseline, check the model against its schema, write every format and print the summary.
 */
export function publish(report: ConformanceReport, outDir: string, baseline?: BaselineOptions): Published {
  let final = report;
  if (baseline) {
    const old = readBaseline(baseline.path, { allowMissing: baseline.update });
    if (baseline.update && report.run.complete) {
      const next = updatedBaseline(report, old);
      writeBaseline(baseline.path, next);
      final = applyBaseline(report, next, shown(baseline.path), true);
      process.stdout.write(`Baseline rewritten: ${shown(baseline.path)} (${Object.keys(next.rules).length} known difference(s))\n`);
    } else {
      if (baseline.update) process.stderr.write('cpc: the run is incomplete; the baseline was NOT rewritten from it\n');
      final = applyBaseline(report, old, shown(baseline.path));
    }
  }
  const check = validateReport(final);
  if (!check.valid) process.stderr.write(`cpc: warning: the report does not match reports/report.schema.json:\n  ${check.issues.slice(0, 10).join('\n  ')}\n`);
  const files = writeReports(final, outDir);
  process.stdout.write('\n' + textSummary(final) + '\n' + `Reports: ${files.map(shown).join(', ')}\n`);
  return { report: final, files };
}

/**
 * 130 when a signal interrupted the run; with a baseline, 0 only when nothing changed (or
 * the file was rewritten on purpose) and the run completed; otherwise 0 only when conformant.
 */
export function exitCodeOf(report: ConformanceReport, interruptedBySignal: boolean): number {
  if (interruptedBySignal) return 130;
  const b = report.baseline;
  if (b) return report.run.complete && (b.updated || b.matched) ? 0 : 1;
  return report.summary.conformant ? 0 : 1;
}
