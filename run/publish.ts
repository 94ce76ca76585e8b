import { relative, isAbsolute } from 'node:path';
import type { ConformanceReport } from '../reports/model.js';
import { applyBaseline, readBaseline, updatedBaseline, writeBaseline } from '../reports/baseline.js';
import { writeReports } from '../reports/write.js';
import { validateReport } from '../reports/validate.js';
import { textSummary } from '../reports/summary.js';
import { withCostFiles } from '../reports/cost.js';
import { allMustBreach } from '../reports/coverage.js';
import { ConfigError } from '../lib/errors.js';

export interface BaselineOptions { path: string; update: boolean }

export interface Published { report: ConformanceReport; files: string[] }

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/**
 * The last steps of every command that produces a report: add what a deployment run left
 * beside it (the cost section's files, reports/cost.ts), compare with (or rewrite) the
 * baseline, check the model against its schema, write every format and print the summary.
 */
export function publish(report: ConformanceReport, outDir: string, baseline?: BaselineOptions): Published {
  let final = withCostFiles(report, outDir);
  if (baseline) {
    const old = readBaseline(baseline.path, { allowMissing: baseline.update });
    if (baseline.update && final.run.complete) {
      const next = updatedBaseline(final, old);
      writeBaseline(baseline.path, next);
      final = applyBaseline(final, next, shown(baseline.path), true);
      process.stdout.write(`Baseline rewritten: ${shown(baseline.path)} (${Object.keys(next.rules).length} known difference(s))\n`);
    } else {
      if (baseline.update) process.stderr.write('cpc: the run is incomplete; the baseline was NOT rewritten from it\n');
      final = applyBaseline(final, old, shown(baseline.path));
    }
  }
  const check = validateReport(final);
  if (!check.valid) process.stderr.write(`cpc: warning: the report does not match reports/report.schema.json:\n  ${check.issues.slice(0, 10).join('\n  ')}\n`);
  const files = writeReports(final, outDir);
  process.stdout.write('\n' + textSummary(final) + '\n' + `Reports: ${files.map(shown).join(', ')}\n`);
  return { report: final, files };
}

/**
 * A strict gate on what a run could not decide (`--fail-on-blocked`): `all` fails on any
 * blocked MUST rule, a count N on more than N of them, a comma list of rule ids on any of those
 * blocked. A blocked rule is not a pass, but the target did not break it either: without the
 * gate a run with blocked rules and no failure stays conformant.
 */
export type BlockedGate = { kind: 'all' } | { kind: 'count'; max: number } | { kind: 'rules'; ids: string[] };

export function parseBlockedGate(value: string): BlockedGate {
  const v = value.trim();
  if (v === 'all') return { kind: 'all' };
  if (/^\d+$/.test(v)) return { kind: 'count', max: Number(v) };
  const ids = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => /^[A-Z0-9_]+(\.[A-Z0-9_]+)+$/.test(id))) {
    throw new ConfigError(`--fail-on-blocked is "all", a count, or a comma list of rule ids, got "${value}"`, '--fail-on-blocked');
  }
  return { kind: 'rules', ids };
}

/** Why the gate fails the run (the blocked MUST rules it counts), or undefined when it holds. */
export function blockedGateBreach(report: ConformanceReport, gate: BlockedGate): string | undefined {
  const blocked = report.rules.filter((r) => r.level === 'MUST' && r.verdict === 'blocked').map((r) => r.id);
  const hit = gate.kind === 'rules' ? blocked.filter((id) => gate.ids.includes(id)) : blocked;
  const breached = gate.kind === 'count' ? hit.length > gate.max : hit.length > 0;
  if (!breached) return undefined;
  const limit = gate.kind === 'count' ? `more than ${gate.max}` : gate.kind === 'all' ? 'any' : 'a listed rule';
  return `--fail-on-blocked (${limit}): ${hit.length} MUST rule(s) blocked: ${hit.slice(0, 10).join(', ')}${hit.length > 10 ? ', …' : ''}`;
}

/**
 * 130 when a signal interrupted the run; 1 when the certification gate (`requireAllMust`) finds a
 * MUST rule undecided; with a baseline, 0 only when nothing changed (or the file was rewritten on
 * purpose) and the run completed; otherwise 0 only when conformant and the blocked gate, when
 * given, holds.
 */
export function exitCodeOfReport(report: ConformanceReport, interruptedBySignal: boolean, gate?: BlockedGate, requireAllMust = false): number {
  if (interruptedBySignal) return 130;
  const undecided = requireAllMust ? allMustBreach(report) : undefined;
  if (undecided) {
    process.stdout.write(`Result: FAILED by ${undecided}\n`);
    return 1;
  }
  const b = report.baseline;
  if (b) return report.run.complete && (b.updated || b.matched) ? 0 : 1;
  if (!report.summary.conformant) return 1;
  const breach = gate ? blockedGateBreach(report, gate) : undefined;
  if (breach) process.stdout.write(`Result: FAILED by ${breach}\n`);
  return breach ? 1 : 0;
}
