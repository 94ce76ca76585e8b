// @own-process: runs cpc conformance (embedded emulator) on one test.
// A pass means its check ran: a rule a test declares but could not check on the target counts
// `skip` with the reason, never `pass` (contract/support/rules.ts `unchecked`). Two holds: no
// test notes a rule as not checked and carries on as if it had, and a real run of a test that
// cannot make its check (no endpoint of the account lists a pod) reports that rule skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadRules } from '../lib/rules.js';
import { cpc } from './cli-support.js';
import { filesUnder, ROOT, tempDir } from './reports-support.js';

test('pass-checked: no test records a rule it did not check as a note (a branch that cannot check a rule calls unchecked)', () => {
  const ids = loadRules().map((r) => r.id);
  const offenders: string[] = [];
  for (const file of [...filesUnder(join(ROOT, 'contract')), ...filesUnder(join(ROOT, 'property'))].filter((f) => f.endsWith('.ts'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      // A note and the text it records, on its line or the next (a long template literal).
      if (!/ANNOTATION\.note|\bnote\(/.test(line)) return;
      const text = line + (lines[i + 1] ?? '');
      const named = ids.filter((id) => text.includes(id));
      if (named.length) offenders.push(`${relative(ROOT, file)}:${i + 1} notes ${named.join(', ')}`);
    });
  }
  assert.deepEqual(offenders, [], 'a note naming a rule the test did not check: record it with unchecked(rule, reason) so the rule counts skip');
});

interface Report { rules: { id: string; verdict: string; skipReasons?: string[] }[]; tests: { title: string; status: string }[] }

test('pass-checked: a run of the myself test, where no endpoint lists a pod, reports ENDPOINT.PODS.DESIRED_STATUS skipped with why, its other rules passed', { timeout: 300_000 }, () => {
  const { dir, done } = tempDir('pass-checked');
  try {
    const r = cpc(['conformance', '--skip-load', '--project', 'contract', '--grep', 'lists every endpoint of the caller and none of another account', '--workers', '1',
      '--out', dir, '--artifacts', join(dir, 'artifacts')], {}, { timeoutMs: 280_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;
    assert.deepEqual(report.tests.map((t) => t.status), ['passed'], 'the one test ran and passed');
    const verdict = (id: string) => report.rules.find((x) => x.id === id)!;
    assert.equal(verdict('GQL.MYSELF.ENDPOINTS').verdict, 'pass');
    const desired = verdict('ENDPOINT.PODS.DESIRED_STATUS');
    assert.equal(desired.verdict, 'skip', 'no pod was listed, so no desiredStatus was checked');
    assert.match(desired.skipReasons?.join('\n') ?? '', /could not check it: no endpoint of the account listed a pod/);
  } finally {
    done();
  }
});
