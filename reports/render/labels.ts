/** Words and symbols every renderer shares, so the formats tell the same story. */
import type { ConformanceReport, TestOutcome, Verdict } from '../model.js';
import { coverageOf, coverageText } from '../coverage.js';

export const VERDICT_ICON: Record<Verdict, string> = { pass: '✅', fail: '❌', blocked: '⛔', skip: '⏭️', observed: '👁️', untested: '⚪' };

/** The target in one line: its URL (never a key) or the embedded emulator with its faults. */
export function targetLabel(report: ConformanceReport): string {
  const t = report.target;
  const faults = (t.faults.length ? `, faults: ${t.faults.map((f) => f.id).join(', ')}` : '')
    + (t.variants?.length ? `, variants: ${t.variants.join(', ')}` : '')
    + (t.chaos ? `, legal chaos seed ${t.chaos.seed}${t.chaos.realTime ? ' (real time)' : ''}` : '');
  if (t.kind === 'embedded') return `embedded emulator${t.baseUrl ? ` at ${t.baseUrl}` : ''}${faults}`;
  return `${t.baseUrl ?? 'remote target'}${t.emulator ? ' (an emulator)' : ''}${faults}`;
}

/** The headline: what a reader needs before anything else. */
export function resultLabel(report: ConformanceReport): string {
  const b = report.baseline;
  const base = report.summary.conformant ? 'CONFORMANT' : 'NOT CONFORMANT';
  const run = report.run.complete ? '' : ' (INCOMPLETE RUN)';
  if (!b) return base + run;
  return `${b.matched ? 'MATCHES BASELINE' : `BASELINE CHANGED (${b.changes.length})`} · ${base}${run}`;
}

/**
 * The verdict with what it covers, the sentence every format states: "CONFORMANT on 194 of 282
 * MUST rules; 88 not decided (37 need a worker endpoint (CPC_ENDPOINT_ID), …)".
 */
export const verdictSentence = (report: ConformanceReport): string => `${resultLabel(report)} ${coverageText(coverageOf(report))}`;

export const firstLine = (s: string): string => s.split('\n').find((l) => l.trim())?.trim() ?? '';

/** The line of a failure message about this rule (checks write `[RULE.ID] message`), else its first line. */
export const failureLine = (message: string, ruleId: string): string =>
  message.split('\n').find((l) => l.includes(`[${ruleId}]`))?.trim() ?? firstLine(message);

export const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The tests of a report by id. */
export const testIndex = (report: ConformanceReport): Map<string, TestOutcome> => new Map(report.tests.map((t) => [t.id, t]));

/** Property runs, failing ones first. */
export const propertyRuns = (report: ConformanceReport): TestOutcome[] =>
  report.tests.filter((t) => t.property).sort((a, b) => Number(b.status === 'failed') - Number(a.status === 'failed'));

/** Why only part of the suite ran (a `--grep` or a single project), or undefined for a full run. */
export function partialRun(report: ConformanceReport): string | undefined {
  const c = report.run.configuration;
  const parts: string[] = [];
  if (typeof c.grep === 'string') parts.push(`only tests matching --grep ${c.grep}`);
  if (typeof c.projects === 'string' && c.projects !== 'contract,property') parts.push(`only the ${c.projects} project`);
  return parts.length ? parts.join(' and ') : undefined;
}
