import type { ConformanceReport } from '../../../model.js';
import { firstLine, seconds } from '../../labels.js';
import { html, type Html } from '../escape.js';

/** Every test of the run, collapsed: status, duration, rules and the reason for a skip. */
export function testsSection(report: ConformanceReport): Html {
  return html`<section id="tests"><h2>Tests (${String(report.tests.length)})</h2>
<details><summary>Show every test</summary>
<table class="tests"><thead><tr><th>Test</th><th>Kind</th><th>Status</th><th class="num">Time</th><th>Rules</th></tr></thead><tbody>
${report.tests.map((t) => html`<tr><td>${t.title}<div class="small muted">${t.file}</div>${t.skipReason ? html`<div class="small muted">${t.skipReason}</div>` : ''}${t.status === 'failed' && t.error ? html`<div class="small">${firstLine(t.error)}</div>` : ''}</td><td>${t.kind}</td><td>${t.status}</td><td class="num">${seconds(t.durationMs)}</td><td class="small">${t.rules.join(', ')}</td></tr>`)}
</tbody></table></details></section>`;
}
