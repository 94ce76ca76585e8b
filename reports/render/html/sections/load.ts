import type { ConformanceReport, LoadScenarioResult } from '../../../model.js';
import { barChart } from '../../svg/bars.js';
import { lineChart } from '../../svg/line.js';
import { html, type Html } from '../escape.js';

const LATENCY = ['p50', 'p90', 'p95', 'p99', 'max'] as const;
const SERIES_LABEL: Record<string, [string, string]> = { ratelimitRemaining: ['RateLimit remaining over time', 'remaining requests (r)'] };
const num = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(2));

function scenario(sc: LoadScenarioResult): Html {
  const s = sc.summary;
  const latency = s.metrics.http_req_duration;
  const stats = latency ? LATENCY.filter((k) => typeof latency[k] === 'number').map((k) => [k, latency[k] as number] as [string, number]) : [];
  const otherMetrics = Object.entries(s.metrics).filter(([name]) => name !== 'http_req_duration');
  return html`<div class="scenario" id="load-${s.scenario}">
<h3>${s.scenario} <span class="v v-${sc.ok ? 'pass' : 'fail'}">${sc.ok ? 'thresholds met' : 'thresholds not met'}</span></h3>
${s.description ? html`<p>${s.description}</p>` : ''}
<p class="small muted">${sc.file} · written ${sc.writtenAt}${s.rules?.length ? ` · rules: ${s.rules.join(', ')}` : ''}</p>
<table class="thresholds"><thead><tr><th>Threshold</th><th>Result</th></tr></thead><tbody>
${Object.entries(s.thresholds).map(([name, t]) => html`<tr><td><code>${name}</code></td><td><span class="v v-${t.ok ? 'pass' : 'fail'}">${t.ok ? 'ok' : 'FAILED'}</span></td></tr>`)}
</tbody></table>
${s.checks.length ? html`<table class="checks"><thead><tr><th>Check</th><th class="num">passes</th><th class="num">fails</th></tr></thead><tbody>
${s.checks.map((c) => html`<tr><td>${c.name}</td><td class="num">${String(c.passes)}</td><td class="num${c.fails ? '' : ' muted'}">${String(c.fails)}</td></tr>`)}</tbody></table>` : ''}
<div class="charts">
${stats.length ? barChart('Latency percentiles (http_req_duration)', stats) : ''}
${Object.entries(s.series ?? {}).map(([name, points]) => lineChart(SERIES_LABEL[name]?.[0] ?? name, points, SERIES_LABEL[name]?.[1] ?? name))}
</div>
${otherMetrics.length ? html`<details><summary>Other metrics</summary><table class="metrics"><thead><tr><th>Metric</th><th>Values</th></tr></thead><tbody>
${otherMetrics.map(([name, m]) => html`<tr><td><code>${name}</code></td><td class="mono small">${Object.entries(m).map(([k, v]) => `${k}=${num(v)}`).join('  ')}</td></tr>`)}</tbody></table></details>` : ''}
</div>`;
}

/** Load results: per scenario its thresholds, checks and charts (latency, RateLimit remaining). */
export function loadSection(report: ConformanceReport): Html {
  const load = report.load;
  if (!load) return html`<section id="load"><h2>Load results</h2><p class="muted">No load summaries were found for this run (the load scenarios write them to <code>reports/out/load/</code>).</p></section>`;
  return html`<section id="load"><h2>Load results</h2>
<p class="small muted">From <code>${load.dir}</code>.</p>
${load.scenarios.map(scenario)}
${load.errors.length ? html`<h3>Unreadable summaries</h3><ul>${load.errors.map((e) => html`<li><code>${e.file}</code>: ${e.message}</li>`)}</ul>` : ''}
</section>`;
}
