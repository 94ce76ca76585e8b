import { countsAreOwn, test } from '../../support/fixtures.js';
import { conform, creates, must, needs, observe, rules, titled, type Finding } from '../../support/rules.js';
import { jobWork } from '../../../lib/worker-time.js';
import { statusCodeConformance } from '../../checks/status.js';
import { jobCounters } from '../../checks/health-conformance.js';
import { statusOf } from '../../checks/job-conformance.js';
import type { ApiClient, AuthChoice, CallOptions } from '../../../lib/client/api.js';
import type { Emu, TargetContext } from '../../support/fixtures.js';
import { jobsFor, type Jobs } from './support/jobs.js';
import { credentials, type Credentials } from '../../support/needs.js';

// Spec, Authentication: "Serverless job operations | Header `authorization: <API_KEY>`." "A valid key lacking
// access to a resource or action gets 403." "A missing, malformed, expired or invalid bearer token gets 401."
// Errors of the job operations are "not shown", so only the status is held to (no problem+json here).
const total = async (jobs: Jobs): Promise<number> => {
  const c = jobCounters(await jobs.health());
  return c.completed + c.failed + c.inQueue + c.inProgress;
};

/**
 * The endpoint's job total, read only where a check reads it: where the counts are the test's
 * own (countsAreOwn). On a shared target other tests move them meanwhile, so no check reads a
 * total there and none is asked for.
 */
const totalIfOwn = async (jobs: Jobs, own: boolean): Promise<number | undefined> => (own ? total(jobs) : undefined);

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

interface Unauthenticated { title: string; rule: string; auth: (keys: Credentials) => AuthChoice }
const noHeader: Unauthenticated = { title: 'no authorization header', rule: 'AUTH.SERVERLESS.MISSING_401', auth: () => 'none' };
const unknownKey: Unauthenticated = { title: 'an unknown key', rule: 'AUTH.SERVERLESS.INVALID_401', auth: () => ({ key: 'cpk_not_a_real_key_0000000000' }) };
const malformed: Unauthenticated = { title: 'a malformed header', rule: 'AUTH.SERVERLESS.INVALID_401', auth: () => ({ authorization: 'Basic one two' }) };
const expired: Unauthenticated = { title: 'an expired key', rule: 'AUTH.SERVERLESS.INVALID_401', auth: (keys) => ({ key: keys.expired }) };

/**
 * Sends every job operation with each of `cases`' credentials, about one job of the caller's
 * own: each answers 401 (its case's rule), and no job is created. One job serves every case: a
 * refused request reads or changes nothing, so the cases cannot disturb one another.
 */
async function refusedWithout(fixtures: { api: ApiClient; emu: Emu; target: TargetContext }, cases: readonly Unauthenticated[]): Promise<void> {
  const { emu } = fixtures;
  const choices = cases.map((c) => ({ c, auth: c.auth(credentials(test.info(), fixtures.target, emu.world?.keys)) }));
  const jobs = jobsFor(fixtures);
  const jobId = await jobs.submit({ echo: 'auth' });
  const own = countsAreOwn(emu, 'that refused requests created no job');
  const findings: Finding[] = [];
  for (const { c, auth } of choices) {
    // Counted around each case, so a job created is laid to the credential that created it.
    const before = await totalIfOwn(jobs, own);
    for (const send of Object.values(calls(jobs, jobId))) {
      findings.push(...titled(c.title, statusCodeConformance(c.rule, await send(auth!), 401)));
    }
    const after = await totalIfOwn(jobs, own);
    findings.push(...must(after === before, c.rule, `with ${c.title}, refused requests still created jobs (${before} → ${after})`));
  }
  conform(findings);
}

test.describe('serverless authentication', () => {
  test('the key as the whole authorization header is accepted; Bearer is recorded', rules('AUTH.SERVERLESS.KEY_HEADER', 'AUTH.SERVERLESS.BEARER_ACCEPTED', 'RATE.SERVERLESS.HEADERS', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const raw: AuthChoice = { role: 'main', style: 'raw' };
    // The raw-key /run is also the job the /status calls read: its answer is judged as any
    // submission's is (Jobs.submitted), so no other job is needed.
    const run = await jobs.run({ echo: 'auth' }, { auth: raw });
    const jobId = jobs.submitted(run);
    observe('RATE.SERVERLESS.HEADERS', { ratelimit: run.headers.ratelimit ?? null, policy: run.headers['ratelimit-policy'] ?? null });
    const findings: Finding[] = [];
    const bearer: Record<string, number> = {};
    for (const [op, send] of Object.entries(calls(jobs, jobId))) {
      const answer = op === 'run' ? run : await send(raw);
      findings.push(...must(answer.status >= 200 && answer.status < 300, 'AUTH.SERVERLESS.KEY_HEADER', `${op} with "authorization: <key>" answered ${answer.status}: ${answer.text.slice(0, 160)}`, answer));
      bearer[op] = (await send({ role: 'main', style: 'bearer' })).status;
    }
    observe('AUTH.SERVERLESS.BEARER_ACCEPTED', bearer);
    conform(findings);
  });

  // Spec: "A missing, malformed, expired or invalid bearer token gets 401." One test sends each
  // credential any target can be given; the expired key (an emulator world's, or CPC_API_KEY_EXPIRED) has its own.
  test('job operations with no authorization header, an unknown key or a malformed header answer 401 and run nothing', rules('AUTH.SERVERLESS.MISSING_401', 'AUTH.SERVERLESS.INVALID_401', needs('workerEndpoint')), async ({ api, emu, target }) => {
    await refusedWithout({ api, emu, target }, [noHeader, unknownKey, malformed]);
  });

  test(`job operations with ${expired.title} answer 401 and run nothing`, rules(expired.rule, needs('expiredKey', 'workerEndpoint')), async ({ api, emu, target }) => {
    await refusedWithout({ api, emu, target }, [expired]);
  });

  test('a key without write access gets 403 on /run and /runsync and runs nothing', rules('AUTH.SERVERLESS.FORBIDDEN_403', needs('readonlyKey', 'workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const own = countsAreOwn(emu, 'that forbidden requests created no job');
    const before = await totalIfOwn(jobs, own);
    const run = await jobs.run({ echo: 'readonly' }, { auth: 'readonly' });
    const sync = await jobs.runsync({ echo: 'readonly' }, {}, { auth: 'readonly' });
    const after = await totalIfOwn(jobs, own);
    conform(
      statusCodeConformance('AUTH.SERVERLESS.FORBIDDEN_403', run, 403),
      statusCodeConformance('AUTH.SERVERLESS.FORBIDDEN_403', sync, 403),
      must(after === before, 'AUTH.SERVERLESS.FORBIDDEN_403', `forbidden requests still created jobs (${before} → ${after})`),
    );
  });

  test("another account's endpoint and jobs are out of reach", rules('AUTH.SERVERLESS.OTHER_ACCOUNT', 'AUTH.SERVERLESS.OTHER_ACCOUNT_STATUS', needs('otherKey', 'workerEndpoint'), creates({ work: jobWork(600_000, { ms: 0, runs: 2, failing: true }) })), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const running = await jobs.submit({ sleepMs: 600_000 });
    const failed = await jobs.submit({ fail: 'other' });
    jobs.skipIfStillPending(await jobs.until(failed, (s) => s === 'FAILED', { stepMs: 1_000, maxVirtualMs: 10_000, maxRealMs: 60_000 }), 60_000, "for another account's /retry to leave alone");
    const own = countsAreOwn(emu, "that another account's requests left the job count unchanged");
    const before = await totalIfOwn(jobs, own);
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
    const after = await totalIfOwn(jobs, own);
    observe('AUTH.SERVERLESS.OTHER_ACCOUNT_STATUS', Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status])));
    const findings = Object.entries(answers).flatMap(([op, res]) =>
      must(res.status >= 400 && res.status < 500, 'AUTH.SERVERLESS.OTHER_ACCOUNT', `${op} with another account's key answered ${res.status}: ${res.text.slice(0, 160)}`, res));
    conform(
      findings,
      must(after === before, 'AUTH.SERVERLESS.OTHER_ACCOUNT', `another account's requests changed the job count (${before} → ${after})`),
      must(statusOf(await jobs.status(running)) !== 'CANCELLED', 'AUTH.SERVERLESS.OTHER_ACCOUNT', "another account's /cancel cancelled the job"),
      // The failed job's state afterwards is not read: a queue-based endpoint retries failed jobs
      // on its own ("automatic retries on failure"), so a failed job seen queued again says
      // nothing of who queued it. The other account's /retry is judged by its answer above.
    );
  });
});
