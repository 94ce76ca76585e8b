// The verdict says what it covers: every format states how many MUST rules the run decided of
// the total and why the rest were not; --require-all-must (CPC_REQUIRE_ALL_MUST, the profile's
// requireAllMust) fails a run that left one undecided. Older reports still render, merge and diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rule } from '../lib/rules.js';
import { buildReport } from '../reports/build.js';
import type { ConformanceReport } from '../reports/model.js';
import type { RawTestResult } from '../reports/raw.js';
import { allMustBreach, coverageOf, mustCoverage } from '../reports/coverage.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { htmlRenderer } from '../reports/render/html.js';
import { junitRenderer } from '../reports/render/junit.js';
import { textSummary } from '../reports/summary.js';
import { mergeReports } from '../reports/merge.js';
import { diffReports } from '../reports/diff.js';
import { validateReport } from '../reports/validate.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { exitCodeOfReport } from '../run/publish.js';
import { loadProfile } from '../lib/profile.js';
import { ConfigError } from '../lib/errors.js';

const must = (id: string): Rule => ({ id, level: 'MUST', surface: 'rest-v2', section: 'S', statement: id, quote: 'q' });
const RULES = ['A.ONE', 'A.TWO', 'A.THREE', 'A.FOUR', 'A.FIVE', 'A.SIX', 'A.SEVEN'].map(must);
let n = 0;
const raw = (status: RawTestResult['status'], rules: string[], extra: Partial<RawTestResult> = {}): RawTestResult => ({
  id: `t${++n}`, project: 'contract', file: 'contract/specs/x.spec.ts', title: `test ${n}`, titlePath: [`test ${n}`], status, expectedStatus: 'passed', durationMs: 1,
  rules, failedRules: [], observed: [], ...extra,
});

/** A deployment-like run: 2 decided (a pass, a fail), 5 not (a worker endpoint, the control surface twice, blocked, no test). */
function deploymentLike(): ConformanceReport {
  return buildReport({
    rules: RULES, target: { kind: 'remote', baseUrl: 'https://api.example.test', keys: { main: true, readonly: false, other: false }, emulator: false, faults: [] },
    startedAt: new Date('2025-01-01T00:00:00Z'), finishedAt: new Date('2025-01-01T00:01:00Z'), complete: true, suiteVersion: '0.1.0',
    raw: [
      raw('passed', ['A.ONE']),
      raw('failed', ['A.TWO'], { failedRules: ['A.TWO'], error: '[A.TWO] broken' }),
      raw('skipped', ['A.THREE'], { skipReason: 'needs a queue-based endpoint running the conformance handler (set CPC_ENDPOINT_ID)' }),
      raw('skipped', ['A.FOUR', 'A.FIVE'], { skipReason: "needs the emulator's control surface to move the virtual clock; the target has none" }),
      raw('skipped', ['A.SIX'], { blocked: 'no GPU capacity for the body on any candidate', skipReason: 'blocked: no GPU capacity' }),
    ],
  });
}

const SENTENCE = 'NOT CONFORMANT on 2 of 7 MUST rules; 5 not decided (2 need the emulator\'s control surface, 1 blocked before their check, 1 need a worker endpoint (CPC_ENDPOINT_ID), 1 no test checks them)';

test('coverage: decided MUST rules are pass and fail; the rest are grouped by cause, largest first', () => {
  const r = deploymentLike();
  assert.deepEqual(r.summary.must, { total: 7, decided: 2, undecided: [
    { cause: "need the emulator's control surface", count: 2 }, { cause: 'blocked before their check', count: 1 },
    { cause: 'need a worker endpoint (CPC_ENDPOINT_ID)', count: 1 }, { cause: 'no test checks them', count: 1 }] });
  assert.deepEqual(validateReport(r), { valid: true });
});

test('coverage: every format states the sentence (summary.md, report.html, junit.xml, the terminal; conformance.json holds the counts)', () => {
  const r = deploymentLike();
  assert.ok(markdownRenderer.render(r).includes(`**Verdict: ${SENTENCE}.**`));
  assert.ok(htmlRenderer.render(r).includes(`<p id="coverage">${SENTENCE.replace("'", '&#39;')}</p>`), 'report.html');
  const xml = junitRenderer.render(r);
  assert.ok(xml.includes(`<property name="verdict" value="${SENTENCE.replace("'", '&apos;')}"/>`), 'junit.xml');
  assert.ok(xml.includes('<property name="verdict.must.decided" value="2"/>') && xml.includes('<property name="verdict.must.total" value="7"/>'));
  assert.ok(textSummary(r).includes(`Result: ${SENTENCE}`));
});

test('coverage: a run that decided every MUST rule says so', () => {
  const r = buildReport({ rules: RULES.slice(0, 2), raw: [raw('passed', ['A.ONE', 'A.TWO'])], target: { kind: 'embedded', keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] },
    startedAt: new Date(), finishedAt: new Date(), complete: true, suiteVersion: '0.1.0' });
  assert.match(textSummary(r), /Result: CONFORMANT on all 2 MUST rules, every one decided$/);
  assert.equal(allMustBreach(r), undefined);
  assert.equal(exitCodeOfReport(r, false, undefined, true), 0);
});

test('coverage: --require-all-must fails a conformant run that left a MUST rule undecided, and names why', () => {
  const r = buildReport({ rules: RULES.slice(0, 3), raw: [raw('passed', ['A.ONE']), raw('skipped', ['A.TWO', 'A.THREE'], { skipReason: 'the target has no readonly key (set CPC_API_KEY_READONLY)' })],
    target: { kind: 'remote', keys: { main: true, readonly: false, other: false }, emulator: false, faults: [] }, startedAt: new Date(), finishedAt: new Date(), complete: true, suiteVersion: '0.1.0' });
  assert.equal(r.summary.conformant, true);
  assert.equal(exitCodeOfReport(r, false), 0, 'without the gate a conformant run passes');
  assert.equal(allMustBreach(r), '--require-all-must: decided 1 of 3 MUST rules; 2 not decided (2 need a read-only key (CPC_API_KEY_READONLY))');
  assert.equal(exitCodeOfReport(r, false, undefined, true), 1);
});

test('coverage: the gate by variable or profile field; a value other than true/false/1/0 is a named configuration error', () => {
  assert.equal(loadProfile({ CPC_REQUIRE_ALL_MUST: '1' }).requireAllMust, true);
  assert.equal(loadProfile({ CPC_REQUIRE_ALL_MUST: 'false' }).requireAllMust, false);
  assert.equal(loadProfile({}).requireAllMust, undefined);
  assert.throws(() => loadProfile({ CPC_REQUIRE_ALL_MUST: 'yes' }), (e: unknown) => e instanceof ConfigError && /CPC_REQUIRE_ALL_MUST must be true or false/.test(e.message));
});

test('coverage: a 2.2 report (no summary.must) renders with its coverage computed, merges without writing it and diffs', () => {
  const old = fixtureReport({ complete: true }) as ConformanceReport;
  const older: ConformanceReport = { ...old, schemaVersion: '2.2.0', summary: { ...old.summary } };
  delete older.summary.must;
  assert.deepEqual(validateReport(older), { valid: true });
  const computed = coverageOf(older);
  assert.deepEqual(computed, mustCoverage(older.rules));
  assert.match(markdownRenderer.render(older), new RegExp(`\\*\\*Verdict: NOT CONFORMANT on ${computed.decided} of ${computed.total} MUST rules; `));
  const shard = (i: number): ConformanceReport => ({ ...older, run: { ...older.run, configuration: { ...older.run.configuration, shard: `${i}/2`, partial: true } }, tests: older.tests.filter((_, k) => k % 2 === i - 1) });
  const merged = mergeReports([shard(1), shard(2)]);
  assert.equal(merged.schemaVersion, '2.2.0');
  assert.equal(merged.summary.must, undefined, 'a 2.2 merge stays a 2.2 report');
  assert.ok(junitRenderer.render(merged).includes('name="verdict.must.total"'));
  assert.equal(diffReports(older, old).a.conformant, older.summary.conformant);
});
