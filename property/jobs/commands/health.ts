import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { readAll } from '../lockstep.js';

/**
 * `/health`: `inQueue` and `inProgress`, whose names say how many jobs wait and run now, equal
 * the number of jobs the target shows waiting and running at that instant (every job is read
 * first, the clock still). `completed`, `failed` and `retried` are integers whose meaning over
 * time the spec does not state (cumulative, or over a window): the schema holds their type, the
 * model nothing more.
 */
export class HealthCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    await readAll(model, real);
    const got = await real.counters();
    const want = model.counts();
    expectModel(got.inQueue === want.inQueue && got.inProgress === want.inProgress, 'HEALTH.JOBS.COUNTS',
      `/health jobs ${JSON.stringify(got)} at ${model.now} ms; the jobs show ${want.inQueue} waiting and ${want.inProgress} running`);
  }

  toString(): string {
    return 'health()';
  }
}
