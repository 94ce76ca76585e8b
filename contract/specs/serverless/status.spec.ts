import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { jobObjectConformance, statusOf } from '../../checks/job-conformance.js';
import { jobsFor, TERMINAL, type Jobs } from './support/jobs.js';
import type { ApiResult } from '../../../lib/client/api.js';

const pause = async (jobs: Jobs, ms: number): Promise<void> => {
  if (jobs.emu.available) await jobs.emu.advance(ms);
  else await new Promise((r) => setTimeout(r, ms));
};

// Spec: "Status | `GET /status/<job_id>`, optional query `ttl=<milliseconds>` | none | Job object; `output` present
// when available. `ttl` sets the job's time to live (the value 6000 means 6 seconds)."
test.describe('/status', () => {
  // The point the 6 seconds count from (the job's submission, its completion or the ttl request)
  // is not given: the job is gone 6 s after the ttl request whatever it is, and it is still there
  // while less than 6 s have passed since the submission.
  test('/status with ttl=6000 answers the job and makes it live 6 seconds', rules('JOB.STATUS.TTL', 'JOB.STATUS.RESPONSE', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const now = async (): Promise<number> => (jobs.emu.available ? jobs.emu.advance(0) : Date.now());
    const submitted = await now();
    const id = await jobs.submit({ echo: 'ttl' });
    jobs.skipIfStillPending(await jobs.until(id, (s) => s !== undefined && TERMINAL.has(s), { stepMs: 1_000, maxVirtualMs: 10_000, maxRealMs: 60_000 }), 60_000, 'to read with a ttl');
    const withTtl = await jobs.status(id, { ttl: 6_000 });
    const asked = await now();
    // Still within 6 s of the submission (1 s to spare): the job lives on whatever the reference.
    const earlyMs = submitted + 5_000 - asked;
    let early: ApiResult | undefined;
    if (earlyMs > 0) {
      await pause(jobs, earlyMs);
      early = await jobs.status(id);
    }
    await pause(jobs, 7_000 - Math.max(earlyMs, 0));
    const at7s = await jobs.status(id);
    conform(
      jobObjectConformance(withTtl),
      must(statusOf(withTtl) === 'COMPLETED', 'JOB.STATUS.TTL', `/status?ttl=6000 answered ${withTtl.status}: ${withTtl.text.slice(0, 200)}`, withTtl),
      must(early === undefined || statusOf(early) === 'COMPLETED', 'JOB.STATUS.TTL',
        `5 s after the job was submitted (ttl=6000) it is gone (${early?.status}): ttl is not in milliseconds`),
      must(statusOf(at7s) === undefined, 'JOB.STATUS.TTL', `7 s after ttl=6000 the job still answers ${at7s.status} ${statusOf(at7s)}`, at7s),
    );
  });
});
