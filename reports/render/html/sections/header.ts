import type { ConformanceReport } from '../../../model.js';
import { partialRun, resultLabel, seconds, targetLabel, verdictSentence } from '../../labels.js';
import { html, type Html } from '../escape.js';

/** Title, the headline result, and who was tested how: target (URLs, never keys) and run. */
export function headerSection(report: ConformanceReport): Html {
  const t = report.target;
  const r = report.run;
  const ok = report.baseline ? report.baseline.matched && r.complete : report.summary.conformant;
  const keys = (Object.keys(t.keys) as (keyof typeof t.keys)[]).filter((k) => t.keys[k]);
  const config = Object.entries(r.configuration).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  return html`<header>
<h1>Compute Platform API conformance</h1>
<p><span class="result ${ok ? 'ok' : 'bad'}" id="result">${resultLabel(report)}</span> <span class="muted">${targetLabel(report)}</span></p>
<p id="coverage">${verdictSentence(report)}</p>
<dl class="facts">
<dt>Target</dt><dd>${t.kind === 'embedded' ? 'embedded emulator' : 'remote deployment'}${t.emulator && t.kind === 'remote' ? ' (its emulator control surface answers)' : ''}</dd>
${t.baseUrl ? html`<dt>Base URL</dt><dd class="mono">${t.baseUrl}</dd>` : ''}
${t.serverlessUrl && t.serverlessUrl !== t.baseUrl ? html`<dt>Serverless URL</dt><dd class="mono">${t.serverlessUrl}</dd>` : ''}
${t.restV1Url && t.restV1Url !== t.baseUrl ? html`<dt>REST v1 URL</dt><dd class="mono">${t.restV1Url}</dd>` : ''}
${t.endpointId ? html`<dt>Endpoint</dt><dd class="mono">${t.endpointId}</dd>` : ''}
<dt>Keys</dt><dd>${keys.length ? `${keys.join(', ')} configured (values never recorded)` : t.kind === 'embedded' ? 'minted per test by the emulator' : 'none configured'}</dd>
${t.faults.length ? html`<dt>Emulator faults</dt><dd>${t.faults.map((f, i) => html`${i ? ', ' : ''}<code>${f.id}</code>${f.rule ? html` (breaks <code>${f.rule}</code>)` : ''}`)}</dd>` : ''}
${t.variants?.length ? html`<dt>Emulator variants</dt><dd>${t.variants.map((v, i) => html`${i ? ', ' : ''}<code>${v}</code>`)} (conforming)</dd>` : ''}
${t.chaos ? html`<dt>Legal chaos</dt><dd>seed <code>${String(t.chaos.seed)}</code>${t.chaos.realTime ? ', real-time clock' : ''}${t.chaos.latencyMs ? `, latency about ${t.chaos.latencyMs} ms` : ''}${t.chaos.capacityShare !== undefined ? `, capacity refused for ${t.chaos.capacityShare} of GPU types` : ''}${t.chaos.capacityOnly ? ', capacity only' : ''}</dd>` : ''}
<dt>Suite</dt><dd>${report.suite.name} ${report.suite.version} · report schema ${report.schemaVersion}</dd>
<dt>Run</dt><dd>${r.startedAt} → ${r.finishedAt} (${seconds(r.durationMs)})</dd>
${r.seed !== undefined ? html`<dt>Seed</dt><dd><code>${String(r.seed)}</code>${r.replay ? html` · replay: <code>${r.replay}</code>` : ''}</dd>` : ''}
${config ? html`<dt>Configuration</dt><dd class="mono">${config}</dd>` : ''}
</dl>
</header>`;
}

/** Warnings a reader must not miss: an incomplete run, a changed baseline, unreadable load files. */
export function bannerSection(report: ConformanceReport): Html {
  const r = report.run;
  const t = report.summary.tests;
  const b = report.baseline;
  return html`${r.complete ? '' : html`<div class="banner bad" role="alert" id="incomplete"><strong>Incomplete run:</strong> ${r.interruption ?? 'the run did not finish'}.
 ${t.interrupted} test(s) interrupted, ${t.notRun} never started; verdicts cover only what ran, and rules whose tests did not run show as skipped.</div>`}
${b && !b.matched ? html`<div class="banner bad" role="alert"><strong>Baseline changed:</strong> ${b.changes.length} rule(s) differ from <code>${b.file}</code>. Update it on purpose with <code>--update-baseline</code> if the change is wanted.</div>` : ''}
${b?.updated ? html`<div class="banner">The baseline <code>${b.file}</code> was rewritten from this run (<code>--update-baseline</code>).</div>` : ''}
${partialRun(report) ? html`<div class="banner"><strong>Partial run:</strong> ${partialRun(report)}; rules verified only by tests outside the selection show as untested.</div>` : ''}
${report.load?.errors.length ? html`<div class="banner">${report.load.errors.length} load summary file(s) could not be read; see Load results.</div>` : ''}`;
}
