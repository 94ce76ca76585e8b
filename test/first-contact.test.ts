// @own-process: runs cpc conformance against a loopback target far from the spec.
// A team's first run: 4 of the 8 job operations, 2 on the wrong method, no authentication
// (test/far-target.ts). The verdict must be clear: each missing operation fails its own rule
// once and blocks the rest, naming the answer; a failed rule's first evidence is the exchange
// its message names; no wait outlives an answer that will not change; real breaches are caught;
// the console and the report tell one story.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CPC_JS, envWith, runTimed } from './cli-support.js';
import { tempDir } from './reports-support.js';
import { FAR_ENDPOINT, startFarTarget } from './far-target.js';
import { OWN_RULE } from '../contract/support/availability.js';
import { operationLine } from '../lib/client/absence.js';
import { exchangeFor, type Evidence } from '../lib/evidence.js';

interface Report {
  rules: { id: string; level: string; verdict: string; failures?: { test: string; message: string }[] }[];
  tests: { id: string; title: string; status: string; durationMs: number; blocked?: string; requests?: number; evidence?: Evidence[] }[];
}

/**
 * The serverless rules whose tests the checks below read: each operation's SERVED rule, the
 * breaches the target has (/run's answer, no key asked for), and tests that need /status,
 * /health, /stream or /purge-queue (blocked on a 405 or a 404). Each failed test restarts a
 * Playwright worker, so the run keeps to these.
 */
const GREP = ['@JOB\\.[A-Z]+\\.SERVED', '@HEALTH\\.SERVED', '@STREAM\\.SERVED', '@JOB\\.RUN\\.RESPONSE', '@AUTH\\.SERVERLESS\\.MISSING_401',
  '@JOB\\.STATUS\\.RESPONSE', '@HEALTH\\.RESPONSE', '@STREAM\\.RESPONSE\\.ITEMS', '@JOB\\.PURGE\\.RESPONSE'].join('|');
const OWN_RULES = new Set(Object.values(OWN_RULE));
/** Words that say an answer came from an operation that is not there. */
const MISSING_ANSWER = /(got|answered|→) 40[45]\b/;

/** The lines of a failed test's error that name `rule`. */
const linesOf = (message: string, rule: string): string[] => message.split('\n').filter((l) => l.includes(`[${rule}]`)).map((l) => l.trim());

/** Whether a finding's line names its exchange: the operation, its spec line, the answer's status or the job status it carried. */
function names(line: string, e: Evidence): boolean {
  const status = e.response?.status;
  const jobStatus = /"status":"([A-Z_]+)"/.exec(e.response?.body ?? '')?.[1];
  return (e.operation !== undefined && (line.includes(`${e.operation}:`) || line.includes(`${e.operation} →`) || line.includes(operationLine(e.operation))))
    || (status !== undefined && new RegExp(`\\b${status}\\b`).test(line))
    || (jobStatus !== undefined && line.includes(jobStatus));
}

test('first contact: a far-from-conformant target gets one finding per missing operation, evidence that matches, no wait past an answer that will not change', { timeout: 300_000 }, async () => {
  const target = await startFarTarget();
  const { dir, done } = tempDir('first-contact');
  try {
    const env = envWith({ CPC_BASE_URL: target.url, CPC_API_KEY: 'cpk_first_contact_0123456789', CPC_ENDPOINT_ID: FAR_ENDPOINT });
    const r = await runTimed([process.execPath, CPC_JS, 'conformance', '--skip-preflight', '--skip-load', '--project', 'contract', '--grep', GREP,
      '--out', dir, '--artifacts', join(dir, 'artifacts')], env, 280_000);
    assert.equal(r.timedOut, false, r.out);
    assert.equal(r.code, 1, r.out);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report;
    const tests = new Map(report.tests.map((t) => [t.id, t]));
    const verdict = (id: string) => report.rules.find((x) => x.id === id)?.verdict;

    // Each missing operation fails its own rule, naming the answer.
    for (const rule of ['JOB.STATUS.SERVED', 'HEALTH.SERVED', 'STREAM.SERVED', 'JOB.CANCEL.SERVED', 'JOB.RETRY.SERVED', 'JOB.PURGE.SERVED']) {
      assert.equal(verdict(rule), 'fail', `${rule}: its operation is missing`);
    }
    // Real breaches are still caught: /run answers IN_PROGRESS; no key is ever asked for.
    assert.equal(verdict('JOB.RUN.RESPONSE'), 'fail');
    const missing401 = report.rules.find((x) => x.id === 'AUTH.SERVERLESS.MISSING_401')!;
    assert.equal(missing401.verdict, 'fail');
    const authLines = missing401.failures!.flatMap((f) => linesOf(f.message, missing401.id));
    assert.ok(authLines.some((l) => /run: expected 401, got 200/.test(l)), authLines.join('\n'));
    // The exchanges these findings were read from lead their tests' evidence, marked with the rule.
    for (const rule of ['JOB.RUN.RESPONSE', 'AUTH.SERVERLESS.MISSING_401', 'JOB.STATUS.SERVED', 'HEALTH.SERVED']) {
      const failures = report.rules.find((x) => x.id === rule)?.failures ?? [];
      assert.ok(failures.some((f) => tests.get(f.test)?.evidence?.[0]?.brokeRules?.includes(rule)), `${rule}: the exchange that broke it leads the evidence`);
    }

    for (const rule of report.rules.filter((x) => x.level === 'MUST' && x.verdict === 'fail')) {
      for (const failure of rule.failures ?? []) {
        const lines = linesOf(failure.message, rule.id);
        // The exchange the report shows first for the rule (the one its finding was read from,
        // leading the test's evidence) is one the rule's own message names.
        const shown = exchangeFor(tests.get(failure.test)?.evidence ?? [], rule.id);
        assert.ok(shown, `${rule.id}: the failed test has evidence`);
        assert.ok(lines.some((l) => names(l, shown)), `${rule.id}: evidence ${shown.request.method} ${shown.request.url} → ${shown.response?.status} is not named by:\n${lines.join('\n')}`);
        for (const l of lines) {
          // No rule fails because another operation is missing.
          if (!OWN_RULES.has(rule.id)) assert.doesNotMatch(l, MISSING_ANSWER, `${rule.id} failed on a missing operation's answer: ${l}`);
          // A message never renders an empty value.
          assert.doesNotMatch(l, /undefined|\S {2,}\S|\(\)/, `${rule.id}: an empty value in "${l}"`);
        }
      }
    }

    // A wait stops at once on an answer that will not change: the tests it blocks name it, show
    // it in their evidence, and send it once: a wait that polled on would repeat the request, and
    // each of these tests sends at most one request besides it (the /run of the job it waits on).
    const blockedByMissing = report.tests.filter((t) => t.blocked !== undefined && / answered 40[45]/.test(t.blocked));
    const blockedBy = (code: string) => blockedByMissing.filter((t) => t.blocked!.includes(` answered ${code}`)).length;
    assert.ok(blockedBy('405') > 0 && blockedBy('404') > 0, 'tests that need /status, /health, /stream or /purge-queue are blocked, naming the 405 or 404');
    for (const t of report.tests) assert.doesNotMatch(t.blocked ?? '', /[Tt]imeout/, `${t.title}: blocked by a timeout`);
    for (const t of blockedByMissing) {
      const [, method, status] = /^(\S+) \S+ answered (\d+)/.exec(t.blocked!) ?? [];
      assert.ok(t.evidence?.some((e) => e.request.method === method && String(e.response?.status) === status),
        `${t.title}: its evidence shows the answer that blocked it (${t.blocked})`);
      assert.ok(t.requests !== undefined && t.requests <= 2, `${t.title} sent ${t.requests} requests: it did not stop at the answer that will not change (${t.blocked})`);
    }

    // One story: the console counts the failed tests the report counts.
    const consoleFailed = Number(/^\s*(\d+) failed$/m.exec(r.out)?.[1] ?? 0);
    assert.equal(consoleFailed, report.tests.filter((t) => t.status === 'failed').length, r.out.slice(-3000));

    // The run's temporary folder (lib/run-folder.ts), record included, is gone: nothing was left to delete.
    const record = /\(record: (\S+)\)/.exec(r.out)?.[1];
    assert.ok(record, 'the run names the record of what it creates');
    assert.equal(existsSync(dirname(record)), false, `${dirname(record)} is removed as the run ends`);
  } finally {
    done();
    await target.close();
  }
});
