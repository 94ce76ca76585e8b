// The JUnit file against the Jenkins/Ant JUnit schema (reports/junit.xsd) with xmllint, and its shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { junitRenderer } from '../reports/render/junit.js';
import { applyBaseline, updatedBaseline } from '../reports/baseline.js';
import { fixtureReport } from '../reports/test/fixture.js';
import type { ConformanceReport } from '../reports/model.js';

const XSD = readFileSync(new URL('../reports/junit.xsd', import.meta.url), 'utf8');

async function lint(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] });
  return { valid: r.valid, errors: r.errors.map((e) => e.message) };
}

const count = (xml: string, re: RegExp): number => (xml.match(re) ?? []).length;

const reports: [string, () => ConformanceReport][] = [
  ['an incomplete run with failures, skips, observations, property and load results', () => fixtureReport()],
  ['a complete run', () => fixtureReport({ complete: true })],
  ['hostile strings (markup, quotes, control characters)', () => fixtureReport({ hostile: `]]></failure><testcase name="x"/>&amp; "' \u0001\u0008\u001b[31m \uFFFE` })],
  ['a run with a baseline', () => { const r = fixtureReport(); return applyBaseline(r, updatedBaseline(r, { rules: {} }), 'b.json'); }],
];

for (const [name, make] of reports) {
  test(`junit: ${name} is valid against the JUnit XSD`, async () => {
    const xml = junitRenderer.render(make());
    const result = await lint(xml);
    assert.deepEqual(result.errors, []);
    assert.equal(result.valid, true);
  });
}

test('junit: the XSD check can fail (a test case without a name, a non-numeric count)', async () => {
  const bad = await lint('<?xml version="1.0"?><testsuites><testsuite name="s" tests="x" failures="0" errors="0"><testcase/></testsuite></testsuites>');
  assert.equal(bad.valid, false);
  assert.ok(bad.errors.length >= 2, JSON.stringify(bad.errors));
});

test('junit: one test case per rule and one per test, with failures and skips counted', () => {
  const report = fixtureReport();
  const xml = junitRenderer.render(report);
  assert.equal(count(xml, /<testcase /g), report.rules.length + report.tests.length);
  const failedRules = report.rules.filter((r) => r.verdict === 'fail').length;
  assert.equal(count(xml, /<failure /g), failedRules + report.summary.tests.failed);
  assert.match(xml, /<testsuites name="compute-platform-conformance" tests="20" failures="6"/);
  assert.match(xml, /<testsuite name="rules: rest-v2" tests="4" failures="2"/);
  assert.match(xml, /<skipped message="not run: the run ended before this test started"\/>/);
  assert.match(xml, /counterexample: \[\{&quot;name&quot;:&quot;a&quot;/, 'a property failure carries its counterexample');
  assert.match(xml, /replay: CPC_SEED=1234/);
});

test('junit: with a baseline, known differences are skipped and only changes fail', () => {
  const report = fixtureReport();
  const baseline = updatedBaseline(report, { rules: {} });
  const same = junitRenderer.render(applyBaseline(report, baseline, 'b.json'));
  assert.equal(count(same, /<failure /g), 0, 'every difference is known');
  assert.match(same, /known difference \(baseline: fail\)/);
  delete baseline.rules['AUTH.REST_V2.MISSING_401'];
  const changed = junitRenderer.render(applyBaseline(report, baseline, 'b.json'));
  assert.equal(count(changed, /type="baseline-changed"/g), 1);
  assert.match(changed, /AUTH\.REST_V2\.MISSING_401: baseline expects conforming, the run gave fail/);
});
