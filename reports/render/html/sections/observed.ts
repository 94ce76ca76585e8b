import type { ConformanceReport } from '../../../model.js';
import { observedSet } from '../../../diff.js';
import { html, type Html } from '../escape.js';

/** What this target does where the spec is silent: one row per OBSERVED rule. */
export function observedSection(report: ConformanceReport): Html {
  const rules = report.rules.filter((r) => r.level === 'OBSERVED');
  if (rules.length === 0) return html``;
  return html`<section id="observed"><h2>Observed behaviour (the spec says "not shown")</h2>
<p class="muted">These rules never fail: the suite records what the target does, next to what the live platform is known to do.</p>
<table class="observed"><thead><tr><th>Rule</th><th>Statement</th><th>This target</th><th>Live platform</th></tr></thead><tbody>
${rules.map((r) => {
    const values = observedSet(r);
    const what = values.length
      ? html`${values.map((v) => html`<pre>${v}</pre>`)}<div class="small muted">${String(r.observed?.length ?? 0)} observation(s)</div>`
      : html`<span class="v v-${r.verdict}">${r.verdict}</span>${r.skipReasons ? html`<div class="small muted">${r.skipReasons.join(' · ')}</div>` : ''}`;
    return html`<tr><td><a href="#rule-${r.id}"><code>${r.id}</code></a></td><td>${r.statement}</td><td>${what}</td><td class="small">${r.observedExpectation ?? ''}</td></tr>`;
  })}
</tbody></table></section>`;
}
