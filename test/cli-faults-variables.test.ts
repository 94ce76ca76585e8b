// @own-process: runs cpc conformance against the embedded emulator.
// The faults a user names by variable (CPC_EMULATOR_FAULTS) and by flag (--faults) both reach
// every emulator world of the run (their union), and the report records them beside the
// conforming variants (CPC_EMULATOR_VARIANTS) the worlds answered with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpc } from './cli-support.js';
import { tempDir } from './reports-support.js';

interface Report {
  target: { faults: { id: string }[]; variants?: string[] };
  rules: { id: string; verdict: string }[];
}

test('cli-faults: CPC_EMULATOR_FAULTS and --faults both reach the run; the report names them and the variants', { timeout: 240_000 }, () => {
  const { dir, done } = tempDir('faults-variables');
  try {
    const r = cpc(['conformance', '--skip-load', '--project', 'contract', '--grep', '@AUTH\\.REST_V2\\.MISSING_401|@MOUNT\\.BOTH_KINDS_400', '--faults', 'pods.mounts-both-accepted', '--out', dir, '--artifacts', join(dir, 'artifacts')],
      { CPC_EMULATOR_FAULTS: 'auth.missing-key-accepted', CPC_EMULATOR_VARIANTS: 'lists.bare' }, { timeoutMs: 230_000 });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;
    assert.deepEqual(report.target.faults.map((f) => f.id).sort(), ['auth.missing-key-accepted', 'pods.mounts-both-accepted']);
    assert.deepEqual(report.target.variants, ['lists.bare']);
    const verdict = (id: string) => report.rules.find((x) => x.id === id)?.verdict;
    assert.equal(verdict('AUTH.REST_V2.MISSING_401'), 'fail', 'the fault named by CPC_EMULATOR_FAULTS broke its rule');
    assert.equal(verdict('MOUNT.BOTH_KINDS_400'), 'fail', 'the fault named by --faults broke its rule');
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /variants: lists\.bare/);
  } finally {
    done();
  }
});
