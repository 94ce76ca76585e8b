import type { DiffSide, ReportDiff, RuleDiff } from '../diff.js';
import { capped, mdCode, mdTable, mdText } from './md.js';

const sideLine = (s: DiffSide): string =>
  `**${mdText(s.label)}**: ${mdText(s.target)} · ${mdText(s.startedAt)}${s.seed !== undefined ? ` · seed ${mdCode(String(s.seed))}` : ''} · ${s.conformant ? 'conformant' : 'not conformant'}${s.complete ? '' : ' · **incomplete run**'}`;

const cell = (side: RuleDiff['a']): string => (side ? `${side.verdict}${side.observed.length ? ` ${side.observed.slice(0, 3).map((v) => mdCode(v, 120)).join(' ')}` : ''}` : '_absent_');

/** The differential report as Markdown (for a CI job summary or a pull request). */
export function diffMarkdown(diff: ReportDiff): string {
  const lines = [`# Conformance diff: ${diff.identical ? 'identical' : `${diff.rules.length} rule(s) differ`}`, '', `- A: ${sideLine(diff.a)}`, `- B: ${sideLine(diff.b)}`, '', `${diff.compared} rule(s) compared.`];
  if (!diff.a.complete || !diff.b.complete) lines.push('', '> [!WARNING]\n> At least one run is incomplete: rules its tests never reached show as skipped.');
  if (!diff.identical) {
    const { shown, more } = capped(diff.rules, 300);
    lines.push('', mdTable(['Rule', 'Level', 'What differs', `A: ${mdText(diff.a.label)}`, `B: ${mdText(diff.b.label)}`, 'Statement'],
      shown.map((r) => [mdCode(r.id), r.level, [r.verdictChanged ? 'verdict' : '', r.observedChanged ? 'observed' : ''].filter(Boolean).join(' + '), cell(r.a), cell(r.b), mdText(r.statement, 160)])) + more);
  }
  return lines.join('\n') + '\n';
}
