import type { ConformanceReport, RuleResult, TestOutcome } from '../../../model.js';
import { VERDICTS } from '../../../model.js';
import { observedSet } from '../../../diff.js';
import { testIndex } from '../../labels.js';
import { html, join, type Html } from '../escape.js';
import { testEvidence } from './evidence.js';

function select(id: string, key: string, label: string, values: readonly string[]): Html {
  return html`<label>${label} <select id="${id}" data-key="${key}"><option value="">all</option>${values.map((v) => html`<option value="${v}">${v}</option>`)}</select></label>`;
}

function filters(report: ConformanceReport): Html {
  const surfaces = [...new Set(report.rules.map((r) => r.surface))];
  const levels = [...new Set(report.rules.map((r) => r.level))];
  return html`<div class="filters" role="search">
${select('f-verdict', 'verdict', 'Verdict', VERDICTS)}
${select('f-surface', 'surface', 'Surface', surfaces)}
${select('f-level', 'level', 'Level', levels)}
${report.baseline ? select('f-baseline', 'baseline', 'Baseline', ['as-expected', 'changed']) : ''}
<label>Search <input type="search" id="f-search" placeholder="rule id, words, test title…" autocomplete="off"></label>
<button type="button" id="f-reset">Reset</button>
<button type="button" id="f-expand">Expand evidence</button>
<button type="button" id="f-collapse">Collapse</button>
<span id="f-count" class="muted" aria-live="polite"></span>
</div>`;
}

/** A rule failed by many tests shows the evidence of the first few; the Tests section lists them all. */
const EVIDENCE_TESTS = 10;

function details(rule: RuleResult, tests: Map<string, TestOutcome>): Html {
  if (rule.verdict === 'fail') {
    const failures = rule.failures ?? [];
    const more = failures.length - EVIDENCE_TESTS;
    return html`<details class="evidence failure"><summary>Failure evidence (${String(failures.length)} test${failures.length === 1 ? '' : 's'})</summary>
${join(failures.slice(0, EVIDENCE_TESTS).map((f) => {
      const t = tests.get(f.test);
      return t ? testEvidence(t, f.message) : html`<pre class="failure-msg">${f.message}</pre>`;
    }))}${more > 0 ? html`<p class="muted small">… and ${String(more)} more failing test(s); see <a href="#tests">Tests</a>.</p>` : ''}</details>`;
  }
  if (rule.verdict === 'observed') {
    const values = observedSet(rule);
    return html`<div class="small">observed: ${values.slice(0, 3).map((v) => html`<code>${v.length > 160 ? v.slice(0, 160) + '…' : v}</code> `)}${values.length > 3 ? html`<span class="muted">and ${String(values.length - 3)} more</span>` : ''}</div>`;
  }
  if (rule.verdict === 'skip') return html`<div class="small muted">${(rule.skipReasons ?? []).join(' · ')}</div>`;
  if (rule.verdict === 'blocked') return html`<div class="small muted">blocked: ${[...new Set((rule.blockedReasons ?? []).map((b) => b.reason))].join(' · ')}</div>`;
  return html``;
}

function testsCell(rule: RuleResult, tests: Map<string, TestOutcome>): Html {
  if (rule.tests.length === 0) return html`<td class="muted">none</td>`;
  return html`<td><details><summary>${String(rule.tests.length)} test${rule.tests.length === 1 ? '' : 's'}</summary><ul class="small">${rule.tests.map((id) => {
    const t = tests.get(id);
    return html`<li>${t ? `${t.title} (${t.status})` : id}</li>`;
  })}</ul></details></td>`;
}

function searchText(rule: RuleResult, tests: Map<string, TestOutcome>): string {
  return [rule.id, rule.statement, rule.section, rule.surface, rule.level, rule.verdict, ...rule.tests.map((id) => tests.get(id)?.title ?? ''),
    ...(rule.failures ?? []).map((f) => f.message), ...(rule.skipReasons ?? []), ...(rule.blockedReasons ?? []).map((b) => b.reason), ...observedSet(rule), rule.baseline?.note ?? ''].join(' \u0001 ').toLowerCase();
}

function row(rule: RuleResult, tests: Map<string, TestOutcome>, withBaseline: boolean): Html {
  const b = rule.baseline;
  return html`<tr class="rule" id="rule-${rule.id}" data-verdict="${rule.verdict}" data-surface="${rule.surface}" data-level="${rule.level}" data-baseline="${b?.status ?? ''}" data-search="${searchText(rule, tests)}">
<td><code>${rule.id}</code></td>
<td>${rule.statement}<div class="small muted">§ ${rule.section}</div>${details(rule, tests)}</td>
<td>${rule.level}</td><td>${rule.surface}</td>${testsCell(rule, tests)}
<td><span class="v v-${rule.verdict}">${rule.verdict}</span></td>
${withBaseline ? html`<td class="b-${b?.status ?? ''}">${b ? (b.status === 'changed' ? `changed (expected ${b.expected})` : 'as expected') : ''}${b?.note ? html`<div class="small muted">${b.note}</div>` : ''}</td>` : ''}
</tr>`;
}

/** The rule matrix: one row per rule of the spec, filterable, with failure evidence. */
export function matrixSection(report: ConformanceReport): Html {
  const tests = testIndex(report);
  const withBaseline = report.baseline !== undefined;
  return html`<section id="matrix"><h2>Rule matrix</h2>
${filters(report)}
<table class="matrix"><thead><tr><th>Rule</th><th>Statement</th><th>Level</th><th>Surface</th><th>Tests</th><th>Verdict</th>${withBaseline ? html`<th>Baseline</th>` : ''}</tr></thead>
<tbody>${join(report.rules.map((r) => row(r, tests, withBaseline)))}</tbody></table>
</section>`;
}
