// @own-process: starts a standalone emulator behind the control-hiding proxy and runs cpc conformance against it.
// A run against a deployment plans what it will create from the tests' declarations
// (preflight's plan.json) and records what it created (usage.json, from the cleanup record):
// for a run in which every test passes they agree kind by kind, and the request estimate
// (contract/request-estimates.json) is within 20 % of the requests the run sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpc, standaloneWithProxy, targetEnvOf } from './cli-support.js';
import { tempDir } from './reports-support.js';
import { COUNT_KINDS } from '../lib/plan.js';
import type { PlanFile, UsageFile } from '../lib/protocol.js';

const target = standaloneWithProxy();

test('cli-plan: the plan of a deployment run equals what it created, kind by kind, and its request estimate is within 20 %', { timeout: 300_000 }, () => {
  const { dir, done } = tempDir('plan-matches');
  try {
    const env = targetEnvOf(target.emulator, target.proxy);
    // Pooled pods and volumes (the mount rules), templates created and deleted under one name, secrets.
    const r = cpc(['conformance', '--skip-load', '--project', 'contract', '--grep', '@MOUNT\\.|@GQL\\.SAVE_TEMPLATE|@SECRET\\.', '--out', dir, '--artifacts', join(dir, 'artifacts')], env, { timeoutMs: 280_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { tests: { status: string; title: string }[] };
    assert.deepEqual(report.tests.filter((t) => t.status === 'failed').map((t) => t.title), [], 'every test passes');
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as PlanFile;
    const usage = JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8')) as UsageFile;
    for (const k of COUNT_KINDS) assert.equal(usage.created[k], plan.counts[k], `${k}: planned ${plan.counts[k]}, created ${usage.created[k]}`);
    assert.ok(plan.counts.gpuPods + plan.counts.cpuPods > 0 && plan.counts.templates > 0 && plan.counts.secrets > 0, `the subset creates pods, templates and secrets: ${JSON.stringify(plan.counts)}`);
    assert.ok(Math.abs(plan.requests - usage.requests) <= 0.2 * usage.requests, `estimated ${plan.requests} requests, sent ${usage.requests}`);
  } finally {
    done();
  }
});
