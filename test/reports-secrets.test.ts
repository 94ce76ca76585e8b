// No API key appears anywhere under the output folder. Recognisable keys are planted, one
// registered with registerSecret and one never registered (as a key minted in a test worker
// is, from the reporter's point of view), in every place a run can carry them: evidence
// headers, `?api_key=` URLs, bodies, curl lines, error messages, observations, skip reasons,
// property counterexamples. The whole pipeline runs (reporter, raw file, model, every
// renderer, baseline, diff) and every file written is searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { registerSecret } from '../lib/redact.js';
import RawResultsReporter from '../reports/playwright-reporter.js';
import { ANNOTATION } from '../lib/protocol.js';
import { readRaw } from '../reports/raw-read.js';
import { buildReport } from '../reports/build.js';
import { writeReports, writeScrubbed } from '../reports/write.js';
import { updatedBaseline, writeBaseline } from '../reports/baseline.js';
import { diffReports } from '../reports/diff.js';
import { diffMarkdown } from '../reports/render/diff-markdown.js';
import { diffHtml } from '../reports/render/diff-html.js';
import { fixtureReport, fixtureRules } from '../reports/test/fixture.js';
import { filesContaining, filesUnder, tempDir } from './reports-support.js';

const REGISTERED = 'rk-PLANTED-registered-5f1c9a7e3b2d4c6a';
const UNREGISTERED = 'uk-PLANTED-unregistered-9e8d7c6b5a4f3e2d';
const EMULATOR_KEY = 'cpk_PLANTEDemulatorKey0123456789';
const KEYS = [REGISTERED, UNREGISTERED, EMULATOR_KEY];

/** Everything a test result can carry, with the keys in it; the first test shows them in free text only. */
function fakeRun(): { tests: TestCase[]; results: TestResult[] } {
  const evidence = [{
    operation: 'createPod',
    request: { method: 'POST', url: `http://127.0.0.1:1/graphql?api_key=${UNREGISTERED}`, headers: { authorization: `Bearer ${UNREGISTERED}`, 'x-api-key': REGISTERED }, body: `{"apiKey":"${UNREGISTERED}","name":"${EMULATOR_KEY}"}`, bodyBytes: 90 },
    response: { status: 401, headers: { 'www-authenticate': `Bearer realm="${REGISTERED}"` }, body: `{"detail":"key ${UNREGISTERED} is not valid (${REGISTERED})"}`, bodyBytes: 60, durationMs: 1 },
    curl: `curl -sS -X POST 'http://127.0.0.1:1/v2/x/run' -H 'authorization: ${UNREGISTERED}' -H 'authorization: ${REGISTERED}'`,
  }];
  const mk = (id: string, title: string): TestCase => ({
    id, title, location: { file: join(process.cwd(), 'contract/specs/x.spec.ts'), line: 1, column: 1 },
    titlePath: () => ['', 'contract', 'x.spec.ts', title], expectedStatus: 'passed',
    annotations: [{ type: ANNOTATION.rule, description: 'AUTH.REST_V2.MISSING_401' }, { type: ANNOTATION.rule, description: 'POD.CREATE.GPU_AND_CPU_STATUS' }],
    parent: { project: () => ({ name: 'contract' }) },
  }) as unknown as TestCase;
  const result = (extra: Partial<TestResult>): TestResult => ({ status: 'failed', duration: 5, startTime: new Date(0), parallelIndex: 0, annotations: [], attachments: [], ...extra }) as unknown as TestResult;
  const tests = [mk('early', 'free text first'), mk('late', 'keys in their usual places')];
  const results = [
    result({
      error: { message: `expected 401, the target echoed ${UNREGISTERED} and ${REGISTERED} and ${EMULATOR_KEY}` },
      annotations: [{ type: ANNOTATION.skip, description: `not with ${UNREGISTERED}` }, { type: ANNOTATION.ruleFailed, description: 'AUTH.REST_V2.MISSING_401' },
        { type: ANNOTATION.property, description: JSON.stringify({ seed: 1, numRuns: 1, counterexample: `["${UNREGISTERED}"]` }) },
        { type: ANNOTATION.observed, description: JSON.stringify({ rule: 'POD.CREATE.GPU_AND_CPU_STATUS', value: { echoed: UNREGISTERED, authorization: REGISTERED } }) }],
    }),
    result({
      error: { message: `request failed: authorization: Bearer ${UNREGISTERED}` },
      attachments: [{ name: 'evidence', contentType: 'application/json', body: Buffer.from(JSON.stringify(evidence)) }],
    }),
  ];
  return { tests, results };
}

test('secrets: no planted key survives anywhere under the output folder', () => {
  const { dir, done } = tempDir('secrets');
  try {
    registerSecret(REGISTERED);
    const rawDir = join(dir, 'raw');
    const { tests, results } = fakeRun();
    const reporter = new RawResultsReporter({ rawDir });
    reporter.onBegin({ workers: 1 } as FullConfig, { allTests: () => tests } as unknown as Suite);
    tests.forEach((t, i) => reporter.onTestEnd(t, results[i]!));
    reporter.onEnd({ status: 'failed' } as FullResult);

    const raw = readRaw(rawDir);
    assert.equal(raw.tests.length, 2, 'both results are kept');
    const report = buildReport({ rules: fixtureRules, raw: raw.tests, planned: raw.planned, target: { kind: 'remote', baseUrl: 'http://127.0.0.1:1', keys: { main: true, readonly: false, other: false }, emulator: false, faults: [] },
      startedAt: new Date(0), finishedAt: new Date(1), complete: true, suiteVersion: '0' });
    writeReports(report, dir);
    writeBaseline(join(dir, 'baseline.json'), updatedBaseline(report, { rules: {} }));
    const d = diffReports(report, fixtureReport());
    writeScrubbed(join(dir, 'diff'), 'diff.md', diffMarkdown(d));
    writeScrubbed(join(dir, 'diff'), 'diff.html', diffHtml(d));

    const files = filesUnder(dir);
    assert.ok(files.length >= 8, files.join(', '));
    if (process.env.KEEP) console.log(dir);
    for (const key of KEYS) assert.deepEqual(filesContaining(dir, key), [], `${key} leaked`);
    const json = readFileSync(join(dir, 'conformance.json'), 'utf8');
    assert.match(json, /\[REDACTED\]/);
    assert.match(json, /is not valid/, 'the evidence itself is kept, only the keys go');
  } finally {
    if (!process.env.KEEP) done();
  }
});

test('secrets: a report built from unscrubbed records is scrubbed when written', () => {
  const { dir, done } = tempDir('secrets-model');
  try {
    // Straight into the model, as a future producer might: the writer is the last line of defence.
    writeReports(fixtureReport({ plantedKey: UNREGISTERED, hostile: `echo ${UNREGISTERED}` }), dir);
    assert.deepEqual(filesContaining(dir, UNREGISTERED), []);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /echo \[REDACTED\]/);
  } finally {
    done();
  }
});
