import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';

/** Rules no test verifies: the gaps of the suite, by surface. */
export function untestedSection(report: ConformanceReport): Html {
  const rules = report.rules.filter((r) => r.verdict === 'untested');
  const surfaces = [...new Set(rules.map((r) => r.surface))];
  return html`<section id="untested"><h2>Rules without tests (${String(rules.length)})</h2>
${rules.length === 0 ? html`<p>Every rule of the catalog is verified by at least one test.</p>` : surfaces.map((s) => html`<h3>${s}</h3><ul>${rules.filter((r) => r.surface === s).map((r) => html`<li><code>${r.id}</code> [${r.level}] ${r.statement} <span class="small muted">§ ${r.section}</span></li>`)}</ul>`)}
</section>`;
}
