import type { ConformanceReport, Counts } from './model.js';
import { targetLabel, verdictSentence } from './render/labels.js';
import { newFailures, newPasses } from './changes.js';
import { costHeadline } from './render/cost-text.js';

const row = (name: string, c: Counts): string =>
  `  ${name.padEnd(12)} ${String(c.total).padStart(5)} ${String(c.pass).padStart(6)} ${String(c.fail).padStart(6)} ${String(c.blocked).padStart(8)} ${String(c.observed).padStart(9)} ${String(c.skip).padStart(6)} ${String(c.untested).padStart(9)}`;

/** The terminal summary: rules by surface and level, failing rules, baseline changes, the result. */
export function textSummary(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(`Conformance of ${targetLabel(report)}${report.run.complete ? '' : ` — INCOMPLETE: ${report.run.interruption ?? 'interrupted'}`}`);
  lines.push(`  ${'surface'.padEnd(12)} ${'rules'.padStart(5)} ${'pass'.padStart(6)} ${'fail'.padStart(6)} ${'blocked'.padStart(8)} ${'observed'.padStart(9)} ${'skip'.padStart(6)} ${'untested'.padStart(9)}`);
  for (const [surface, counts] of Object.entries(report.summary.bySurface)) if (counts.total) lines.push(row(surface, counts));
  for (const [level, counts] of Object.entries(report.summary.byLevel)) if (counts.total) lines.push(row(level, counts));
  lines.push(row('total', report.summary.rules));
  const failing = report.rules.filter((r) => r.verdict === 'fail');
  if (failing.length) {
    lines.push('', 'Failing rules:');
    for (const r of failing.slice(0, 40)) lines.push(`  ✗ ${r.id} [${r.level}] ${r.statement}${r.baseline?.status === 'as-expected' ? '  (known, baseline)' : ''}`);
    if (failing.length > 40) lines.push(`  … and ${failing.length - 40} more`);
  }
  const blocked = report.rules.filter((r) => r.verdict === 'blocked' && r.level === 'MUST');
  if (blocked.length) {
    lines.push('', 'Blocked MUST rules (not checked: something else broke first):');
    for (const r of blocked.slice(0, 20)) lines.push(`  ⛔ ${r.id}: ${r.blockedReasons?.[0]?.reason ?? 'blocked'}`);
    if (blocked.length > 20) lines.push(`  … and ${blocked.length - 20} more`);
  }
  const c = report.changes;
  if (c) {
    const list = (ids: string[]) => (ids.length ? ` (${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''})` : '');
    const failures = newFailures(c).map((x) => x.rule);
    const passes = newPasses(c).map((x) => x.rule);
    lines.push('', `Since the previous run (${c.previous.file ?? c.previous.startedAt}): ${failures.length} new failure(s)${list(failures)}, ${passes.length} new pass(es)${list(passes)}, ${c.unstable.length} unstable${list(c.unstable)}`);
  }
  const b = report.baseline;
  if (b) {
    lines.push('', `Baseline ${b.file}: ${b.entries} listed rule(s), ${b.matched ? 'no change' : `${b.changes.length} change(s)`}${b.updated ? ' (rewritten from this run)' : ''}`);
    for (const c of b.changes.slice(0, 40)) lines.push(`  ≠ ${c.rule}: ${c.kind} (expected ${c.expected}, now ${c.actual})`);
  }
  const t = report.summary.tests;
  lines.push('', `tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.interrupted ? `, ${t.interrupted} interrupted` : ''}${t.notRun ? `, ${t.notRun} not run` : ''}`);
  if (report.cost) lines.push(`cost: ${costHeadline(report.cost)}`);
  if (report.run.seed !== undefined) lines.push(`seed: ${report.run.seed}${report.run.replay ? ` (replay: ${report.run.replay})` : ''}`);
  lines.push(`Result: ${verdictSentence(report)}`);
  return lines.join('\n');
}
