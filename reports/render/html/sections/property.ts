import type { ConformanceReport } from '../../../model.js';
import { propertyRuns } from '../../labels.js';
import { html, type Html } from '../escape.js';

/** Property runs: seed, runs, and for a failure the shrunk counterexample and its replay command. */
export function propertySection(report: ConformanceReport): Html {
  const runs = propertyRuns(report);
  if (runs.length === 0) return html``;
  return html`<section id="property"><h2>Property tests</h2>
<table class="property"><thead><tr><th>Property</th><th>Status</th><th class="num">Seed</th><th class="num">Runs</th><th>Counterexample and replay</th></tr></thead><tbody>
${runs.map((t) => {
    const p = t.property!;
    return html`<tr class="prop-${t.status}"><td>${t.title}<div class="small muted">${t.rules.join(', ')}</div></td><td><span class="v v-${t.status === 'failed' ? 'fail' : t.status === 'passed' ? 'pass' : 'skip'}">${t.status}</span></td>
<td class="num"><code>${String(p.seed)}</code></td><td class="num">${String(p.numRuns)}</td>
<td>${p.counterexample !== undefined ? html`<div class="small">counterexample${p.path ? html` (path <code>${p.path}</code>)` : ''}:</div><pre class="counterexample">${p.counterexample}</pre>` : html`<span class="muted">none</span>`}
${p.replay ? html`<div class="small">replay:</div><pre class="replay">${p.replay}</pre>` : ''}</td></tr>`;
  })}
</tbody></table></section>`;
}
