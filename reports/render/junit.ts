import type { ConformanceReport, RuleResult, TestOutcome } from '../model.js';
import { failureLine, firstLine, verdictSentence } from './labels.js';
import { coverageOf } from '../coverage.js';
import type { Renderer } from './renderer.js';
import type { CostSection } from '../cost-model.js';
import { COST_KINDS } from '../cost-model.js';
import { costHeadline } from './cost-text.js';

// XML 1.0 forbids most control characters even when escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const esc = (s: string): string => s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

type Outcome = { kind: 'pass' } | { kind: 'failure'; message: string; text: string; type: string } | { kind: 'skipped'; message: string } ;

/** A rule's outcome; with a baseline, an expected difference is a skip and any change a failure. */
function ruleOutcome(rule: RuleResult): Outcome {
  const b = rule.baseline;
  if (b?.status === 'changed') return { kind: 'failure', type: 'baseline-changed', message: `${rule.id}: baseline expects ${b.expected}, the run gave ${rule.verdict}`, text: (rule.failures ?? []).map((f) => f.message).join('\n\n') || [...(rule.skipReasons ?? []), ...(rule.blockedReasons ?? []).map((b) => b.reason)].join('\n') };
  if (b && b.expected !== 'conforming' && rule.verdict !== 'pass' && rule.verdict !== 'observed') return { kind: 'skipped', message: `known difference (baseline: ${rule.verdict}): ${b.note ?? ''}` };
  switch (rule.verdict) {
    case 'fail': return { kind: 'failure', type: 'nonconformance', message: failureLine(rule.failures?.[0]?.message ?? `${rule.id} failed`, rule.id), text: (rule.failures ?? []).map((f) => f.message).join('\n\n') };
    case 'skip': return { kind: 'skipped', message: (rule.skipReasons ?? []).join('; ') || 'skipped' };
    case 'blocked': return { kind: 'skipped', message: `blocked: ${(rule.blockedReasons ?? []).map((b) => b.reason).join('; ') || 'not reached'}` };
    case 'untested': return { kind: 'skipped', message: 'no test verifies this rule' };
    default: return { kind: 'pass' };
  }
}

function testOutcome(t: TestOutcome, report: ConformanceReport): Outcome {
  if (t.status === 'failed') {
    const byId = new Map(report.rules.map((r) => [r.id, r]));
    // Known when every rule it failed (or, blocked by a plain error, every rule it blocked) has the verdict the baseline lists for it.
    const failed = t.failedRules.length ? t.failedRules : t.rules;
    const known = report.baseline && failed.length > 0 && failed.every((id) => byId.get(id)?.baseline?.status === 'as-expected' && byId.get(id)?.baseline?.expected !== 'conforming');
    if (known) return { kind: 'skipped', message: `known difference (baseline): fails ${failed.join(', ')}` };
    const p = t.property;
    const extra = p?.counterexample !== undefined ? `\n\nseed: ${p.seed}\ncounterexample: ${p.counterexample}${p.replay ? `\nreplay: ${p.replay}` : ''}` : '';
    return { kind: 'failure', type: 'failure', message: firstLine(t.error ?? 'failed'), text: (t.error ?? '') + extra };
  }
  if (t.status === 'skipped') return { kind: 'skipped', message: t.skipReason ?? 'skipped' };
  if (t.status === 'interrupted') return { kind: 'skipped', message: 'interrupted: the run ended while this test ran' };
  if (t.status === 'notRun') return { kind: 'skipped', message: 'not run: the run ended before this test started' };
  return { kind: 'pass' };
}

function testcase(classname: string, name: string, ms: number, outcome: Outcome, out?: string): string {
  const body: string[] = [];
  if (outcome.kind === 'failure') body.push(`      <failure message="${esc(outcome.message)}" type="${esc(outcome.type)}">${esc(outcome.text)}</failure>`);
  if (outcome.kind === 'skipped') body.push(`      <skipped message="${esc(outcome.message)}"/>`);
  if (out) body.push(`      <system-out>${esc(out)}</system-out>`);
  const open = `    <testcase classname="${esc(classname)}" name="${esc(name)}" time="${seconds(ms)}"`;
  return body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`;
}

function suite(name: string, cases: { xml: string; outcome: Outcome; ms: number }[], timestamp: string): string {
  const count = (k: Outcome['kind']) => cases.filter((c) => c.outcome.kind === k).length;
  const time = cases.reduce((a, c) => a + c.ms, 0);
  return `  <testsuite name="${esc(name)}" tests="${cases.length}" failures="${count('failure')}" errors="0" skipped="${count('skipped')}" time="${seconds(time)}" timestamp="${timestamp.slice(0, 19)}">\n${cases.map((c) => c.xml).join('\n')}\n  </testsuite>`;
}

/** The cost section as name/value pairs: every figure by its path, and the headline. */
function costProperties(c: CostSection): [string, string][] {
  const out: [string, string][] = [['cost.summary', costHeadline(c)], ['cost.requests.total', String(c.requests.total)]];
  for (const [s, n] of Object.entries(c.requests.bySurface)) out.push([`cost.requests.${s}`, String(n)]);
  if (c.requests.run !== undefined) out.push(['cost.requests.run', String(c.requests.run)]);
  for (const [which, counts] of [['tests', c.created.tests], ['run', c.created.run], ['planned', c.created.planned]] as const) {
    if (counts) for (const k of COST_KINDS) out.push([`cost.created.${which}.${k}`, String(counts[k])]);
  }
  for (const [kind, m] of Object.entries(c.podMinutes ?? {})) for (const [type, n] of Object.entries(m)) out.push([`cost.podMinutes.${kind}.${type}`, n.toFixed(1)]);
  if (c.estimatedCostUsd !== undefined) out.push(['cost.estimatedUsd', c.estimatedCostUsd.toFixed(2)]);
  const planned = c.workerTime?.planned;
  if (planned) {
    out.push(['cost.workerTime.planned.boundMinutes', (planned.boundMs / 60_000).toFixed(1)], ['cost.workerTime.planned.jobs', String(planned.jobs)],
      ['cost.workerTime.planned.usd', planned.estimatedCostUsd !== undefined ? planned.estimatedCostUsd.toFixed(2) : 'unpriced']);
    if (planned.tier) out.push(['cost.workerTime.planned.tier', planned.tier]);
  }
  const observed = c.workerTime?.observed;
  if (observed) out.push(['cost.workerTime.observed.endpointMinutes', observed.endpointMinutes.toFixed(1)], ['cost.workerTime.observed.workerMinutesAtMost', observed.workerMinutesAtMost.toFixed(1)],
    ['cost.workerTime.observed.usd', observed.estimatedCostUsd !== undefined ? observed.estimatedCostUsd.toFixed(2) : 'unpriced']);
  if (c.unpriced !== undefined) out.push(['cost.unpricedPods', String(c.unpriced)]);
  if (c.rateLimit) out.push(['cost.rateLimit.waitedMs', String(c.rateLimit.waitedMs)], ['cost.rateLimit.retried', String(c.rateLimit.retried)], ['cost.rateLimit.gaveUp', String(c.rateLimit.gaveUp)]);
  if (c.leftovers) out.push(['cost.leftovers', String(c.leftovers.items.length)], ...c.leftovers.items.map((l, i): [string, string] => [`cost.leftover.${i + 1}`, `${l.kind} ${l.id ?? ''}${l.name ? ` (${l.name})` : ''}: ${l.reason}`]));
  return out;
}

/** The verdict and the MUST rules it decided, as name/value pairs: the sentence, the counts, each cause of the undecided. */
function verdictProperties(report: ConformanceReport): [string, string][] {
  const c = coverageOf(report);
  return [['verdict', verdictSentence(report)], ['verdict.must.total', String(c.total)], ['verdict.must.decided', String(c.decided)],
    ...c.undecided.map((g): [string, string] => [`verdict.must.undecided.${g.cause}`, String(g.count)])];
}

/**
 * Name/value pairs as a suite of no test cases whose `<properties>` hold them (the verdict, the
 * cost section): the schema lets `<testsuites>` hold only suites, and readers that show
 * properties show a suite's.
 */
function propertiesSuite(name: string, pairs: [string, string][], timestamp: string): string {
  const props = pairs.map(([n, value]) => `      <property name="${esc(n)}" value="${esc(value)}"/>`);
  return `  <testsuite name="${esc(name)}" tests="0" failures="0" errors="0" skipped="0" time="0.000" timestamp="${timestamp.slice(0, 19)}">\n    <properties>\n${props.join('\n')}\n    </properties>\n  </testsuite>`;
}

/**
 * JUnit XML (the Jenkins/Ant schema, `reports/junit.xsd`): one test case per rule (a suite per
 * surface) and one per test (a suite per kind), so CI systems list both. With a baseline,
 * an expected difference is skipped and every change fails, as the gate does. The cost section,
 * when the report has one, is the `<properties>` of a suite named `cost`.
 */
export const junitRenderer: Renderer = {
  format: 'junit',
  fileName: 'junit.xml',
  render(report: ConformanceReport) {
    const suites: string[] = [propertiesSuite('verdict', verdictProperties(report), report.run.startedAt)];
    const all: Outcome[] = [];
    for (const surface of [...new Set(report.rules.map((r) => r.surface))]) {
      const cases = report.rules.filter((r) => r.surface === surface).map((r) => {
        const outcome = ruleOutcome(r);
        const observed = r.verdict === 'observed' ? `observed: ${JSON.stringify((r.observed ?? []).map((o) => o.value))}` : undefined;
        return { outcome, ms: 0, xml: testcase(`rules.${surface}`, `${r.id} [${r.level}] ${r.statement}`, 0, outcome, observed) };
      });
      all.push(...cases.map((c) => c.outcome));
      suites.push(suite(`rules: ${surface}`, cases, report.run.startedAt));
    }
    for (const kind of [...new Set(report.tests.map((t) => t.kind))]) {
      const cases = report.tests.filter((t) => t.kind === kind).map((t) => {
        const outcome = testOutcome(t, report);
        return { outcome, ms: t.durationMs, xml: testcase(t.file, t.title, t.durationMs, outcome, t.rules.length ? `rules: ${t.rules.join(', ')}` : undefined) };
      });
      all.push(...cases.map((c) => c.outcome));
      suites.push(suite(`tests: ${kind}`, cases, report.run.startedAt));
    }
    if (report.cost) suites.push(propertiesSuite('cost', costProperties(report.cost), report.run.startedAt));
    const failures = all.filter((o) => o.kind === 'failure').length;
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${esc(report.suite.name)}" tests="${all.length}" failures="${failures}" errors="0" time="${seconds(report.run.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
  },
};
