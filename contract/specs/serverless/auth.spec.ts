import { countsAreOwn, test } from '../../support/fixtures.js';
import { conform, must, observe, rules, type Finding } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { jobCounters } from '../../checks/health-conformance.js';
import { statusOf } from '../../checks/job-conformance.js';
import type { AuthChoice, CallOptions } from '../../../lib/client/api.js';
import { jobsFor, type Jobs } from './support/jobs.js';

// Spec, Authentication: "Serverless job operations | Header `authorization: <API_KEY>`." "A valid key lacking
// access to a resource or action gets 403." "A missing, malformed, expired or invalid bearer token gets 401."
// Errors of the job operations are "not shown", so only the status is held to (no problem+json here).
const total = async (jobs: Jobs): Promise<number> => {
  const c = jobCounters(await jobs.health());
  return c.completed + c.failed + c.inQueue + c.inProgress;
};

/** One call per operation the auth rules name, with the given credentials. */
function calls(jobs: Jobs, jobId: string): Record<string, (auth: AuthChoice) => ReturnType<Jobs['run']>> {
  const o = (auth: AuthChoice): CallOptions => ({ auth });
  return {
    run: (auth) => jobs.run({ echo: 'auth' }, o(auth)),
    runsync: (auth) => jobs.runsync({ echo: 'auth' }, {}, o(auth)),
    status: (auth) => jobs.status(jobId, {}, o(auth)),
    health: (auth) => jobs.health(o(auth)),
  };
}

const unauthenticated: { title: string; rule: string; auth: (keys: { expired?: string }) => AuthChoice | undefined }[] = [
  { title: 'no authorization header', rule: 'AUTH.SERVERLESS.MISSING_401', auth: () => 'none' },
  { title: 'an unknown key', rule: 'AUTH.SERVERLESS.INVALID_401', auth: () => ({ key: 'cpk_not_a_real_key_0000000000' }) },
  { title: 'a malformed header', rule: 'AUTH.SERVERLESS.INVALID_401', auth: () => ({ authorization: 'Basic one two' }) },
  { title: 'an expired key', rule: 'AUTH.SERVERLESS.INVALID_401', auth: (keys) => (keys.expired ? { key: keys.expired } : undefined) },
];

test.describe('serverless authentication', () => {
  test('the key as the whole authorization header is accepted; Bearer is recorded', rules('AUTH.SERVERLESS.KEY_HEADER', 'AUTH.SERVERLESS.BEARER_ACCEPTED', 'RATE.SERVERLESS.HEADERS'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const jobId = await jobs.submit({ echo: 'auth' });
    const findings: Finding[] = [];
    const bearer: Record<string, number> = {};
    for (const [op, send] of Object.entries(calls(jobs, jobId))) {
      const raw = await send({ role: 'main', style: 'raw' });
      findings.push(...must(raw.status >= 200 && raw.status < 300, 'AUTH.SERVERLESS.KEY_HEADER', `${op} with "authorization: <key>" answered ${raw.status}: ${raw.text.slice(0, 160)}`));
      bearer[op] = (await send({ role: 'main', style: 'bearer' })).status;
      if (op === 'run') observe('RATE.SERVERLESS.HEADERS', { ratelimit: raw.headers.ratelimit ?? null, policy: raw.headers['ratelimit-policy'] ?? null });
    }
    observe('AUTH.SERVERLESS.BEARER_ACCEPTED', bearer);
    conform(findings);
  });

  for (const c of unauthenticated) {
    test(`job operations with ${c.title} answer 401 and run nothing`, rules(c.rule), async ({ api, emu, target }) => {
      const auth = c.auth(emu.world?.keys ?? {});
      test.skip(auth === undefined, 'needs an expired key, which only the emulator can mint');
      const jobs = jobsFor({ api, emu, target });
      const jobId = await jobs.submit({ echo: 'auth' });
      const before = await total(jobs);
      const findings: Finding[] = [];
      for (const send of Object.values(calls(jobs, jobId))) findings.push(...statusCodeConformance(c.rule, await send(auth!), 401));
      const after = await total(jobs);
      conform(findings, must(!countsAreOwn(emu, 'that refused requests created no job') || after === before, c.rule, `refused requests still created jobs (${before} → ${after})`));
    });
  }

  test('a key without write access gets 403 on /run and /runsync and runs nothing', rules('AUTH.SERVERLESS.FORBIDDEN_403'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const before = await total(jobs);
    const run = await jobs.run({ echo: 'readonly' }, { auth: 'readonly' });
    const sync = await jobs.runsync({ echo: 'readonly' }, {}, { auth: 'readonly' });
    const after = await total(jobs);
    conform(
      statusCodeConformance('AUTH.SERVERLESS.FORBIDDEN_403', run, 403),
      statusCodeConformance('AUTH.SERVERLESS.FORBIDDEN_403', sync, 403),
      must(!countsAreOwn(emu, 'that forbidden requests created no job') || after === before, 'AUTH.SERVERLESS.FORBIDDEN_403', `forbidden requests still created jobs (${before} → ${after})`),
    );
  });

  test("another account's endpoint and jobs are out of reach", rules('AUTH.SERVERLESS.OTHER_ACCOUNT', 'AUTH.SERVERLESS.OTHER_ACCOUNT_STATUS'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const running = await jobs.submit({ sleepMs: 600_000 });
    const failed = await jobs.submit({ fail: 'other' });
    await jobs.until(failed, (s) => s === 'FAILED', { stepMs: 1_000, maxVirtualMs: 10_000, maxRealMs: 60_000 });
    const before = await total(jobs);
    const other = { auth: 'other' as const };
    const answers = {
      run: await jobs.run({ echo: 'intruder' }, other),
      runsync: await jobs.runsync({ echo: 'intruder' }, {}, other),
      status: await jobs.status(running, {}, other),
      health: await jobs.health(other),
      cancel: await jobs.cancel(running, other),
      retry: await jobs.retry(failed, other),
      purge: await jobs.purge(other),
    };
    const after = await total(jobs);
    observe('AUTH.SERVERLESS.OTHER_ACCOUNT_STATUS', Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status])));
    const findings = Object.entries(answers).flatMap(([op, res]) =>
      must(res.status >= 400 && res.status < 500, 'AUTH.SERVERLESS.OTHER_ACCOUNT', `${op} with another account's key answered ${res.status}: ${res.text.slice(0, 160)}`));
    conform(
      findings,
      must(!countsAreOwn(emu, "that another account's requests left the job count unchanged") || after === before, 'AUTH.SERVERLESS.OTHER_ACCOUNT', `another account's requests changed the job count (${before} → ${after})`),
      must(statusOf(await jobs.status(running)) !== 'CANCELLED', 'AUTH.SERVERLESS.OTHER_ACCOUNT', "another account's /cancel cancelled the job"),
      must(statusOf(await jobs.status(failed)) === 'FAILED', 'AUTH.SERVERLESS.OTHER_ACCOUNT', "another account's /retry requeued the job"),
    );
  });
});
