// @own-process: starts cpc processes.
// The chaos matrix (npm run chaos, run/detection/chaos.ts): a seed is clean only when it ran to
// its end with no failed MUST rule, and what failed is named with its test; a bad chaos option
// or fault or variant the emulator would refuse is a configuration error naming it (exit 2),
// before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildChaosMatrix, chaosMatrixPasses, chaosMatrixText, chaosRow } from '../run/detection/chaos.js';
import type { ConformanceReport } from '../reports/model.js';
import { cpc, envWith } from './cli-support.js';
import { ROOT } from './reports-support.js';

function report(verdicts: Record<string, 'pass' | 'fail' | 'blocked'>, complete = true): ConformanceReport {
  return {
    run: { complete, ...(complete ? {} : { interruption: 'interrupted by SIGINT' }) },
    summary: { tests: { total: 2, passed: 1, failed: 1, skipped: 0, interrupted: 0, notRun: 0 } },
    tests: [
      { id: 't1', file: 'contract/specs/a.spec.ts', title: 'a test', status: 'failed', failedRules: ['A'], error: 'NonConformanceError: the target breaks 1 expectation(s):\n  [A] wrong' },
      { id: 't2', file: 'contract/specs/b.spec.ts', title: 'b test', status: 'passed', failedRules: [] },
    ],
    rules: Object.entries(verdicts).map(([id, verdict]) => ({
      id, level: id === 'O' ? 'OBSERVED' : 'MUST', verdict,
      ...(verdict === 'fail' ? { failures: [{ test: 't1', message: '[A] wrong\nsecond line' }] } : {}),
      ...(verdict === 'blocked' ? { blockedReasons: [{ test: 't1', rules: ['A'], reason: 'stopped when A failed' }] } : {}),
    })),
  } as unknown as ConformanceReport;
}

test('chaos matrix: a failed MUST rule makes its seed unclean, named with its test and message', () => {
  const bad = chaosRow(3, '3', 'CPC_SEED=3 npm run conformance -- --chaos 3 --skip-load', 1, 12_000, report({ A: 'fail', B: 'blocked', C: 'pass', O: 'fail' }));
  assert.deepEqual(bad.must, { total: 3, pass: 1, fail: 1, blocked: 1, skip: 0, untested: 0 });
  assert.deepEqual(bad.failedMust, [{ rule: 'A', failures: [{ test: 'contract/specs/a.spec.ts › a test', message: '[A] wrong / second line' }] }]);
  assert.deepEqual(bad.blockedMust, [{ rule: 'B', reasons: [{ test: 'contract/specs/a.spec.ts › a test', reason: 'stopped when A failed', rules: ['A'] }] }]);
  const good = chaosRow(4, '4', 'r', 0, 11_000, report({ B: 'blocked', C: 'pass' }));
  const m = buildChaosMatrix([bad, good], 'virtual', 0, 23_000);
  assert.equal(m.clean, 1);
  assert.equal(chaosMatrixPasses(m), false);
  assert.equal(chaosMatrixPasses(buildChaosMatrix([good], 'virtual', 0, 1)), true);
  const text = chaosMatrixText(m);
  assert.match(text, /1\/2 seeds without a failed MUST rule/);
  assert.match(text, /✗ seed 3 .*MUST pass 1, fail 1, blocked 1/);
  assert.match(text, /fail A\n {8}contract\/specs\/a\.spec\.ts › a test: \[A\] wrong \/ second line/);
  assert.match(text, /replay: CPC_SEED=3 npm run conformance -- --chaos 3 --skip-load/);
  // A run that wrote no report, or did not end, is never clean.
  assert.equal(buildChaosMatrix([chaosRow(5, '5', 'r', 1, 1, undefined)], 'virtual', 0, 1).clean, 0);
  assert.equal(buildChaosMatrix([chaosRow(6, '6', 'r', 130, 1, report({ C: 'pass' }, false))], 'real-time', 120, 1).clean, 0);
});

test('chaos matrix: a bad --chaos, CPC_EMULATOR_CHAOS or matrix option exits 2 naming it, before anything runs', () => {
  const conformance = cpc(['conformance', '--chaos', 'soon']);
  assert.equal(conformance.code, 2, conformance.stderr);
  assert.match(conformance.stderr, /configuration error: --chaos is <seed>\[,real-time\]\[,latency=<ms>\]\[,capacity=<share>\]\[,capacity-only\]: the seed is an integer/);
  assert.doesNotMatch(conformance.stdout, /Seed:/, 'no run started');
  const variable = cpc(['conformance'], { CPC_EMULATOR_CHAOS: '5,latency=fast' });
  assert.equal(variable.code, 2, variable.stderr);
  assert.match(variable.stderr, /configuration error: CPC_EMULATOR_CHAOS is <seed>.*latency is an integer from 0 to 5000 ms, got "5,latency=fast"/);
  // A setting the emulator's world schema refuses stops the run with one line, not in every test's fixture.
  for (const [args, env, setting] of [[['conformance', '--chaos', '7,capacity=0.95'], {}, '--chaos'], [['conformance'], { CPC_EMULATOR_VARIANTS: 'lists.nope' }, 'CPC_EMULATOR_VARIANTS']] as const) {
    const refused = cpc([...args], env);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`^cpc: configuration error: ${setting}`));
    assert.doesNotMatch(refused.stdout, /Seed:/, 'no run started');
  }
  const detect = cpc(['detect', '--chaos', '1,warp']);
  assert.equal(detect.code, 2, detect.stderr);
  assert.match(detect.stderr, /--chaos is <seed>.*unknown part "warp"/);
  const emulator = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'emulator', 'main.ts'), '--port', '0', '--chaos', 'x'], { cwd: ROOT, env: envWith({}), encoding: 'utf8', timeout: 60_000 });
  assert.equal(emulator.status, 2, emulator.stderr);
  assert.match(emulator.stderr, /emulator: --chaos is <seed>/);
  const matrix = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'commands', 'chaos.ts'), '--seeds', '0'], { cwd: ROOT, env: envWith({}), encoding: 'utf8', timeout: 60_000 });
  assert.equal(matrix.status, 2, matrix.stderr);
  assert.match(matrix.stderr, /chaos: configuration error: --seeds must be an integer from 1 to 1000, got "0"/);
  // --from fresh draws the first seed and prints it with the replay (the bad latency then stops the run before it starts).
  const fresh = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'commands', 'chaos.ts'), '--seeds', '1', '--from', 'fresh', '--property-runs', '50', '--latency-ms', 'x'], { cwd: ROOT, env: envWith({}), encoding: 'utf8', timeout: 60_000 });
  assert.equal(fresh.status, 2, fresh.stderr);
  const drawn = /^chaos: fresh seed\(s\) from (\d+) \(replay: npm run chaos -- --seeds 1 --from (\d+) --property-runs 50 --latency-ms x\)$/m.exec(fresh.stdout);
  assert.ok(drawn && drawn[1] === drawn[2], fresh.stdout);
  assert.match(fresh.stderr, /--latency-ms must be an integer/);
});
