// @own-process: runs cpc conformance (embedded emulator) with budgets.
// A run forced past preflight (or on a target preflight cannot plan) that reaches a budget
// creates nothing more: the tests that needed more are blocked "budget reached", never failed
// and never silently skipped, and the run stays conformant (blocked is not a failure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpc } from './cli-support.js';
import { tempDir } from './reports-support.js';

interface Report { tests: { title: string; status: string; blocked?: string; rules: string[] }[]; rules: { id: string; verdict: string }[] }

test('cli-budget: --max-pods 1 lets one pod be created; every later pod creation blocks its test "budget reached"', { timeout: 300_000 }, () => {
  const { dir, done } = tempDir('budget-pods');
  try {
    const r = cpc(['conformance', '--skip-load', '--project', 'contract', '--grep', '@POD\\.CREATE\\.201_POD', '--workers', '2', '--max-pods', '1', '--out', dir, '--artifacts', join(dir, 'artifacts')], {}, { timeoutMs: 280_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;
    const blocked = report.tests.filter((t) => t.blocked !== undefined);
    assert.ok(blocked.length >= 2, `tests blocked: ${blocked.length}`);
    for (const t of blocked) assert.match(t.blocked!, /^budget reached: --max-pods 1: 1 pods created$/, t.title);
    assert.equal(report.tests.filter((t) => t.status === 'failed').length, 0, 'no test failed');
    assert.equal(report.rules.filter((x) => x.verdict === 'fail').length, 0, 'no rule failed');
  } finally {
    done();
  }
});

test('cli-budget: --max-requests stops every request past it, in every worker, and blocks those tests', { timeout: 300_000 }, () => {
  const { dir, done } = tempDir('budget-requests');
  try {
    const r = cpc(['conformance', '--skip-load', '--project', 'contract', '--grep', '@AUTH\\.', '--workers', '2', '--max-requests', '20', '--out', dir, '--artifacts', join(dir, 'artifacts')], {}, { timeoutMs: 280_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;
    const blocked = report.tests.filter((t) => t.blocked !== undefined);
    assert.ok(blocked.length >= 1, 'some test blocked');
    for (const t of blocked) assert.match(t.blocked!, /^budget reached: --max-requests 20: 20 requests sent$/, t.title);
    assert.equal(report.tests.filter((t) => t.status === 'failed').length, 0, 'no test failed');
  } finally {
    done();
  }
});
