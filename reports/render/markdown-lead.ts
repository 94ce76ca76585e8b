/**
 * The top of summary.md, what a pull request or a chat message shows first: the verdict in
 * one line, what changed since the previous report (new failures, new passes, unstable rules),
 * and how many MUST rules the run could not decide, by cause.
 */
import type { ChangesSection, ConformanceReport, TrailVerdict } from '../model.js';
import { emptyCounts } from '../build.js';
import { newFailures, newPasses } from '../changes.js';
import { UNSTABLE_CHANGES, UNSTABLE_WINDOW } from '../trend.js';
import { VERDICT_ICON, verdictSentence } from './labels.js';
import { blockedGroups } from './blocked.js';
import { capped, mdCode, mdTable, mdText } from './md.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The verdict and the MUST rules behind it. */
export function verdictLine(r: ConformanceReport): string {
  const must = r.summary.byLevel.MUST ?? emptyCounts();
  const parts = [`${must.fail} fail`, `${must.blocked} blocked (not decided)`, `${must.pass} pass`];
  if (must.skip) parts.push(`${must.skip} skipped`);
  if (must.untested) parts.push(`${must.untested} untested`);
  return `**Verdict: ${verdictSentence(r)}.** Of ${plural(must.total, 'MUST rule')}: ${parts.join(', ')}.`;
}

const icon = (v: TrailVerdict): string => (v === 'absent' ? '·' : VERDICT_ICON[v]);

const runLine = (c: ChangesSection): string =>
  `${c.previous.file ? `${mdCode(c.previous.file)}, ` : ''}run of ${mdText(c.previous.startedAt)}, suite ${mdText(c.previous.suiteVersion)}${c.previous.seed !== undefined ? `, seed ${c.previous.seed}` : ''}`;

/** What changed since the previous report, when the run was given one (`--previous`). */
export function sinceSection(r: ConformanceReport): string {
  const c = r.changes;
  if (!c) return '';
  const failures = newFailures(c);
  const passes = newPasses(c);
  const level = new Map(r.rules.map((x) => [x.id, x.level]));
  const change = new Map(c.changed.map((x) => [x.rule, x]));
  const ids = [...new Set([...failures.map((x) => x.rule), ...passes.map((x) => x.rule), ...c.unstable, ...c.changed.map((x) => x.rule)])];
  const rows = ids.map((id) => {
    const x = change.get(id);
    const other = x?.from === 'absent' ? 'rule added' : x?.to === 'absent' ? 'rule removed' : 'changed';
    const kinds = [failures.some((f) => f.rule === id) && '❌ new failure', passes.some((p) => p.rule === id) && '✅ new pass', c.unstable.includes(id) && '🔀 unstable']
      .filter(Boolean).join(' · ') || other;
    const now = x?.to ?? r.rules.find((y) => y.id === id)?.verdict ?? 'absent';
    const trail = (c.trail[id] ?? c.runs.map(() => now)).map(icon).join('');
    return [kinds, mdCode(id), level.get(id) ?? '', x?.from ?? now, now, trail];
  });
  const head = `## Since the previous run\n\nCompared with ${runLine(c)}: **${plural(failures.length, 'new failure')}**, **${plural(passes.length, 'new pass', 'new passes')}**, **${plural(c.unstable.length, 'unstable rule')}** (its verdict changed at least ${UNSTABLE_CHANGES} times within the last ${UNSTABLE_WINDOW} runs); ${plural(c.changed.length, 'rule')} changed verdict.`;
  const partial = [!c.previous.comparable && 'the previous run', !c.runs[c.runs.length - 1]!.comparable && 'this run'].filter(Boolean).join(' and ');
  const note = partial ? `\n\n> [!NOTE]\n> ${partial.charAt(0).toUpperCase()}${partial.slice(1)} did not run the whole suite (incomplete or partial): a rule left out shows as a change here.` : '';
  if (!rows.length) return head + note;
  const { shown, more } = capped(rows, 60);
  return `${head}${note}\n\n${mdTable(['Change', 'Rule', 'Level', 'Before', 'Now', `Last ${c.runs.length} runs`], shown)}${more}`;
}

/** How many MUST rules the run could not decide, and why, grouped by cause. */
export function blockedLead(r: ConformanceReport): string {
  const groups = blockedGroups(r);
  if (!groups.length) return '';
  const total = groups.reduce((n, g) => n + g.rules.length, 0);
  const { shown, more } = capped(groups, 10);
  const list = shown.map((g) => `- **${g.rules.length}** ${mdText(g.cause, 300)}: ${g.rules.slice(0, 6).map((id) => mdCode(id)).join(', ')}${g.rules.length > 6 ? ` and ${g.rules.length - 6} more` : ''}`).join('\n');
  return `**${plural(total, 'MUST rule')} could not be decided (blocked): not a pass.** What stopped them:\n\n${list}${more}`;
}
