import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';

/** `/retry/<id>`: FAILED or TIMED_OUT back to IN_QUEUE with the same id; any other status 409; gone 404. */
export class RetryCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const index = this.pick % model.jobs.length;
    const job = model.visible(index);
    const res = await real.retry(index);
    if (!job) {
      expectModel(res.status === 404, `/retry of job #${index} (gone in the model) answered ${res.status}`);
      return;
    }
    if (job.status !== 'FAILED' && job.status !== 'TIMED_OUT') {
      expectModel(res.status === 409, `/retry of the ${job.status} job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    model.retry(job);
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status === 200 && body.status === 'IN_QUEUE', `/retry of job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.id === real.ids[index], `/retry answered id ${String(body.id)}, not ${real.ids[index]}`);
  }

  toString(): string {
    return `retry(#${this.pick})`;
  }
}
