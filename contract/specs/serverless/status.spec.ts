import { test } from '../../support/fixtures.js';
import { conform, must, rules } from '../../support/rules.js';
import { jobObjectConformance, statusOf } from '../../checks/job-conformance.js';
import { jobsFor, TERMINAL, type Jobs } from './support/jobs.js';

const pause = async (jobs: Jobs, ms: number): Promise<void> => {
  if (jobs.emu.available) await jobs.emu.advance(ms);
  else await new Promise((r) => setTimeout(r, ms));
};

// Spec: "Status | `GET /status/<job_id>`, optional query `ttl=<milliseconds>` | none | Job object; `output` present
// when available. `ttl` sets the job's time to live (the value 6000 means 6 seconds)."
test.describe('/status', () => {
  test('/status of a COMPLETED job answers the job object with its output', rules('JOB.STATUS.RESPONSE', 'JOB.OBJECT.STATUS_VALUES', 'JOB.OBJECT.TIMES_ON_COMPLETED'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const input = { echo: 'status', list: [1, 2, 3] };
    const id = await jobs.submit(input);
    const { last } = await jobs.until(id, (s) => s !== undefined && TERMINAL.has(s), { stepMs: 1_000, maxVirtualMs: 10_000, maxRealMs: 60_000 });
    const body = (last.body ?? {}) as { id?: unknown; output?: unknown };
    conform(
      jobObjectConformance(last),
      must(statusOf(last) === 'COMPLETED', 'JOB.STATUS.RESPONSE', `the echo job ended ${statusOf(last)}`),
      must(body.id === id, 'JOB.STATUS.RESPONSE', `/status/${id} answered id ${JSON.stringify(body.id)}`),
      must(JSON.stringify(body.output) === JSON.stringify(input), 'JOB.STATUS.RESPONSE', `the COMPLETED job's output is ${JSON.stringify(body.output)}, not its echoed input`),
    );
  });

  test('/status with ttl=6000 answers the job and makes it live 6 more seconds', rules('JOB.STATUS.TTL', 'JOB.STATUS.RESPONSE'), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ echo: 'ttl' });
    await jobs.until(id, (s) => s !== undefined && TERMINAL.has(s), { stepMs: 1_000, maxVirtualMs: 10_000, maxRealMs: 60_000 });
    const withTtl = await jobs.status(id, { ttl: 6_000 });
    await pause(jobs, 4_000);
    const at4s = await jobs.status(id);
    await pause(jobs, 3_000);
    const at7s = await jobs.status(id);
    conform(
      jobObjectConformance(withTtl),
      must(statusOf(withTtl) === 'COMPLETED', 'JOB.STATUS.TTL', `/status?ttl=6000 answered ${withTtl.status}: ${withTtl.text.slice(0, 200)}`),
      must(statusOf(at4s) === 'COMPLETED', 'JOB.STATUS.TTL', `4 s after ttl=6000 the job is gone (${at4s.status}): ttl is not in milliseconds`),
      must(statusOf(at7s) === undefined, 'JOB.STATUS.TTL', `7 s after ttl=6000 the job still answers ${at7s.status} ${statusOf(at7s)}`),
    );
  });
});
