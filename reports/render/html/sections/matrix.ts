import type { ConformanceReport, RuleResult, TestOutcome } from '../../../model.js';
import { VERDICTS } from '../../../model.js';
import { observedSet } from '../../../diff.js';
import { failureLine, testIndex } from '../../labels.js';
import { html, join, type Html } from '../escape.js';
import { testEvidence } from './evidence.js';
import { blockedCause } from '../../blocked.js';

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
/** Longer observed values and reasons are clipped in a summary line; the folded part has them whole. */
const SUMMARY_CHARS = 140;

const clip = (s: string, n = SUMMARY_CHARS): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A failed rule's first line of evidence, shown without a click: the failure about this rule, and the test that saw it. */
function firstEvidence(rule: RuleResult, tests: Map<string, TestOutcome>): Html {
  const f = rule.failures?.[0];
  if (!f) return html``;
  const title = tests.get(f.test)?.title;
  return html`<div class="first-evidence"><span class="msg">${clip(failureLine(f.message, rule.id), 240)}</span>${title ? html`<div class="small muted">in “${clip(title, 120)}”</div>` : ''}</div>`;
}

/** Everything else folds: evidence, observed values, blocked and skip reasons; a one-line summary says what is inside. */
function details(rule: RuleResult, tests: Map<string, TestOutcome>): Html {
  if (rule.verdict === 'fail') {
    const failures = rule.failures ?? [];
    const more = failures.length - EVIDENCE_TESTS;
    return html`${firstEvidence(rule, tests)}<details class="evidence failure"><summary>Failure evidence (${String(failures.length)} test${failures.length === 1 ? '' : 's'})</summary>
${join(failures.slice(0, EVIDENCE_TESTS).map((f) => {
      const t = tests.get(f.test);
      return t ? testEvidence(t, f.message, rule.id) : html`<pre class="failure-msg">${f.message}</pre>`;
    }))}${more > 0 ? html`<p class="muted small">… and ${String(more)} more failing test(s); see <a href="#tests">Tests</a>.</p>` : ''}</details>`;
  }
  if (rule.verdict === 'observed') {
    const values = observedSet(rule);
    return html`<details class="evidence observed"><summary>observed${values.length > 1 ? ` (${values.length} values)` : ''}: <code>${clip(values[0] ?? '')}</code></summary>${values.map((v) => html`<pre>${v}</pre>`)}</details>`;
  }
  const reasons = rule.verdict === 'skip' ? (rule.skipReasons ?? []) : rule.verdict === 'blocked' ? [...new Set((rule.blockedReasons ?? []).map((b) => b.reason))] : [];
  if (reasons.length === 0) return html``;
  // A blocked rule's summary names the causes (another rule's failure, a setup error), not each test.
  const titles = new Map([...tests.values()].map((t) => [t.id, t.title]));
  const causes = rule.verdict === 'blocked' ? [...new Set((rule.blockedReasons ?? []).map((b) => blockedCause(b, titles)))] : reasons;
  const head = `${rule.verdict === 'blocked' ? 'blocked: ' : ''}${clip(causes[0]!)}${causes.length > 1 ? ` (and ${causes.length - 1} more cause${causes.length > 2 ? 's' : ''})` : ''}`;
  if (reasons.length === 1 && reasons[0]!.length <= SUMMARY_CHARS && rule.verdict === 'skip') return html`<div class="small muted">${head}</div>`;
  return html`<details class="evidence reasons"><summary class="small">${head}</summary><ul class="small muted">${reasons.map((r) => html`<li>${r}</li>`)}</ul></details>`;
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

/** A rule id that may break after each dot, so a narrow column never overflows. */
const ruleId = (id: string): Html => join(id.split('.').map((part, i) => (i ? html`.<wbr>${part}` : part)));

function row(rule: RuleResult, tests: Map<string, TestOutcome>, withBaseline: boolean, unstable: boolean): Html {
  const b = rule.baseline;
  return html`<tr class="rule" id="rule-${rule.id}" data-verdict="${rule.verdict}" data-surface="${rule.surface}" data-level="${rule.level}" data-baseline="${b?.status ?? ''}" data-search="${searchText(rule, tests)}">
<td class="rule-id"><code>${ruleId(rule.id)}</code><div class="small muted">${rule.level} · ${rule.surface}</div>${unstable ? html`<span class="badge unstable" title="the verdict changed at least twice in the last runs">unstable</span>` : ''}</td>
<td class="verdict"><span class="v v-${rule.verdict}">${rule.verdict}</span></td>
<td class="statement">${rule.statement}<div class="small muted">§ ${rule.section}</div>${details(rule, tests)}</td>
${testsCell(rule, tests)}
${withBaseline ? html`<td class="b-${b?.status ?? ''}">${b ? (b.status === 'changed' ? `changed (expected ${b.expected})` : 'as expected') : ''}${b?.note ? html`<div class="small muted">${b.note}</div>` : ''}</td>` : ''}
</tr>`;
}

/** The rule matrix: one row per rule of the spec, filterable, with failure evidence. */
export function matrixSection(report: ConformanceReport): Html {
  const tests = testIndex(report);
  const withBaseline = report.baseline !== undefined;
  const unstable = new Set(report.changes?.unstable ?? []);
  return html`<section id="matrix"><h2>Rule matrix</h2>
${filters(report)}
<table class="matrix"><colgroup><col class="c-rule"><col class="c-verdict"><col class="c-statement"><col class="c-tests">${withBaseline ? html`<col class="c-baseline">` : ''}</colgroup>
<thead><tr><th>Rule</th><th>Verdict</th><th>Statement</th><th>Tests</th>${withBaseline ? html`<th>Baseline</th>` : ''}</tr></thead>
<tbody>${join(report.rules.map((r) => row(r, tests, withBaseline, unstable.has(r.id))))}</tbody></table>
</section>`;
}
