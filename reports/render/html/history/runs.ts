import type { HistoryModel } from '../../../history/model.js';
import { html, join, type Html } from '../escape.js';
import { runLabels } from './labels.js';

/** Every run of the window: when, which suite version and seed, its result, its report file. */
export function runsSection(model: HistoryModel): Html {
  const labels = runLabels(model.runs);
  return html`<section id="runs"><h2>Runs (${String(model.runs.length)})</h2>
<table class="runs"><thead><tr><th>Run</th><th>Started (UTC)</th><th>Suite</th><th>Seed</th><th>Result</th><th class="num">MUST fail</th><th class="num">MUST blocked</th><th>Report</th></tr></thead><tbody>
${[...model.runs].reverse().map((r) => {
    const i = model.runs.indexOf(r);
    return html`<tr class="run${r.conformant ? '' : ' bad'}"><td>${labels[i]}</td><td class="mono small">${r.startedAt}</td><td>${r.suiteVersion}</td><td><code>${r.seed === undefined ? '–' : String(r.seed)}</code></td>
<td><span class="v v-${r.conformant ? 'pass' : 'fail'}">${r.result}</span>${r.complete ? '' : html` <span class="small muted">incomplete</span>`}${r.faults.length ? html`<div class="small muted">faults: ${r.faults.join(', ')}</div>` : ''}</td>
<td class="num">${String(r.mustFailed)}</td><td class="num">${String(r.mustBlocked)}</td><td class="small mono">${r.file}</td></tr>`;
  })}
</tbody></table></section>`;
}

/** Rules a suite version added or removed: not a change of the target, a change of the suite. */
export function catalogSection(model: HistoryModel): Html {
  const labels = runLabels(model.runs);
  const versions = [...new Set(model.runs.map((r) => r.suiteVersion))];
  return html`<section id="versions"><h2>Suite versions</h2>
<p>${versions.length === 1 ? html`Every run used suite <strong>${versions[0]}</strong>.` : html`Suite versions in this window: ${join(versions.map((v, i) => html`${i ? ' → ' : ''}<strong>${v}</strong>`))}.`}</p>
${model.catalog.map((c) => html`<div class="catalog-change"><p>From the run of ${labels[c.index]} (suite ${c.from} → ${c.to}):</p>
${c.added.length ? html`<p><strong>${String(c.added.length)} rule(s) added:</strong> ${join(c.added.map((id, i) => html`${i ? ', ' : ''}<code class="added">${id}</code>`))}</p>` : ''}
${c.removed.length ? html`<p><strong>${String(c.removed.length)} rule(s) removed:</strong> ${join(c.removed.map((id, i) => html`${i ? ', ' : ''}<code class="removed">${id}</code>`))}</p>` : ''}</div>`)}
</section>`;
}
