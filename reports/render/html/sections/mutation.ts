import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';

/** Mutation testing of the emulator: the score and every survivor, equivalent (with why) or unresolved. */
export function mutationSection(report: ConformanceReport): Html {
  const m = report.mutation;
  if (!m) return html``;
  const rows = [
    ...m.unresolved.map((s) => ({ ...s, kind: 'unresolved', why: 'no test kills it and it is not listed as equivalent' })),
    ...m.equivalent.map((s) => ({ ...s, kind: 'equivalent', why: s.reason })),
  ];
  return html`<section id="mutation"><h2>Mutation testing (score ${m.score.toFixed(2)}%)</h2>
<p class="small muted">StrykerJS over the emulator's validation and state-machine code, with the contract and property suites as tests (<code>npm run mutation</code>, ${m.generatedAt}, <code>${m.file}</code>).
${String(m.total)} mutants: ${String(m.killed)} killed, ${String(m.timeout)} timed out, ${String(m.survived)} survived, ${String(m.noCoverage)} without coverage; ${String(m.ignored)} ignored by configuration.
${String(m.equivalent.length)} survivor(s) listed as equivalent (score without them ${m.scoreExcludingEquivalent.toFixed(2)}%), ${String(m.unresolved.length)} unresolved.</p>
${rows.length ? html`<table><thead><tr><th>Mutant</th><th>Where</th><th>Mutator</th><th>Replacement</th><th>Status</th><th>Why it survives</th></tr></thead><tbody>
${rows.map((r) => html`<tr class="${r.kind === 'equivalent' ? 'v-observed' : 'v-fail'}"><td>${r.id}</td><td><code>${r.file}:${String(r.line)}</code></td><td>${r.mutator}</td><td><code>${r.replacement ?? ''}</code></td><td>${r.kind}</td><td class="small">${r.why}</td></tr>`)}
</tbody></table>` : html``}</section>`;
}
