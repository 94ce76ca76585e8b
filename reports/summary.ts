import type { ConformanceReport, Counts } from './model.js';

const row = (name: string, c: Counts): string =>
  `  ${name.padEnd(12)} ${String(c.total).padStart(5)} ${String(c.pass).padStart(6)} ${String(c.fail).padStart(6)} ${String(c.observed).padStart(9)} ${String(c.skip).padStart(6)} ${String(c.untested).padStart(9)}`;

/** The terminal summary: rules by surface and level, then failing MUST rules. */
export function textSummary(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(`Conformance of ${report.target.baseUrl ?? 'the target'} (${report.target.kind === 'embedded' ? 'embedded emulator' : 'remote'}${report.target.faults.length ? `, faults: ${report.target.faults.join(', ')}` : ''})${report.run.complete ? '' : ' — INCOMPLETE: ' + (report.run.interruption ?? 'interrupted')}`);
  lines.push(`  ${'surface'.padEnd(12)} ${'rules'.padStart(5)} ${'pass'.padStart(6)} ${'fail'.padStart(6)} ${'observed'.padStart(9)} ${'skip'.padStart(6)} ${'untested'.padStart(9)}`);
  for (const [surface, counts] of Object.entries(report.summary.bySurface)) lines.push(row(surface, counts));
  for (const [level, counts] of Object.entries(report.summary.byLevel)) lines.push(row(level, counts));
  lines.push(row('all', report.summary.rules));
  const failing = report.rules.filter((r) => r.verdict === 'fail');
  if (failing.length) {
    lines.push('', 'Failing rules:');
    for (const r of failing) lines.push(`  ✗ ${r.id} [${r.level}] ${r.statement}`);
  }
  const t = report.summary.tests;
  lines.push('', `tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.interrupted ? `, ${t.interrupted} interrupted` : ''}`);
  lines.push(report.summary.conformant ? 'Result: CONFORMANT (every MUST rule that ran passed)' : 'Result: NOT CONFORMANT');
  return lines.join('\n');
}
