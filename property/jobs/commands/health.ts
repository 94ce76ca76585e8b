import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';

/** `/health`: the five job counters equal the model's. */
export class HealthCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const got = await real.counters();
    const want = model.counters;
    const keys = ['completed', 'failed', 'inProgress', 'inQueue', 'retried'] as const;
    expectModel(keys.every((k) => got[k] === want[k]), 'HEALTH.JOBS.COUNTS', `/health jobs ${JSON.stringify(got)}; the model says ${JSON.stringify(want)}`);
  }

  toString(): string {
    return 'health()';
  }
}
