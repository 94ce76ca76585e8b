import type { ChangesSection, ConformanceReport } from '../../../model.js';
import { newFailures, newPasses } from '../../../changes.js';
import { UNSTABLE_CHANGES, UNSTABLE_WINDOW } from '../../../trend.js';
import { html, join, type Html } from '../escape.js';

const ruleLinks = (ids: readonly string[]): Html =>
  join(ids.map((id, i) => html`${i ? ', ' : ''}<a href="#rule-${id}"><code>${id}</code></a>`));

const item = (id: string, label: string, ids: readonly string[]): Html =>
  html`<li id="${id}"><strong>${String(ids.length)} ${label}</strong>${ids.length ? html`: ${ruleLinks(ids)}` : ''}</li>`;

const previousRun = (c: ChangesSection): string =>
  `${c.previous.file ? `${c.previous.file}, ` : ''}run of ${c.previous.startedAt}, suite ${c.previous.suiteVersion}${c.previous.seed !== undefined ? `, seed ${c.previous.seed}` : ''}`;

/** What changed since the previous report (`--previous`), before the totals: the first thing a morning reader looks for. */
export function changesSection(report: ConformanceReport): Html {
  const c = report.changes;
  if (!c) return html``;
  return html`<section id="changes" class="banner"><strong>Since the previous run</strong> <span class="small muted">(${previousRun(c)})</span>
<ul>${item('changes-failures', 'new failure(s)', newFailures(c).map((x) => x.rule))}${item('changes-passes', 'new pass(es)', newPasses(c).map((x) => x.rule))}${item('changes-unstable', `unstable rule(s) (verdict changed at least ${UNSTABLE_CHANGES} times within the last ${UNSTABLE_WINDOW} runs)`, c.unstable)}
<li>${String(c.changed.length)} rule(s) changed verdict in all.</li></ul></section>`;
}
