import type { ConformanceReport, RuleResult, TestOutcome } from '../model.js';
import type { Renderer } from './renderer.js';

// XML 1.0 forbids most control characters even when escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const esc = (s: string): string => s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function ruleCase(rule: RuleResult): string {
  const name = `${rule.id} [${rule.level}] ${rule.statement}`;
  const open = `    <testcase classname="rules.${esc(rule.surface)}" name="${esc(name)}" time="0">`;
  switch (rule.verdict) {
    case 'fail': {
      const text = (rule.failures ?? []).map((f) => f.message).join('\n\n');
      return `${open}\n      <failure message="${esc(`${rule.id} failed`)}" type="nonconformance">${esc(text)}</failure>\n    </testcase>`;
    }
    case 'skip': return `${open}\n      <skipped message="${esc((rule.skipReasons ?? []).join('; '))}"/>\n    </testcase>`;
    case 'untested': return `${open}\n      <skipped message="no test verifies this rule"/>\n    </testcase>`;
    case 'observed': return `${open}\n      <system-out>${esc(`observed: ${JSON.stringify(rule.observed)}`)}</system-out>\n    </testcase>`;
    default: return `${open}</testcase>`;
  }
}

function testCase(t: TestOutcome): string {
  const open = `    <testcase classname="${esc(t.file)}" name="${esc(t.title)}" time="${seconds(t.durationMs)}">`;
  const props = t.rules.length ? `\n      <properties>${t.rules.map((r) => `<property name="rule" value="${esc(r)}"/>`).join('')}</properties>` : '';
  if (t.status === 'failed') return `${open}${props}\n      <failure message="${esc((t.error ?? 'failed').split('\n')[0]!)}" type="failure">${esc(t.error ?? '')}</failure>\n    </testcase>`;
  if (t.status === 'skipped' || t.status === 'interrupted') return `${open}${props}\n      <skipped message="${esc(t.skipReason ?? t.status)}"/>\n    </testcase>`;
  return `${open}${props}</testcase>`;
}

function suite(name: string, cases: string[], counts: { tests: number; failures: number; skipped: number; time: number }, timestamp: string): string {
  return `  <testsuite name="${esc(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="0" skipped="${counts.skipped}" time="${seconds(counts.time)}" timestamp="${timestamp.slice(0, 19)}">\n${cases.join('\n')}\n  </testsuite>`;
}

/** JUnit XML: one test case per rule (grouped by surface) and one per test (grouped by kind). */
export const junitRenderer: Renderer = {
  format: 'junit',
  fileName: 'junit.xml',
  render(report: ConformanceReport) {
    const suites: string[] = [];
    const surfaces = [...new Set(report.rules.map((r) => r.surface))];
    for (const s of surfaces) {
      const rules = report.rules.filter((r) => r.surface === s);
      suites.push(suite(`rules: ${s}`, rules.map(ruleCase), {
        tests: rules.length, failures: rules.filter((r) => r.verdict === 'fail').length,
        skipped: rules.filter((r) => r.verdict === 'skip' || r.verdict === 'untested').length, time: 0,
      }, report.run.startedAt));
    }
    for (const kind of [...new Set(report.tests.map((t) => t.kind))]) {
      const tests = report.tests.filter((t) => t.kind === kind);
      suites.push(suite(`tests: ${kind}`, tests.map(testCase), {
        tests: tests.length, failures: tests.filter((t) => t.status === 'failed').length,
        skipped: tests.filter((t) => t.status === 'skipped' || t.status === 'interrupted').length, time: tests.reduce((a, t) => a + t.durationMs, 0),
      }, report.run.startedAt));
    }
    const total = report.rules.length + report.tests.length;
    const failures = report.rules.filter((r) => r.verdict === 'fail').length + report.summary.tests.failed;
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${esc(report.suite.name)}" tests="${total}" failures="${failures}" errors="0" time="${seconds(report.run.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
  },
};
