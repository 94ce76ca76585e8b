import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';

/** `/status/<id>`: the job's status, or 404 once it was purged or its result expired. */
export class StatusCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const index = this.pick % model.jobs.length;
    const job = model.visible(index);
    const res = await real.status(index);
    if (!job) {
      expectModel(res.status === 404, `/status of job #${index} (removed or expired in the model) answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    const body = (res.body ?? {}) as { status?: unknown; output?: unknown };
    expectModel(res.status === 200, `/status of job #${index} answered ${res.status}; the model has it ${job.status}`);
    expectModel(body.status === job.status, `/status of job #${index} is ${String(body.status)}; the model says ${job.status}`);
    expectModel(job.status !== 'COMPLETED' || body.output !== undefined, `the COMPLETED job #${index} shows no output`);
  }

  toString(): string {
    return `status(#${this.pick})`;
  }
}
