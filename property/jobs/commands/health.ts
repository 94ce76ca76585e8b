import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';

/**
 * `/health`: `inQueue` and `inProgress`, whose names say how many jobs wait and run now, equal
 * the model's. `completed`, `failed` and `retried` are integers whose meaning over time the spec
 * does not state (cumulative, or over a window): the schema holds their type, the model nothing more.
 */
export class HealthCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const got = await real.counters();
    const want = model.counts();
    expectModel(got.inQueue === want.inQueue && got.inProgress === want.inProgress, 'HEALTH.JOBS.COUNTS',
      `/health jobs ${JSON.stringify(got)}; the model has ${want.inQueue} waiting and ${want.inProgress} running`);
  }

  toString(): string {
    return 'health()';
  }
}
