import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';

/** The detection matrix: the faults the suite was shown to catch, each by the rule it breaks. */
export function detectionSection(report: ConformanceReport): Html {
  const d = report.detection;
  if (!d) return report.blastRadius ? html`<section id="detection"><h2>Detection</h2>${blastSection(report)}</section>` : html``;
  const missed = d.rows.filter((r) => r.detection !== 'detected');
  return html`<section id="detection"><h2>Detection matrix (${String(d.detected)}/${String(d.faults)} faults detected)</h2>
<p class="small muted">Each emulator fault breaks exactly one MUST rule; with it switched on, the tests of that rule must fail on it. ${missed.length === 0 ? 'Every fault was detected by the rule it breaks.' : `${missed.length} fault(s) not detected by their rule.`}</p>
<table><thead><tr><th>Fault</th><th>Rule it breaks</th><th>Result</th><th>Tests</th><th>Failed on</th></tr></thead><tbody>
${d.rows.map((r) => html`<tr class="${r.detection === 'detected' ? 'v-pass' : 'v-fail'}"><td><code>${r.fault}</code><div class="small muted">${r.description}</div></td><td><code>${r.rule}</code></td><td>${r.detection}</td><td>${String(r.failedTests)}/${String(r.tests)}</td><td class="small">${r.failedRules.join(', ')}</td></tr>`)}
</tbody></table>${blastSection(report)}</section>`;
}

/** `cpc detect --full`: how many MUST rules the whole suite failed with each fault on. */
function blastSection(report: ConformanceReport): Html {
  const b = report.blastRadius;
  if (!b) return html``;
  return html`<div id="blast-radius"><h3>Blast radius: the whole suite, one fault at a time</h3>
<p class="small">${String(b.faults)} faults in ${String(Math.round(b.durationMs / 1000))} s. Failed MUST rules per fault: median <strong>${String(b.median)}</strong>, max <strong>${String(b.max)}</strong> (limit ${String(b.limit)}); ${String(b.missingOwnRule)} fault(s) without their own rule among them, ${String(b.overLimit)} over the limit.</p>
<table><thead><tr><th>Fault</th><th>Its rule</th><th>Failed MUST rules</th><th>Failed / blocked tests</th></tr></thead><tbody>
${b.rows.map((r) => html`<tr class="${r.ownRule && r.failedMust.length <= b.limit ? 'v-pass' : 'v-fail'}"><td><code>${r.fault}</code></td><td><code>${r.rule}</code>${r.ownRule ? '' : html` <strong>missing</strong>`}</td><td class="small">${String(r.failedMust.length)}: ${r.failedMust.join(', ')}</td><td class="num">${String(r.failedTests)} / ${String(r.blockedTests)}</td></tr>`)}
</tbody></table></div>`;
}
