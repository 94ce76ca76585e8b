import type { HistoryModel, HistoryRule } from '../../../history/model.js';
import { UNSTABLE_CHANGES, UNSTABLE_WINDOW } from '../../../trend.js';
import { html, type Html } from '../escape.js';
import { runLabels, runTitle } from './labels.js';

/** Past this many runs the cells lose their gaps and share the width: a long window still fits the page. */
const DENSE_RUNS = 40;
export const stripClass = (model: HistoryModel): string => (model.runs.length > DENSE_RUNS ? 'strip dense' : 'strip');

/** A strip of cells, one per run, oldest to newest; the run at which the verdict changed is marked. */
function strip(model: HistoryModel, rule: HistoryRule): Html {
  return html`<div class="${stripClass(model)}" role="img" aria-label="${rule.id}: ${rule.verdicts.join(', ')}">${rule.verdicts.map((v, i) => {
    const run = model.runs[i]!;
    const changed = rule.changes.includes(i);
    const cls = `c v-${v}${changed ? ' chg' : ''}${run.comparable ? '' : ' nc'}`;
    return html`<span class="${cls}" title="${runTitle(run)}: ${v}${changed ? ' (changed)' : ''}"></span>`;
  })}</div>`;
}

const lastChange = (model: HistoryModel, r: HistoryRule): string => {
  const i = r.changes[r.changes.length - 1];
  return i === undefined ? '' : runLabels(model.runs)[i]!;
};

/** "added in 0.2.0" or "removed in 0.3.0" when a suite version of the window changed the rule's presence. */
function catalogBadge(model: HistoryModel, id: string): Html {
  const c = model.catalog.filter((x) => x.added.includes(id) || x.removed.includes(id)).at(-1);
  if (!c) return html``;
  const added = c.added.includes(id);
  return html` <span class="badge ${added ? 'added' : 'removed'}">${added ? 'added' : 'removed'} in ${c.to}</span>`;
}

function row(model: HistoryModel, r: HistoryRule): Html {
  const now = r.verdicts[r.verdicts.length - 1]!;
  return html`<tr class="hrule${r.unstable ? ' unstable' : ''}" id="h-${r.id}" data-changes="${String(r.changes.length)}">
<td><code>${r.id}</code>${r.unstable ? html` <span class="badge unstable">unstable</span>` : ''}${catalogBadge(model, r.id)}<div class="small muted">${r.level} · ${r.statement}</div></td>
<td>${strip(model, r)}</td>
<td><span class="v v-${now}">${now}</span></td>
<td class="num">${String(r.changes.length)}${r.changes.length ? html`<div class="small muted">last ${lastChange(model, r)}</div>` : ''}</td>
</tr>`;
}

function table(model: HistoryModel, rules: readonly HistoryRule[]): Html {
  const labels = runLabels(model.runs);
  return html`<table class="history"><colgroup><col class="c-rule"><col class="c-strip"><col class="c-now"><col class="c-changes"></colgroup>
<thead><tr><th>Rule</th><th>Verdict per run <span class="small muted">${labels[0]} → ${labels[labels.length - 1]}</span></th><th>Now</th><th class="num">Changes</th></tr></thead>
<tbody>${rules.map((r) => row(model, r))}</tbody></table>`;
}

/** Rules whose verdict moved first (unstable ones, then the most recent change), then the rest folded. */
export function rulesSection(model: HistoryModel): Html {
  const moved = model.rules.filter((r) => r.changes.length > 0)
    .sort((a, b) => Number(b.unstable) - Number(a.unstable) || b.changes[b.changes.length - 1]! - a.changes[a.changes.length - 1]!);
  const steady = model.rules.filter((r) => r.changes.length === 0);
  return html`<section id="rules"><h2>Rules, run by run</h2>
<p class="small legend"><span class="c v-pass"></span> pass <span class="c v-fail"></span> fail <span class="c v-blocked"></span> blocked <span class="c v-skip"></span> skip
<span class="c v-observed"></span> observed <span class="c v-untested"></span> untested <span class="c v-absent"></span> not in that suite version
<span class="c v-pass chg"></span> the run at which the verdict changed <span class="c v-pass nc"></span> an incomplete or partial run (not compared).
<strong>Unstable</strong>: the verdict changed at least ${String(UNSTABLE_CHANGES)} times between the last ${String(UNSTABLE_WINDOW)} runs.</p>
${moved.length ? html`<h3>${String(moved.length)} rule(s) whose verdict changed</h3>${table(model, moved)}` : html`<p>No rule changed its verdict in these ${String(model.runs.length)} runs.</p>`}
${steady.length ? html`<details class="steady"><summary>${String(steady.length)} rule(s) with the same verdict in every run</summary>${table(model, steady)}</details>` : ''}
</section>`;
}
