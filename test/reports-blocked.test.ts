// `blocked` as its own verdict everywhere the report goes: the four renderers, the console
// summary, the baseline and the diff; and the blast radius of `cpc detect --full` in the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureReport } from '../reports/test/fixture.js';
import { htmlRenderer } from '../reports/render/html.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { junitRenderer } from '../reports/render/junit.js';
import { jsonRenderer } from '../reports/render/json.js';
import { textSummary } from '../reports/summary.js';
import { applyBaseline, updatedBaseline } from '../reports/baseline.js';
import { diffReports } from '../reports/diff.js';
import { validateReport } from '../reports/validate.js';
import type { ConformanceReport } from '../reports/model.js';

// In the fixture, "a missing key gets 401" fails AUTH.REST_V2.MISSING_401 and also declares
// ERR.PROBLEM_JSON.CONTENT_TYPE, which it never reached: that rule is blocked by the other.
const BLOCKED = 'ERR.PROBLEM_JSON.CONTENT_TYPE';
const report = (): ConformanceReport => fixtureReport({ complete: true });

test('blocked: the fixture\'s unreached rule is blocked by the rule that failed, and counted', () => {
  const r = report();
  const rule = r.rules.find((x) => x.id === BLOCKED)!;
  assert.equal(rule.verdict, 'blocked');
  assert.deepEqual(rule.blockedReasons?.map((b) => b.rules), [['AUTH.REST_V2.MISSING_401']]);
  assert.equal(r.summary.rules.blocked, 1);
  assert.equal(r.summary.byLevel.MUST!.blocked, 1);
  assert.deepEqual(validateReport(r), { valid: true });
});

test('blocked: every renderer and the console summary show it with its reason', () => {
  const r = report();
  const html = htmlRenderer.render(r);
  assert.match(html, /data-verdict="blocked"/);
  // The matrix names the cause in its summary line and folds each test's reason.
  assert.match(html, /<summary class="small">blocked: stopped when AUTH\.REST_V2\.MISSING_401 failed first<\/summary>/);
  assert.match(html, /<li>&quot;fixture › a missing key gets 401 &quot; stopped when AUTH\.REST_V2\.MISSING_401 failed<\/li>/);
  const md = markdownRenderer.render(r);
  assert.match(md, /\| rules \| pass \| fail \| blocked \|/);
  assert.match(md, /## ⛔ Blocked rules \(1\)/);
  assert.match(md, new RegExp(`\`${BLOCKED.replace(/\./g, '\\.')}\` \\| MUST \\| "fixture › a missing key gets 401 " stopped when AUTH`));
  const xml = junitRenderer.render(r);
  assert.match(xml, /<skipped message="blocked: &quot;fixture › a missing key gets 401 &quot; stopped when AUTH\.REST_V2\.MISSING_401 failed"\/>/);
  assert.equal(JSON.parse(jsonRenderer.render(r)).rules.find((x: { id: string }) => x.id === BLOCKED).verdict, 'blocked');
  const text = textSummary(r);
  assert.match(text, /blocked/);
  assert.match(text, /⛔ ERR\.PROBLEM_JSON\.CONTENT_TYPE: "fixture › a missing key gets 401 " stopped when AUTH\.REST_V2\.MISSING_401 failed/);
});

test('blocked: the baseline records it as its own verdict; blocked where the file expects fail (or pass) is a change', () => {
  const r = report();
  const file = updatedBaseline(r, { rules: {} });
  assert.equal(file.rules[BLOCKED]!.verdict, 'blocked');
  assert.match(file.rules[BLOCKED]!.note, /^blocked: /);
  assert.equal(applyBaseline(r, file, 'b.json').baseline!.matched, true);
  const expectsFail = { ...file, rules: { ...file.rules, [BLOCKED]: { verdict: 'fail' as const, note: 'known' } } };
  assert.deepEqual(applyBaseline(r, expectsFail, 'b.json').baseline!.changes, [{ rule: BLOCKED, expected: 'fail', actual: 'blocked', kind: 'changed', note: 'known' }]);
  const { [BLOCKED]: _dropped, ...rest } = file.rules;
  assert.deepEqual(applyBaseline(r, { rules: rest }, 'b.json').baseline!.changes.map((c) => [c.rule, c.expected, c.actual, c.kind]), [[BLOCKED, 'conforming', 'blocked', 'changed']]);
});

test('blocked: the diff tells blocked from fail and from pass', () => {
  const a = report();
  const b: ConformanceReport = { ...a, rules: a.rules.map((x) => (x.id === BLOCKED ? { ...x, verdict: 'pass' } : x)) };
  const d = diffReports(a, b);
  assert.deepEqual(d.rules.map((x) => [x.id, x.a?.verdict, x.b?.verdict]), [[BLOCKED, 'blocked', 'pass']]);
  assert.equal(diffReports(a, report()).identical, true);
});

test('blast radius: the section validates and renders in HTML and Markdown', () => {
  const r: ConformanceReport = {
    ...report(),
    blastRadius: {
      generatedAt: '2025-01-01T01:00:00.000Z', durationMs: 61_000, faults: 2, limit: 3, median: 2.5, max: 4, missingOwnRule: 1, overLimit: 1,
      rows: [
        { fault: 'pods.create-answers-200', rule: 'POD.CREATE.201_POD', failedMust: ['POD.CREATE.201_POD'], ownRule: true, tests: 300, failedTests: 9, blockedTests: 8 },
        { fault: 'problem.no-detail', rule: 'ERR.REST_V2.DETAIL', failedMust: ['A.B', 'C.D', 'E.F', 'G.H'], ownRule: false, tests: 300, failedTests: 4, blockedTests: 0 },
      ],
    },
  };
  assert.deepEqual(validateReport(r), { valid: true });
  const html = htmlRenderer.render(r);
  assert.match(html, /Blast radius: the whole suite, one fault at a time/);
  assert.match(html, /median <strong>2\.5<\/strong>, max <strong>4<\/strong>/);
  const md = markdownRenderer.render(r);
  assert.match(md, /median \*\*2\.5\*\*, max \*\*4\*\* \(limit 3\); 1 without their own rule, 1 over the limit/);
  assert.match(md, /`problem\.no-detail` \| `ERR\.REST_V2\.DETAIL` \(missing\) \| 4: A\.B, C\.D, E\.F, G\.H/);
  assert.doesNotMatch(md, /`pods\.create-answers-200`/, 'faults within the limit are not listed');
});
