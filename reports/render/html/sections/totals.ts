import type { ConformanceReport, Counts, Verdict } from '../../../model.js';
import { html, type Html } from '../escape.js';

const COLUMNS: Verdict[] = ['pass', 'fail', 'blocked', 'observed', 'skip', 'untested'];

function cell(n: number, filter: Record<string, string>): Html {
  return n === 0 ? html`<td class="num muted">0</td>` : html`<td class="num"><a href="#matrix" data-filter="${JSON.stringify(filter)}">${String(n)}</a></td>`;
}

function table(title: string, key: 'surface' | 'level', rows: Record<string, Counts>, all: Counts): Html {
  const entries = Object.entries(rows).filter(([, c]) => c.total > 0);
  return html`<table class="totals" id="totals-${key}"><thead><tr><th>${title}</th><th class="num">rules</th>${COLUMNS.map((v) => html`<th class="num"><span class="v v-${v}">${v}</span></th>`)}</tr></thead><tbody>
${entries.map(([name, c]) => html`<tr><th>${name}</th>${cell(c.total, { [key]: name })}${COLUMNS.map((v) => cell(c[v], { [key]: name, verdict: v }))}</tr>`)}
<tr><th>total</th>${cell(all.total, {})}${COLUMNS.map((v) => cell(all[v], { verdict: v }))}</tr></tbody></table>`;
}

/** Totals per surface and per level; each count filters the rule matrix when clicked. */
export function totalsSection(report: ConformanceReport): Html {
  const t = report.summary.tests;
  return html`<section id="totals"><h2>Totals</h2>
${table('Surface', 'surface', report.summary.bySurface, report.summary.rules)}
${table('Level', 'level', report.summary.byLevel, report.summary.rules)}
<p>Tests: <strong>${String(t.total)}</strong> · ${String(t.passed)} passed · ${String(t.failed)} failed · ${String(t.skipped)} skipped${t.interrupted ? ` · ${t.interrupted} interrupted` : ''}${t.notRun ? ` · ${t.notRun} never started` : ''}</p>
</section>`;
}
