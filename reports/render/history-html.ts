import type { HistoryModel, HistoryRule } from '../history/model.js';
import { html, join, type Html } from './html/escape.js';
import { page } from './html/page.js';
import { HISTORY_STYLES } from './html/history/styles.js';
import { rulesSection } from './html/history/rules.js';
import { catalogSection, runsSection } from './html/history/runs.js';
import { costHistorySection, loadHistorySection } from './html/history/figures.js';
import { runLabels } from './html/history/labels.js';

/** The verdict before the newest run's change: the last comparable run before it that had the rule. */
function before(model: HistoryModel, r: HistoryRule): string {
  const last = model.runs.length - 1;
  for (let i = last - 1; i >= 0; i--) if (model.runs[i]!.comparable && r.verdicts[i] !== 'absent') return r.verdicts[i]!;
  return 'absent';
}

const links = (model: HistoryModel, rules: readonly HistoryRule[]): Html =>
  join(rules.map((r, i) => html`${i ? ', ' : ''}<a href="#h-${r.id}"><code>${r.id}</code></a> <span class="small muted">(was ${before(model, r)})</span>`));

/** The newest run against the one before it: new failures, new passes, and the rules unstable now. */
function sinceSection(model: HistoryModel): Html {
  const last = model.runs.length - 1;
  if (last < 1) return html`<p class="muted">One run so far: nothing to compare with.</p>`;
  const changedNow = model.rules.filter((r) => r.changes.includes(last));
  const failures = changedNow.filter((r) => r.verdicts[last] === 'fail');
  const passes = changedNow.filter((r) => r.verdicts[last] === 'pass' && ['fail', 'blocked'].includes(before(model, r)));
  const unstable = model.rules.filter((r) => r.unstable);
  return html`<div class="since" id="since"><h2>Since the run before</h2><ul>
<li id="since-failures"><strong>${String(failures.length)} new failure(s)</strong>${failures.length ? html`: ${links(model, failures)}` : ''}</li>
<li id="since-passes"><strong>${String(passes.length)} new pass(es)</strong>${passes.length ? html`: ${links(model, passes)}` : ''}</li>
<li id="since-unstable"><strong>${String(unstable.length)} unstable rule(s)</strong>${unstable.length ? html`: ${join(unstable.map((r, i) => html`${i ? ', ' : ''}<a href="#h-${r.id}"><code>${r.id}</code></a>`))}` : ''}</li>
<li>${String(changedNow.length)} rule(s) changed verdict in the newest run${model.runs[last]!.comparable ? '' : ' (it is incomplete or partial: its verdicts are not compared)'}.</li>
</ul></div>`;
}

/** One self-contained page: a target's reports over time. */
export function renderHistory(model: HistoryModel): string {
  const labels = runLabels(model.runs);
  const newest = model.runs[model.runs.length - 1]!;
  return page({
    title: `History of ${model.target} · Compute Platform API conformance`, styles: HISTORY_STYLES,
    body: html`<header>
<h1>Conformance history: ${model.target}</h1>
<p><span class="result ${newest.conformant ? 'ok' : 'bad'}" id="result">${newest.result}</span>
<span class="muted">newest run ${labels[labels.length - 1]} · ${String(model.runs.length)} run(s) from ${labels[0]} to ${labels[labels.length - 1]}</span></p>
</header>
<nav class="toc"><a href="#since">Since the run before</a><a href="#rules">Rules</a><a href="#load">Load</a><a href="#cost">Cost</a><a href="#versions">Suite versions</a><a href="#runs">Runs</a></nav>
${sinceSection(model)}
${rulesSection(model)}
${loadHistorySection(model)}
${costHistorySection(model)}
${catalogSection(model)}
${runsSection(model)}`,
  });
}
