// @own-process: starts whole cpc conformance runs.
// Distributed contract runs: `cpc conformance --shard i/n` writes a partial report, and
// `cpc report --merge` puts the shards together with every rule's verdict computed again from
// all the tests. End to end: shard 1/2 + shard 2/2 + merge give the rule verdicts of one
// unsharded run with the same seed (with a fault on, so some rules fail). Unit: a rule blocked
// on one shard and passed on the other is `pass` (the verdict table), never the worse of two
// partial verdicts; reports that do not belong together are refused with exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeReports } from '../reports/merge.js';
import type { ConformanceReport, TestOutcome } from '../reports/model.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { validateReport } from '../reports/validate.js';
import { cpc } from './cli-support.js';
import { cpcHere } from './cpc-here.js';
import { tempDir } from './reports-support.js';

const SEED = '20261124';
const SELECTION = ['--project', 'contract', '--grep', '@GQL\\.', '--faults', 'graphql.type-default-lb', '--skip-load', '--quiet-summary', '--workers', '1'];
const read = (dir: string): ConformanceReport => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
const verdicts = (r: ConformanceReport): Record<string, string> => Object.fromEntries(r.rules.map((x) => [x.id, x.verdict]));
const outcomes = (r: ConformanceReport): Record<string, string> => Object.fromEntries(r.tests.map((t) => [t.id, t.status]));

test('cli-shard: shard 1/2 + shard 2/2 merged give the rule verdicts of one run with the same seed', { timeout: 300_000 }, () => {
  const { dir, done } = tempDir('shard');
  try {
    const env = { CPC_SEED: SEED };
    const whole = cpc(['conformance', ...SELECTION, '--out', join(dir, 'whole'), '--artifacts', join(dir, 'a0')], env, { timeoutMs: 240_000 });
    assert.equal(whole.code, 1, `the fault makes the run non-conformant: ${whole.stderr}`);
    const parts = [1, 2].map((i) => {
      const r = cpc(['conformance', ...SELECTION, '--shard', `${i}/2`, '--out', join(dir, `s${i}`), '--artifacts', join(dir, `a${i}`)], env, { timeoutMs: 240_000 });
      assert.ok(r.code === 0 || r.code === 1, `shard ${i}/2 ran: ${r.stderr}`);
      const report = read(join(dir, `s${i}`));
      assert.equal(report.run.configuration.shard, `${i}/2`);
      assert.equal(report.run.configuration.partial, true);
      return report;
    });
    assert.ok(parts.every((p) => p.tests.length > 0 && p.tests.length < read(join(dir, 'whole')).tests.length), 'each shard ran a part of the tests');
    const merged = cpcHere(['report', '--merge', join(dir, 's1', 'conformance.json'), join(dir, 's2', 'conformance.json'), '--out', join(dir, 'merged')]);
    assert.equal(merged.code, 1, `merge exits as the run would: ${merged.out}`);
    const a = read(join(dir, 'whole'));
    const b = read(join(dir, 'merged'));
    assert.deepEqual(validateReport(b), { valid: true }, 'the merged report matches reports/report.schema.json');
    for (const p of parts) assert.deepEqual(validateReport(p), { valid: true }, 'a partial report matches the schema');
    assert.deepEqual(verdicts(b), verdicts(a), 'identical rule verdicts');
    assert.deepEqual(outcomes(b), outcomes(a), 'identical test outcomes');
    assert.deepEqual(b.summary.rules, a.summary.rules);
    assert.equal(b.summary.conformant, a.summary.conformant);
    assert.equal(b.run.seed, Number(SEED));
    assert.equal(b.run.configuration.mergedShards, 2);
    assert.equal(b.run.configuration.partial, undefined, 'the merged report is whole');
    assert.equal(verdicts(b)['GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB'], 'fail', 'the fault is caught in the merged report');
  } finally {
    done();
  }
});

const outcome = (id: string, status: TestOutcome['status'], rules: string[], failedRules: string[] = []): TestOutcome => ({
  id, kind: 'contract', title: id, file: 'contract/specs/x.spec.ts', status, durationMs: 1, rules, failedRules, ...(status === 'failed' ? { error: 'broke' } : {}),
});
function partial(index: number, tests: TestOutcome[], seed = 7): ConformanceReport {
  const base = fixtureReport();
  return { ...base, run: { ...base.run, seed, configuration: { ...base.run.configuration, shard: `${index}/2`, partial: true } }, tests };
}

test('cli-shard: merged verdicts are computed from all the tests, not combined from partial verdicts', () => {
  const [r1, r2] = fixtureReport().rules.map((r) => r.id) as [string, string];
  // Shard 1: a test of r1 stops when r2 breaks (r1 blocked there). Shard 2: another test of r1 passes.
  const merged = mergeReports([partial(1, [outcome('t1', 'failed', [r1, r2], [r2])]), partial(2, [outcome('t2', 'passed', [r1])])], ['s1', 's2']);
  const byId = Object.fromEntries(merged.rules.map((r) => [r.id, r.verdict]));
  assert.equal(byId[r1], 'pass', 'one test verified r1: pass (a worst-of merge would say blocked)');
  assert.equal(byId[r2], 'fail');
  assert.equal(merged.summary.tests.failed, 1);
  assert.equal(merged.summary.conformant, false);
});

test('cli-shard: reports that do not belong together are refused', () => {
  const one = partial(1, [outcome('t1', 'passed', [])]);
  assert.throws(() => mergeReports([one], ['s1']), /missing shard\(s\) 2\/2/);
  assert.throws(() => mergeReports([one, partial(2, [], 8)], ['s1', 's2']), /s2 has seed 8, s1 7 \(run every shard with the same CPC_SEED\)/);
  assert.throws(() => mergeReports([one, partial(1, [])], ['s1', 'again']), /shard 1\/2 given twice/);
  assert.throws(() => mergeReports([one, partial(2, [outcome('t1', 'passed', [])])], ['s1', 's2']), /test t1 .* is in two shards/);
  assert.throws(() => mergeReports([fixtureReport()], ['whole.json']), /whole\.json is not a partial report/);
  const { dir, done } = tempDir('merge-bad');
  try {
    const r = cpcHere(['report', '--merge', join(dir, 'nope.json')]);
    assert.equal(r.code, 2);
    assert.match(r.out, /report not found/);
  } finally {
    done();
  }
});
