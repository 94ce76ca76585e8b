import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';

/** The baseline status: the file, and every rule whose verdict differs from it. */
export function baselineSection(report: ConformanceReport): Html {
  const b = report.baseline;
  if (!b) return html``;
  return html`<section id="baseline"><h2>Baseline of known differences</h2>
<p><code>${b.file}</code>: ${String(b.entries)} listed rule(s); ${b.matched ? 'every rule has the expected verdict.' : `${b.changes.length} change(s).`}${b.updated ? ' Rewritten from this run.' : ''}</p>
${b.changes.length ? html`<table class="baseline"><thead><tr><th>Rule</th><th>Change</th><th>Expected</th><th>Now</th><th>Note</th></tr></thead><tbody>
${b.changes.map((c) => html`<tr><td><a href="#rule-${c.rule}"><code>${c.rule}</code></a></td><td class="b-changed">${c.kind}</td><td>${c.expected}</td><td>${c.actual}</td><td class="small">${c.note ?? ''}</td></tr>`)}
</tbody></table>` : ''}
</section>`;
}
