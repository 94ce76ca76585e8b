// @own-process: starts a standalone emulator behind the control-hiding proxy and runs cpc conformance against it.
// A run against a deployment plans what it will create from the tests' declarations
// (preflight's plan.json) and records what it created (usage.json, from the cleanup record):
// for a run in which every test passes they agree kind by kind, and the request estimate
// (contract/request-estimates.json) is within 20 % of the requests the run sent. Preflight's
// rule forecast (plan.json `forecast`) is what the run decides: every rule it says will run is
// decided, every rule it says will be skipped is skipped for the reason it gave
// (run/provision/forecast-check.ts, written to forecast-check.json). Two runs side by side on one
// target: one key and a worker image (the template and the job endpoint provisioned from it),
// and one key alone (the tests that need them skipped, as forecast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CPC_JS, envWith, runTimed, standaloneWithProxy, type Timed } from './cli-support.js';
import { tempDir } from './reports-support.js';
import { COUNT_KINDS } from '../lib/plan.js';
import { needReason } from '../lib/needs.js';
import { forecastMismatches, type DecidedRule } from '../run/provision/forecast-check.js';
import type { ForecastCheckFile, PlanFile, UsageFile } from '../lib/protocol.js';

// Its clock runs ten times real time: a template the run provisioned and used for endpoints may
// be deleted 2 minutes after its last use (spec, Limits), 12 s of the test's time, not 120. No
// test of the subsets compares the target's clock with real time.
const SCALE = 10;
const target = standaloneWithProxy(['--scale', String(SCALE)]);
/**
 * How long the run's cleanup retries what is still held: the profile's default (150 s) at the
 * target's clock, which is past the template's 2 minutes there. The sweep's first pause is the
 * shorter of 30 s and this, so the held template goes at its one retry 15 s after the first
 * pass, not 30 s after it.
 */
const CLEANUP_WAIT_MS = String(150_000 / SCALE);

/**
 * Pooled pods and volumes (the mount rules), templates created and deleted under one name,
 * secrets; not the pod lifecycle test, which compares a pod's uptime with real time.
 */
const POOLED = '^(?!.*pod lifecycle).*(?:@MOUNT\\.|@GQL\\.SAVE_TEMPLATE|@SECRET\\.)';
/** A REST v1 creation that needs a template, and a job test that needs the job endpoint. */
const NEEDING = '@V1\\.CREATE\\.ACCEPTED|@JOB\\.RUNSYNC\\.SUCCESS_200';
const [V1, JOB] = ['V1.CREATE.ACCEPTED', 'JOB.RUNSYNC.SUCCESS_200'];

interface Ran { result: Timed; dir: string; done: () => void }
interface Report { tests: { status: string; title: string }[]; rules: (DecidedRule & { id: string })[] }

const read = <T>(dir: string, file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

function conformance(name: string, grep: string, env: Record<string, string>): Promise<Ran> {
  const { dir, done } = tempDir(name);
  return runTimed([process.execPath, CPC_JS, 'conformance', '--skip-load', '--project', 'contract', '--grep', grep, '--out', dir, '--artifacts', join(dir, 'artifacts')], envWith(env), 280_000)
    .then((result) => ({ result, dir, done }));
}

let started: { withImage: Promise<Ran>; oneKey: Promise<Ran> } | undefined;
/** Both runs, started at once by the first test that asks (they share the target, each under its own run id): the file lasts about the longer one. */
function runs(): { withImage: Promise<Ran>; oneKey: Promise<Ran> } {
  const base = { CPC_BASE_URL: target.proxy.url, CPC_API_KEY: target.emulator.vars.CPC_API_KEY!, CPC_CLEANUP_WAIT_MS: CLEANUP_WAIT_MS };
  started ??= {
    withImage: conformance('plan-image', `${POOLED}|${NEEDING}`, { ...base, CPC_WORKER_IMAGE: 'cpc-conformance-worker:latest' }),
    oneKey: conformance('plan-one-key', `@GQL\\.SAVE_TEMPLATE|@SECRET\\.|${NEEDING}`, base),
  };
  return started;
}

/** The run's common claims: every test passes, the plan is what it created, the forecast held. */
function planHeld(ran: Ran): { plan: PlanFile; usage: UsageFile; report: Report } {
  assert.equal(ran.result.code, 0, ran.result.out);
  const report = read<Report>(ran.dir, 'conformance.json');
  assert.deepEqual(report.tests.filter((t) => t.status === 'failed').map((t) => t.title), [], 'every test passes');
  const plan = read<PlanFile>(ran.dir, 'plan.json');
  const usage = read<UsageFile>(ran.dir, 'usage.json');
  for (const k of COUNT_KINDS) assert.equal(usage.created[k], plan.counts[k], `${k}: planned ${plan.counts[k]}, created ${usage.created[k]}`);
  assert.ok(plan.forecast, 'preflight wrote its forecast');
  assert.deepEqual(forecastMismatches(plan.forecast, report.rules), [], 'the forecast against the report\'s verdicts');
  const check = read<ForecastCheckFile>(ran.dir, 'forecast-check.json');
  assert.deepEqual(check, { held: true, runs: plan.forecast.runs.length, skipped: plan.forecast.skipped.length, mismatches: [] });
  return { plan, usage, report };
}

const verdictOf = (report: Report, id: string): DecidedRule | undefined => report.rules.find((r) => r.id === id);

test('cli-plan: one key and a worker image: the plan (the provisioned template and endpoint included) equals what the run created, the forecast held, the request estimate is within 20 %', { timeout: 300_000 }, async () => {
  const ran = await runs().withImage;
  try {
    const { plan, usage, report } = planHeld(ran);
    assert.ok(plan.counts.gpuPods + plan.counts.cpuPods > 0 && plan.counts.secrets > 0, `the subset creates pods and secrets: ${JSON.stringify(plan.counts)}`);
    // The job endpoint provisioned from the image and the REST v1 creation's; the image's template and the GraphQL ones.
    assert.ok(plan.counts.endpoints >= 2 && plan.counts.templates >= 2, `provisioned and created endpoints and templates: ${JSON.stringify(plan.counts)}`);
    assert.match(ran.result.out, /provisioned from cpc-conformance-worker:latest: template/);
    for (const id of [V1, JOB]) {
      assert.ok(plan.forecast!.runs.includes(id), `${id} forecast to run`);
      assert.ok(['pass', 'observed'].includes(verdictOf(report, id)?.verdict ?? ''), `${id} decided: ${JSON.stringify(verdictOf(report, id))}`);
    }
    assert.ok(Math.abs(plan.requests - usage.requests) <= 0.2 * usage.requests, `estimated ${plan.requests} requests, sent ${usage.requests}`);
  } finally {
    ran.done();
  }
});

test('cli-plan: one key alone: the tests that need a template or the job endpoint are skipped for the reasons preflight gave, and the plan equals what the run created', { timeout: 300_000 }, async () => {
  const ran = await runs().oneKey;
  try {
    const { plan, report } = planHeld(ran);
    assert.ok(plan.counts.templates > 0 && plan.counts.secrets > 0 && plan.counts.endpoints === 0, JSON.stringify(plan.counts));
    for (const [id, need] of [[V1, 'template'], [JOB, 'workerEndpoint']] as const) {
      assert.deepEqual(plan.forecast!.skipped.find((s) => s.rule === id)?.reasons, [needReason(need)], `${id} forecast skipped`);
      const decided = verdictOf(report, id);
      assert.equal(decided?.verdict, 'skip', id);
      assert.ok(decided?.skipReasons?.some((r) => r.includes(needReason(need))), `${id}: ${JSON.stringify(decided?.skipReasons)}`);
    }
  } finally {
    ran.done();
  }
});
