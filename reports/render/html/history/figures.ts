import type { HistoryModel } from '../../../history/model.js';
import type { FigureSeries } from '../../../history/figures.js';
import { trendChart } from '../../svg/trend.js';
import { html, type Html } from '../escape.js';
import { runLabels, runTitle } from './labels.js';
import { stripClass } from './rules.js';

function charts(model: HistoryModel, figures: readonly FigureSeries[]): Html {
  const labels = runLabels(model.runs);
  const groups = [...new Set(figures.map((f) => f.group))];
  return html`${groups.map((g) => html`<h3>${g}</h3><div class="charts">${figures.filter((f) => f.group === g).map((f) => trendChart(f.label, labels, f.values, f.unit))}</div>`)}`;
}

/** The load scenarios' key figures and whether each met its thresholds, run by run. */
export function loadHistorySection(model: HistoryModel): Html {
  if (model.thresholds.length === 0) return html`<section id="load"><h2>Load</h2><p class="muted">No report of this window has load results.</p></section>`;
  return html`<section id="load"><h2>Load</h2>
<table class="history"><colgroup><col class="c-rule"><col class="c-strip"></colgroup><thead><tr><th>Scenario</th><th>Thresholds met, per run</th></tr></thead><tbody>
${model.thresholds.map((t) => html`<tr><td><code>${t.scenario}</code></td><td><div class="${stripClass(model)}">${t.ok.map((ok, i) => html`<span class="c v-${ok === null ? 'absent' : ok ? 'pass' : 'fail'}" title="${runTitle(model.runs[i]!)}: ${ok === null ? 'not run' : ok ? 'thresholds met' : 'thresholds NOT met'}"></span>`)}</div></td></tr>`)}
</tbody></table>
${charts(model, model.figures)}
</section>`;
}

/** The cost section's figures over time, or a note that no report has one. */
export function costHistorySection(model: HistoryModel): Html {
  return html`<section id="cost"><h2>Cost</h2>
${model.cost?.length ? charts(model, model.cost) : html`<p class="muted">No report of this window has a cost section.</p>`}
</section>`;
}
