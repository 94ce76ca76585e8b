import type { ConformanceReport, Counts, RuleResult } from '../model.js';
import { observedSet } from '../diff.js';
import { VERDICT_ICON, failureLine, partialRun, propertyRuns, resultLabel, seconds, targetLabel, testIndex } from './labels.js';
import { exchangeFor } from '../../lib/evidence.js';
import { capped, htmlText, mdBlock, mdCode, mdTable, mdText } from './md.js';
import type { Renderer } from './renderer.js';
import { blockedLead, sinceSection, verdictLine } from './markdown-lead.js';
import { KIND_LABEL, costTotals, int, notMeasured, kindRows, minuteRows, minutes, surfaceRows, usd, waited, workerTimeFacts } from './cost-text.js';

const COLS = ['pass', 'fail', 'blocked', 'observed', 'skip', 'untested'] as const;

function totals(title: string, rows: Record<string, Counts>, all: Counts): string {
  const body = Object.entries(rows).filter(([, c]) => c.total > 0).map(([name, c]) => [mdText(name), String(c.total), ...COLS.map((k) => String(c[k]))]);
  body.push(['**total**', String(all.total), ...COLS.map((k) => String(all[k]))]);
  return mdTable([title, 'rules', ...COLS], body, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
}

function header(r: ConformanceReport): string {
  const ok = r.baseline ? r.baseline.matched && r.run.complete : r.summary.conformant;
  const lines = [`# ${ok ? '✅' : '❌'} Compute Platform API conformance: ${resultLabel(r)}`, '', verdictLine(r)];
  const since = sinceSection(r);
  if (since) lines.push('', since);
  const blockedWhy = blockedLead(r);
  if (blockedWhy) lines.push('', blockedWhy);
  lines.push('', `**Target:** ${mdText(targetLabel(r))} · **Suite:** ${mdText(r.suite.version)} · **Run:** ${mdText(r.run.startedAt)} (${seconds(r.run.durationMs)})`);
  if (r.run.seed !== undefined) lines.push('', `**Seed:** ${mdCode(String(r.run.seed))}${r.run.replay ? ` · replay: ${mdCode(r.run.replay)}` : ''}`);
  const partial = partialRun(r);
  if (partial) lines.push('', `> [!NOTE]\n> **Partial run:** ${mdText(partial)}; rules verified only by tests outside the selection show as untested.`);
  if (!r.run.complete) lines.push('', `> [!WARNING]\n> **Incomplete run:** ${mdText(r.run.interruption ?? 'the run did not finish')}. ${r.summary.tests.interrupted} test(s) interrupted, ${r.summary.tests.notRun} never started.`);
  return lines.join('\n');
}

function baseline(r: ConformanceReport): string {
  const b = r.baseline;
  if (!b) return '';
  const head = `## Baseline\n\n${mdCode(b.file)}: ${b.entries} listed rule(s); ${b.matched ? 'every rule has the expected verdict.' : `**${b.changes.length} change(s)**; update on purpose with ${mdCode('--update-baseline')}.`}${b.updated ? ' Rewritten from this run.' : ''}`;
  if (!b.changes.length) return head;
  const { shown, more } = capped(b.changes, 100);
  return `${head}\n\n${mdTable(['Rule', 'Change', 'Expected', 'Now', 'Note'], shown.map((c) => [mdCode(c.rule), c.kind, c.expected, c.actual, mdText(c.note ?? '', 160)]))}${more}`;
}

function failures(r: ConformanceReport): string {
  const failing = r.rules.filter((x) => x.verdict === 'fail');
  if (!failing.length) return '';
  const tests = testIndex(r);
  const { shown, more } = capped(failing, 50);
  const table = mdTable(['Rule', 'Level', 'Statement', 'First failure'], shown.map((x) => [mdCode(x.id), x.level, mdText(x.statement, 200), mdText(failureLine(x.failures?.[0]?.message ?? '', x.id), 200)]));
  const evidence = shown.slice(0, 20).map((x: RuleResult) => {
    const f = x.failures?.[0];
    // The exchange the rule's finding was read from, else the test's last.
    const last = exchangeFor(f ? tests.get(f.test)?.evidence ?? [] : [], x.id);
    if (!last) return '';
    return `<details><summary>${htmlText(x.id)}: ${htmlText(`${last.request.method} ${last.request.url}`, 160)} → ${last.response?.status ?? 'no response'}</summary>\n\n${mdBlock(last.curl, 'sh', 2000)}\n\n${last.response?.body ? mdBlock(last.response.body, '', 1500) : ''}\n</details>`;
  }).filter(Boolean).join('\n');
  return `## ${VERDICT_ICON.fail} Failing rules (${failing.length})\n\n${table}${more}\n\n${evidence}`;
}

function blocked(r: ConformanceReport): string {
  const rows = r.rules.filter((x) => x.verdict === 'blocked');
  if (!rows.length) return '';
  const { shown, more } = capped(rows, 100);
  return `## ${VERDICT_ICON.blocked} Blocked rules (${rows.length})\n\nEvery test of these rules stopped before checking them, because something else broke first.\n\n${mdTable(['Rule', 'Level', 'Blocked by'], shown.map((x) => [mdCode(x.id), x.level, mdText(x.blockedReasons?.[0]?.reason ?? '', 200)]))}${more}`;
}

function observed(r: ConformanceReport): string {
  const rows = r.rules.filter((x) => x.level === 'OBSERVED' && x.verdict === 'observed');
  if (!rows.length) return '';
  const { shown, more } = capped(rows, 100);
  return `## ${VERDICT_ICON.observed} Observed behaviour (spec says "not shown")\n\n${mdTable(['Rule', 'This target', 'Live platform'], shown.map((x) => [mdCode(x.id), observedSet(x).slice(0, 3).map((v) => mdCode(v, 120)).join(' '), mdText(x.observedExpectation ?? '', 160)]))}${more}`;
}

function properties(r: ConformanceReport): string {
  const runs = propertyRuns(r);
  if (!runs.length) return '';
  return `## Property tests\n\n${mdTable(['Property', 'Status', 'Seed', 'Runs', 'Counterexample', 'Replay'], runs.map((t) => [mdText(t.title, 160), t.status, mdCode(String(t.property!.seed)), String(t.property!.numRuns), t.property!.counterexample !== undefined ? mdCode(t.property!.counterexample, 200) : '', t.property!.replay ? mdCode(t.property!.replay) : '']))}`;
}

function load(r: ConformanceReport): string {
  if (!r.load) return '';
  const rows = r.load.scenarios.map((s) => {
    const d = s.summary.metrics.http_req_duration ?? {};
    const ms = (k: string) => (typeof d[k] === 'number' ? `${(d[k] as number).toFixed(1)} ms` : '–');
    return [mdText(s.summary.scenario), s.ok ? '✅ met' : '❌ not met', ms('p50'), ms('p95'), ms('p99'), mdText(s.failedThresholds.join(', '), 200)];
  });
  const errors = r.load.errors.map((e) => `- ${mdCode(e.file)}: ${mdText(e.message, 200)}`).join('\n');
  return `## Load\n\n${mdTable(['Scenario', 'Thresholds', 'p50', 'p95', 'p99', 'Failed thresholds'], rows, ['l', 'l', 'r', 'r', 'r', 'l'])}${errors ? `\n\nUnreadable summaries:\n${errors}` : ''}`;
}

function detection(r: ConformanceReport): string {
  const d = r.detection;
  if (!d) return '';
  const missed = d.rows.filter((x) => x.detection !== 'detected');
  const list = missed.map((x) => [mdCode(x.fault), mdCode(x.rule), x.detection, mdText(x.failedRules.join(', '), 200)]);
  return `## Detection matrix\n\n${d.detected}/${d.faults} emulator faults detected by the rule they break.${missed.length ? `\n\n${mdTable(['Fault', 'Rule', 'Result', 'Failed on'], list)}` : ''}`;
}

function blastRadius(r: ConformanceReport): string {
  const b = r.blastRadius;
  if (!b) return '';
  const bad = b.rows.filter((x) => !x.ownRule || x.failedMust.length > b.limit);
  const head = `## Blast radius\n\nThe whole suite with one fault on at a time: ${b.faults} faults, failed MUST rules per fault median **${b.median}**, max **${b.max}** (limit ${b.limit}); ${b.missingOwnRule} without their own rule, ${b.overLimit} over the limit.`;
  if (!bad.length) return head;
  const { shown, more } = capped(bad, 50);
  return `${head}\n\n${mdTable(['Fault', 'Its rule', 'Failed MUST rules'], shown.map((x) => [mdCode(x.fault), `${mdCode(x.rule)}${x.ownRule ? '' : ' (missing)'}`, mdText(`${x.failedMust.length}: ${x.failedMust.join(', ')}`, 300)]))}${more}`;
}

function mutation(r: ConformanceReport): string {
  const m = r.mutation;
  if (!m) return '';
  const head = `## Mutation testing\n\nScore **${m.score.toFixed(2)}%** (${m.generatedAt}): ${m.total} mutants, ${m.killed} killed, ${m.timeout} timed out, ${m.survived} survived, ${m.noCoverage} without coverage; ${m.equivalent.length} survivor(s) listed as equivalent, ${m.unresolved.length} unresolved.`;
  if (!m.unresolved.length) return head;
  const { shown, more } = capped(m.unresolved, 50);
  return `${head}\n\n${mdTable(['Mutant', 'Where', 'Mutator', 'Replacement'], shown.map((x) => [x.id, mdCode(`${x.file}:${x.line}`), x.mutator, mdCode(x.replacement ?? '', 120)]))}${more}`;
}

/** Text with `$` escaped too: GitHub reads two dollar signs on a line as a formula. */
const mdMoney = (s: string, max = 600): string => mdText(s, max).replace(/\$/g, '\\$');

function cost(r: ConformanceReport): string {
  const c = r.cost;
  if (!c) return '';
  const missing = notMeasured(c);
  const lines = [`## Cost\n\n**${mdMoney(costTotals(c))}**${missing.length ? `  \nNot measured on this target: ${mdText(missing.join(', '))}.` : ''}`];
  const kinds = kindRows(c);
  if (kinds.length) {
    const cols: [string, (k: (typeof kinds)[number]) => string][] = [['Kind', (k) => mdText(KIND_LABEL[k.kind])]];
    if (c.created.planned) cols.push(['Planned', (k) => String(k.planned ?? 0)]);
    if (c.created.run) cols.push(['Created', (k) => String(k.run ?? 0)]);
    cols.push([c.created.run ? 'By the tests' : 'Created by the tests', (k) => String(k.tests)]);
    lines.push(mdTable(cols.map(([h]) => h), kinds.map((k) => cols.map(([, f]) => f(k))), cols.map((_, i) => (i === 0 ? 'l' : 'r'))));
  }
  const facts: string[] = [];
  const surfaces = surfaceRows(c);
  if (surfaces.length) facts.push(`**Requests by surface:** ${surfaces.map(([s, n]) => `${mdText(s)} ${int(n)}`).join(' · ')}${c.requests.run !== undefined ? ` (the whole run, teardown included: ${int(c.requests.run)})` : ''}`);
  const mins = minuteRows(c);
  if (mins.length) facts.push(`**Pod-minutes:** ${mins.map((m) => `${m.kind} ${mdText(m.type)} ${minutes(m.minutes)}`).join(' · ')}`);
  for (const f of workerTimeFacts(c)) facts.push(`**${f.label}:** ${mdMoney(f.text)}`);
  if (c.plan) facts.push(`**Plan:** ${int(c.plan.requests)} requests${c.plan.estimatedCostUsd !== undefined ? `, ≈ ${mdMoney(usd(c.plan.estimatedCostUsd))} at most` : ''}${c.plan.pools.length ? `; pools: ${mdText(c.plan.pools.join(', '))}` : ''}`);
  if (c.rateLimit) facts.push(`**Rate limit:** ${waited(c.rateLimit.waitedMs)} waited by ${int(c.rateLimit.tests)} test(s); ${int(c.rateLimit.retried)} 429 answer(s) waited out, ${int(c.rateLimit.gaveUp)} given back`);
  if (facts.length) lines.push(facts.join('  \n'));
  const left = c.leftovers?.items ?? [];
  if (left.length) {
    const { shown, more } = capped(left, 50);
    lines.push(`> [!WARNING]\n> **${left.length} resource(s) could not be deleted**: delete them by hand.\n\n${mdTable(['Kind', 'Id', 'Name', 'Reason', 'Created by'], shown.map((l) => [mdText(l.kind), mdCode(l.id ?? ''), mdText(l.name ?? '', 120), mdText(l.reason, 200), mdText(l.test, 160)]))}${more}`);
  }
  if (c.requests.top.length) {
    lines.push(`<details><summary>Top ${c.requests.top.length} tests by requests</summary>\n\n${mdTable(['Test', 'Requests', 'By surface'], c.requests.top.map((t) => [mdText(t.title, 200), int(t.total), mdText(Object.entries(t.bySurface).map(([s, n]) => `${s} ${n}`).join(', '), 200)]), ['l', 'r', 'l'])}\n</details>`);
  }
  return lines.join('\n\n');
}

function untested(r: ConformanceReport): string {
  const rows = r.rules.filter((x) => x.verdict === 'untested');
  if (!rows.length) return '';
  const { shown, more } = capped(rows, 200);
  return `<details><summary>Rules without tests (${rows.length})</summary>\n\n${shown.map((x) => `- ${mdCode(x.id)} ${mdText(x.statement, 200)}`).join('\n')}${more}\n</details>`;
}

/** A Markdown summary for a CI job summary (`$GITHUB_STEP_SUMMARY`): bounded in size, escaped. */
export const markdownRenderer: Renderer = {
  format: 'markdown',
  fileName: 'summary.md',
  render(r: ConformanceReport) {
    const t = r.summary.tests;
    const parts = [
      header(r),
      `## Totals\n\n${totals('Surface', r.summary.bySurface, r.summary.rules)}\n\n${totals('Level', r.summary.byLevel, r.summary.rules)}\n\nTests: ${t.total} · ${t.passed} passed · ${t.failed} failed · ${t.skipped} skipped${t.interrupted ? ` · ${t.interrupted} interrupted` : ''}${t.notRun ? ` · ${t.notRun} never started` : ''}`,
      baseline(r), failures(r), blocked(r), cost(r), observed(r), properties(r), load(r), detection(r), blastRadius(r), mutation(r), untested(r),
      '_Full report with evidence: `report.html` (self-contained); data: `conformance.json`; CI: `junit.xml`._',
    ];
    return parts.filter(Boolean).join('\n\n') + '\n';
  },
};
