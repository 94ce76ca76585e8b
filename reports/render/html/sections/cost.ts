import type { ConformanceReport } from '../../../model.js';
import { html, type Html } from '../escape.js';
import { KIND_LABEL, costTotals, int, kindRows, minuteRows, minutes, notMeasured, surfaceRows, usd, waited, workerTimeFacts } from '../../cost-text.js';

/**
 * The cost section: the totals in one line (the report is read every morning), then small
 * tables side by side: planned against created by kind, requests by surface, pod-minutes by
 * type, the heaviest tests, and what could not be deleted, which a reader must act on.
 */
export function costSection(report: ConformanceReport): Html {
  const c = report.cost;
  if (!c) return html``;
  const kinds = kindRows(c);
  const mins = minuteRows(c);
  const surfaces = surfaceRows(c);
  const shapes = Object.entries(c.created.byShape ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const left = c.leftovers?.items ?? [];
  const missing = notMeasured(c);
  return html`<section id="cost"><h2>Cost</h2>
<p class="cost-line"><strong>${costTotals(c)}</strong></p>
${missing.length ? html`<p class="small muted">Not measured on this target: ${missing.join(', ')}; an emulator run writes none of these files, a deployment run writes them beside the report.</p>` : ''}
${left.length ? html`<div class="banner bad"><strong>${String(left.length)} resource(s) could not be deleted</strong>: delete them by hand.
<table><thead><tr><th>Kind</th><th>Id</th><th>Name</th><th>Reason</th><th>Created by</th></tr></thead><tbody>
${left.map((l) => html`<tr><td>${l.kind}</td><td><code>${l.id ?? ''}</code></td><td>${l.name ?? ''}</td><td>${l.reason}</td><td class="small">${l.test}</td></tr>`)}
</tbody></table></div>` : ''}
<div class="cost-tables">
${kinds.length ? html`<table id="cost-kinds"><thead><tr><th>Kind</th>${c.created.planned ? html`<th class="num">planned</th>` : ''}${c.created.run ? html`<th class="num">created</th>` : ''}<th class="num">${c.created.run ? 'by the tests' : 'created by the tests'}</th></tr></thead><tbody>
${kinds.map((k) => html`<tr><th>${KIND_LABEL[k.kind]}</th>${c.created.planned ? html`<td class="num">${String(k.planned ?? 0)}</td>` : ''}${c.created.run ? html`<td class="num">${String(k.run ?? 0)}</td>` : ''}<td class="num">${String(k.tests)}</td></tr>`)}
</tbody></table>` : html`<p class="muted">Nothing created.</p>`}
${surfaces.length ? html`<table id="cost-surfaces"><thead><tr><th>Surface</th><th class="num">requests</th></tr></thead><tbody>
${surfaces.map(([s, n]) => html`<tr><th>${s}</th><td class="num">${int(n)}</td></tr>`)}
<tr><th>total (tests)</th><td class="num">${int(c.requests.total)}</td></tr>
${c.requests.run !== undefined ? html`<tr><th>whole run</th><td class="num">${int(c.requests.run)}</td></tr>` : ''}
</tbody></table>` : ''}
${mins.length ? html`<table id="cost-minutes"><thead><tr><th>Pod type</th><th class="num">pod-minutes</th></tr></thead><tbody>
${mins.map((m) => html`<tr><th>${m.kind} ${m.type}</th><td class="num">${minutes(m.minutes)}</td></tr>`)}
</tbody></table>` : ''}
${shapes.length ? html`<table id="cost-shapes"><thead><tr><th>Shape</th><th class="num">created</th></tr></thead><tbody>
${shapes.map(([s, n]) => html`<tr><th>${s}</th><td class="num">${int(n)}</td></tr>`)}
</tbody></table>` : ''}
</div>
${c.plan || c.rateLimit || c.workerTime || c.estimatedCostUsd !== undefined || c.unpriced ? html`<dl class="facts">
${c.estimatedCostUsd !== undefined ? html`<dt>Estimated cost</dt><dd>${usd(c.estimatedCostUsd)} from pod-minutes and catalog prices${c.unpriced ? `; ${int(c.unpriced)} pod(s) without a price are not in it` : ''}</dd>` : c.unpriced ? html`<dt>Estimated cost</dt><dd>none: ${int(c.unpriced)} pod(s) without a catalog price</dd>` : ''}
${workerTimeFacts(c).map((f) => html`<dt>${f.label}</dt><dd>${f.text}</dd>`)}
${c.plan ? html`<dt>Plan</dt><dd>${int(c.plan.requests)} requests${c.plan.estimatedCostUsd !== undefined ? `, at most ${usd(c.plan.estimatedCostUsd)}` : ''}${c.plan.pools.length ? `; pools: ${c.plan.pools.join(', ')}` : ''}</dd>` : ''}
${c.rateLimit ? html`<dt>Rate limit</dt><dd>${waited(c.rateLimit.waitedMs)} waited by ${int(c.rateLimit.tests)} test(s); ${int(c.rateLimit.retried)} 429 answer(s) waited out, ${int(c.rateLimit.gaveUp)} given back when the budget ran out</dd>` : ''}
</dl>` : ''}
${c.requests.top.length ? html`<details><summary>Top ${String(c.requests.top.length)} tests by requests</summary><table id="cost-top"><thead><tr><th>Test</th><th class="num">requests</th><th>by surface</th></tr></thead><tbody>
${c.requests.top.map((t) => html`<tr><td>${t.title}</td><td class="num">${int(t.total)}</td><td class="small mono">${Object.entries(t.bySurface).map(([s, n]) => `${s} ${n}`).join(', ')}</td></tr>`)}
</tbody></table></details>` : ''}
</section>`;
}
