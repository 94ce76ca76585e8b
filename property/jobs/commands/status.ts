import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import type { RealEndpoint } from '../real.js';
import { readJob } from '../lockstep.js';

/** `/status/<id>`: a status some phase the model has possible now shows, or some 4xx once it was purged or its result expired. */
export class StatusCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    await readJob(model, real, model.jobs[this.pick % model.jobs.length]!);
  }

  toString(): string {
    return `status(#${this.pick})`;
  }
}
