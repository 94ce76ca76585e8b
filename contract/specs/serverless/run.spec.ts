import { test } from '../../support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { jobHandleConformance, jobObjectConformance, jobJsonConformance, statusOf } from '../../checks/job-conformance.js';
import { jobsFor, setTimings, TERMINAL } from './support/jobs.js';
import { isSuccess } from '../../checks/status.js';

// Spec, Serverless job operations: "Asynchronous run | `POST /run` | `{input: object}` | `{id, status}` with status `IN_QUEUE`."
test.describe('/run', () => {
  test('/run answers {id, status: IN_QUEUE}, and /status then knows the job', rules(
    'JOB.RUN.RESPONSE', 'JOB.OBJECT.ID', 'JOB.HTTP.JSON', 'SERVICE.QB.REQUESTS_BECOME_JOBS',
    'SERVICE.QB.ADDRESS', 'HTTP.SERVERLESS_URL.ENDPOINT_PATHS', 'VERSION.SERVERLESS.PREFIX', 'JOB.RUN.SUCCESS_200',
  ), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const res = await jobs.run({ echo: 'hello' });
    observe('JOB.RUN.SUCCESS_200', res.status);
    const id = (res.body as { id?: string } | undefined)?.id ?? '';
    const status = await jobs.status(id);
    conform(
      must(isSuccess(res), 'SERVICE.QB.ADDRESS', `/v2/${jobs.endpointId}/run answered ${res.status}`),
      must(isSuccess(res), 'HTTP.SERVERLESS_URL.ENDPOINT_PATHS', `/v2/<endpoint_id>/run answered ${res.status}`),
      must(res.status !== 404 && res.status !== 405, 'VERSION.SERVERLESS.PREFIX', `the /v2/ path /v2/${jobs.endpointId}/run is not served: ${res.status}`),
      jobHandleConformance('JOB.RUN.RESPONSE', res, 'IN_QUEUE'),
      jobObjectConformance(status),
      must(isSuccess(status) && (status.body as { id?: string }).id === id, 'SERVICE.QB.REQUESTS_BECOME_JOBS', `/status/${id} answered ${status.status}: ${status.text.slice(0, 200)}`),
    );
  });

  test('/run answers before a slow job has even started, with IN_QUEUE', rules('JOB.STATE.RUN_IN_QUEUE', 'JOB.RUN.RESPONSE'), async ({ api, emu, target }) => {
    emu.require('hold the job in the queue with a slow cold start');
    await setTimings(emu, { coldStartMs: 60_000 });
    const jobs = jobsFor({ api, emu, target });
    const res = await jobs.run({ sleepMs: 600_000 });
    const id = (res.body as { id?: string } | undefined)?.id ?? '';
    const status = await jobs.status(id);
    conform(
      jobHandleConformance('JOB.STATE.RUN_IN_QUEUE', res, 'IN_QUEUE'),
      jobHandleConformance('JOB.RUN.RESPONSE', res, 'IN_QUEUE'),
      must(statusOf(status) === 'IN_QUEUE', 'JOB.STATE.RUN_IN_QUEUE', `the job is ${statusOf(status)} right after /run, with no worker ready`),
    );
  });

  // Spec: "Job request body: object with key `input` (object, handler-defined content)."
  const inputs: { title: string; input: Record<string, unknown> }[] = [
    { title: 'an empty object', input: {} },
    { title: 'nested objects and arrays', input: { a: { b: [1, 2, { c: null }] }, flag: true } },
    { title: 'unicode text', input: { text: 'héllo — 世界 🚀' } },
    { title: 'numbers of every kind', input: { int: 42, neg: -7, float: 3.25, big: 9007199254740991 } },
  ];
  for (const c of inputs) {
    test(`/run and /runsync accept an input of ${c.title}`, rules('JOB.REQUEST.INPUT', 'JOB.HTTP.JSON'), async ({ api, emu, target }) => {
      const jobs = jobsFor({ api, emu, target });
      const run = await jobs.run(c.input);
      const sync = await jobs.runsync(c.input);
      conform(
        must(run.status >= 200 && run.status < 300 && typeof (run.body as { id?: unknown }).id === 'string', 'JOB.REQUEST.INPUT', `/run refused the input: ${run.status} ${run.text.slice(0, 200)}`),
        must(sync.status >= 200 && sync.status < 300 && typeof (sync.body as { id?: unknown }).id === 'string', 'JOB.REQUEST.INPUT', `/runsync refused the input: ${sync.status} ${sync.text.slice(0, 200)}`),
        jobJsonConformance(run), jobJsonConformance(sync),
      );
    });
  }

  test('a job submitted with /run moves through its statuses to COMPLETED', rules('JOB.STATE.PROGRESS_MOVES', 'JOB.STATUS.RESPONSE'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    if (emu.available) await setTimings(emu, { coldStartMs: 2_000 });
    const id = await jobs.submit({ sleepMs: 3_000 });
    const { seen, last } = await jobs.until(id, (s) => s !== undefined && TERMINAL.has(s), { stepMs: 1_000, maxVirtualMs: 20_000, maxRealMs: 120_000 });
    observe('JOB.STATE.PROGRESS_MOVES', seen);
    conform(
      jobObjectConformance(last),
      must(statusOf(last) === 'COMPLETED', 'JOB.STATUS.RESPONSE', `the job ended ${statusOf(last)} (statuses seen: ${seen.join(' → ')})`),
    );
  });
});
