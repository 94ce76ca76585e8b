import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';

/** The detection matrix: the faults the suite was shown to catch, each by the rule it breaks. */
export function detectionSection(report: ConformanceReport): Html {
  const d = report.detection;
  if (!d) return html``;
  const missed = d.rows.filter((r) => r.detection !== 'detected');
  return html`<section id="detection"><h2>Detection matrix (${String(d.detected)}/${String(d.faults)} faults detected)</h2>
<p class="small muted">Each emulator fault breaks exactly one MUST rule; with it switched on, the tests of that rule must fail on it. ${missed.length === 0 ? 'Every fault was detected by the rule it breaks.' : `${missed.length} fault(s) not detected by their rule.`}</p>
<table><thead><tr><th>Fault</th><th>Rule it breaks</th><th>Result</th><th>Tests</th><th>Failed on</th></tr></thead><tbody>
${d.rows.map((r) => html`<tr class="${r.detection === 'detected' ? 'v-pass' : 'v-fail'}"><td><code>${r.fault}</code><div class="small muted">${r.description}</div></td><td><code>${r.rule}</code></td><td>${r.detection}</td><td>${String(r.failedTests)}/${String(r.tests)}</td><td class="small">${r.failedRules.join(', ')}</td></tr>`)}
</tbody></table></section>`;
}
