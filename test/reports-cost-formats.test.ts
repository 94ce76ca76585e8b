// The cost section in the four formats: the totals first in one line, planned against created,
// requests by surface and the heaviest tests, pod-minutes, rate-limit waits and leftovers; what
// an emulator run cannot measure said so; an older report renders without it; keys stay out;
// `cpc report` adds a deployment run's files, `cpc report --merge` and `cpc diff` take old reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import type { ConformanceReport } from '../reports/model.js';
import { REPORT_SCHEMA_VERSION } from '../reports/model.js';
import { validateReport } from '../reports/validate.js';
import { writeReports } from '../reports/write.js';
import { htmlRenderer } from '../reports/render/html.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { junitRenderer } from '../reports/render/junit.js';
import { textSummary } from '../reports/summary.js';
import { readCostFiles } from '../reports/cost.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { costReport, writeDeploymentFiles } from '../reports/test/cost-fixture.js';
import { filesContaining, tempDir } from './reports-support.js';
import { cpcHere } from './cpc-here.js';

const XSD = readFileSync(new URL('../reports/junit.xsd', import.meta.url), 'utf8');
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function deploymentReport(secret = ''): ConformanceReport {
  const { dir, done } = tempDir('cost-fmt');
  try {
    writeDeploymentFiles(dir, undefined, 'r1', secret);
    return costReport(readCostFiles(dir));
  } finally {
    done();
  }
}

const oldReport = (): ConformanceReport => ({ ...clone(fixtureReport({ complete: true })), schemaVersion: '2.1.0' });

test('cost formats: summary.md leads the section with the totals in one line, then planned against created and the leftovers', () => {
  const md = markdownRenderer.render(deploymentReport());
  const section = md.slice(md.indexOf('## Cost'), md.indexOf('\n## ', md.indexOf('## Cost') + 1));
  assert.match(section, /^## Cost\n\n\*\*≈ \\\$0\.43 estimated \\\(1 pod unpriced\\\) · 13 resources created \\\(3 GPU pods, 5 CPU pods, 2 network volumes, 1 endpoint \\\(1 warm\\\), 1 template, 1 secret\\\) · 19\.8 pod-minutes · 1,234 requests · 12\.3 s waited for the rate limit · 1 LEFT BEHIND\*\*\n/);
  assert.match(section, /\| Kind \| Planned \| Created \| By the tests \|\n\| --- \| ---: \| ---: \| ---: \|\n\| GPU pods \| 2 \| 3 \| 2 \|/);
  assert.match(section, /\*\*Requests by surface:\*\* rest-v2 52 · rest-v1 4 · graphql 3 · serverless 1 \(the whole run, teardown included: 1,234\)/);
  assert.match(section, /\*\*Pod-minutes:\*\* GPU NVIDIA A40 12\.5 · CPU cpu3c 7\.3/);
  assert.match(section, /\*\*Plan:\*\* 1,500 requests, ≈ \\\$2\.50 at most; pools: cpuPod, gpuPod/);
  assert.match(section, /\*\*Rate limit:\*\* 12\.3 s waited by 1 test\(s\); 3 429 answer\(s\) waited out, 1 given back/);
  assert.match(section, /> \[!WARNING\]\n> \*\*1 resource\(s\) could not be deleted\*\*: delete them by hand\.\n\n\| Kind \| Id \| Name \| Reason \| Created by \|\n[^\n]+\n\| pod \| `pod-9` \| cpc-r1-gpu \| DELETE answered 500 \| pods › create \|/);
  assert.match(section, /<details><summary>Top 6 tests by requests<\/summary>\n\n\| Test \| Requests \| By surface \|\n[^\n]+\n\| fixture › createPod accepts every valid request \\\(seed 1234\\\) \| 40 \| rest-v2 40 \|/);
  assert.doesNotMatch(section, /not measured/);
  assert.ok(md.indexOf('## Cost') > md.indexOf('Failing rules (') && md.indexOf('Failing rules (') > md.indexOf('## Totals'), 'after the verdict parts');
});

test('cost formats: an emulator run (no files) shows what the raw results give and says the rest is not measured', () => {
  const r = costReport();
  const md = markdownRenderer.render(r);
  assert.match(md, /## Cost\n\n\*\*9 resources created by the tests \\\(2 GPU pods, 3 CPU pods, 1 network volume, 1 endpoint \\\(1 warm\\\), 1 template, 1 secret\\\) · 60 requests\*\* {2}\nNot measured on this target: cost and pod-minutes \\\(usage\.json\\\), rate-limit waits \\\(pacing\.json\\\), leftovers \\\(leftovers\.json\\\)\./);
  assert.match(md, /\| Kind \| Created by the tests \|/);
  const page = htmlRenderer.render(r);
  assert.match(page, /<p class="small muted">Not measured on this target: cost and pod-minutes \(usage\.json\), rate-limit waits \(pacing\.json\), leftovers \(leftovers\.json\);/);
  assert.match(textSummary(r), /^cost: 9 resources created by the tests .* · 60 requests; not measured on this target: /m);
});

test('cost formats: report.html has a compact Cost section after the totals, self-contained, listed in the contents', () => {
  const page = htmlRenderer.render(deploymentReport());
  const start = page.indexOf('<section id="cost">');
  assert.ok(start > page.indexOf('<section id="totals">') && start < page.indexOf('<section id="matrix">'), 'after the totals, before the rule matrix');
  const section = page.slice(start, page.indexOf('</section>', start));
  assert.match(section, /<h2>Cost<\/h2>\n<p class="cost-line"><strong>≈ \$0\.43 estimated \(1 pod unpriced\) · 13 resources created \(3 GPU pods/);
  assert.match(section, /<div class="banner bad"><strong>1 resource\(s\) could not be deleted<\/strong>/);
  assert.match(section, /<table id="cost-kinds"><thead><tr><th>Kind<\/th><th class="num">planned<\/th><th class="num">created<\/th><th class="num">by the tests<\/th>/);
  for (const id of ['cost-surfaces', 'cost-minutes', 'cost-shapes', 'cost-top']) assert.match(section, new RegExp(`<table id="${id}">`));
  assert.match(section, /<dt>Rate limit<\/dt><dd>12\.3 s waited by 1 test\(s\)/);
  assert.match(page, /<nav class="toc">.*<a href="#cost">Cost<\/a>/);
  assert.doesNotMatch(page, /(src|href)="(https?:)?\/\//, 'no external asset');
});

test('cost formats: junit.xml carries the section as <properties> of a "cost" suite, valid against the JUnit XSD', async () => {
  const xml = junitRenderer.render(deploymentReport('<&"\'>'));
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] });
  assert.deepEqual(result.errors.map((e) => e.message), []);
  assert.match(xml, /<testsuite name="cost" tests="0" failures="0" errors="0" skipped="0" time="0\.000" timestamp="2025-01-01T00:00:00">\n {4}<properties>\n {6}<property name="cost\.summary" value="≈ \$0\.43 estimated/);
  for (const [name, value] of [['cost.requests.total', '60'], ['cost.requests.rest-v2', '52'], ['cost.requests.run', '1234'], ['cost.created.run.gpuPods', '3'], ['cost.created.planned.gpuPods', '2'],
    ['cost.created.tests.gpuPods', '2'], ['cost.podMinutes.gpu.NVIDIA A40', '12.5'], ['cost.estimatedUsd', '0.43'], ['cost.rateLimit.waitedMs', '12345'], ['cost.leftovers', '1']]) {
    assert.ok(xml.includes(`<property name="${name}" value="${value}"/>`), `${name}=${value}`);
  }
  assert.match(xml, /<property name="cost\.leftover\.1" value="pod pod-9 \(cpc-r1-gpu &lt;&amp;&quot;&apos;&gt;\): DELETE answered 500"\/>/);
  // The totals of <testsuites> are the rules' and tests' only.
  const plain = junitRenderer.render({ ...deploymentReport(), cost: undefined } as ConformanceReport);
  assert.equal(/<testsuites [^>]*>/.exec(xml)![0], /<testsuites [^>]*>/.exec(plain)![0]);
});

test('cost formats: conformance.json holds the section and validates; an older report renders every format without it', () => {
  const { dir, done } = tempDir('cost-write');
  try {
    writeReports(deploymentReport(), join(dir, 'new'));
    const saved = JSON.parse(readFileSync(join(dir, 'new', 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(saved.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.equal(saved.cost!.estimatedCostUsd, 0.4321);
    assert.deepEqual(validateReport(saved), { valid: true });

    writeReports(oldReport(), join(dir, 'old'));
    const md = readFileSync(join(dir, 'old', 'summary.md'), 'utf8');
    const page = readFileSync(join(dir, 'old', 'report.html'), 'utf8');
    const xml = readFileSync(join(dir, 'old', 'junit.xml'), 'utf8');
    assert.doesNotMatch(md, /## Cost/);
    assert.doesNotMatch(page, /id="cost"|href="#cost"/);
    assert.doesNotMatch(xml, /name="cost"/);
    assert.match(md, /^# /);
    assert.match(page, /<table class="matrix">/);
  } finally {
    done();
  }
});

test('cost formats: a key in a leftover\'s name or test is redacted in every file', () => {
  const { dir, done } = tempDir('cost-secret');
  try {
    const key = 'cpk_costLeakAAAAAAAAAAAAAAAAAAAAAA';
    writeReports(deploymentReport(`api_key=${key}`), dir);
    assert.deepEqual(filesContaining(dir, key), []);
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /could not be deleted/);
  } finally {
    done();
  }
});

test('cost formats: cpc report adds a deployment run\'s files beside the report; --merge and diff take reports without the section', () => {
  const { dir, done } = tempDir('cost-cli');
  try {
    // A report just written by a run whose files are beside it (they are from its run: written during it).
    const now = Date.now();
    const run = costReport(undefined, { startedAt: new Date(now - 60_000), finishedAt: new Date(now + 30_000) });
    mkdirSync(join(dir, 'run'));
    writeFileSync(join(dir, 'run', 'conformance.json'), JSON.stringify(run));
    writeDeploymentFiles(join(dir, 'run'));
    const again = cpcHere(['report', '--from', join(dir, 'run', 'conformance.json'), '--out', join(dir, 'again')]);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /^cost: ≈ \$0\.43 estimated .* · 1 LEFT BEHIND$/m);
    const rendered = JSON.parse(readFileSync(join(dir, 'again', 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(rendered.cost!.sources.usage, true);
    assert.match(readFileSync(join(dir, 'again', 'summary.md'), 'utf8'), /## Cost\n\n\*\*≈ \\\$0\.43 estimated/);

    // Partial reports of a 2.1 suite: merged and diffed as before.
    const old = oldReport();
    const shard = (i: number): ConformanceReport => ({ ...clone(old), run: { ...clone(old.run), configuration: { ...old.run.configuration, shard: `${i}/2`, partial: true } }, tests: old.tests.filter((_, k) => k % 2 === i - 1) });
    for (const i of [1, 2]) writeFileSync(join(dir, `old-${i}.json`), JSON.stringify(shard(i)));
    const merged = cpcHere(['report', '--merge', join(dir, 'old-1.json'), join(dir, 'old-2.json'), '--out', join(dir, 'merged')]);
    assert.match(merged.out, /Reports: /, merged.out);
    const m = JSON.parse(readFileSync(join(dir, 'merged', 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.equal(m.cost, undefined);
    assert.equal(m.schemaVersion, '2.1.0');
    writeFileSync(join(dir, 'old.json'), JSON.stringify(old));
    writeFileSync(join(dir, 'new.json'), JSON.stringify({ ...clone(old), schemaVersion: REPORT_SCHEMA_VERSION, cost: deploymentReport().cost }));
    const diff = cpcHere(['diff', join(dir, 'old.json'), join(dir, 'new.json'), '--out', join(dir, 'diff')]);
    assert.equal(diff.code, 0, diff.out);
  } finally {
    done();
  }
});
