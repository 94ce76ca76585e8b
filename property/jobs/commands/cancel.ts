import type fc from 'fast-check';
import { isActive, type JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';

/** `/cancel/<id>`: a waiting or running job becomes CANCELLED; an ended one keeps its status (CHOICES.md). */
export class CancelCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const index = this.pick % model.jobs.length;
    const job = model.visible(index);
    const res = await real.cancel(index);
    if (!job) {
      expectModel(res.status === 404, `/cancel of job #${index} (gone in the model) answered ${res.status}`);
      return;
    }
    const expected = isActive(job.status) ? 'CANCELLED' : job.status;
    if (isActive(job.status)) model.cancel(job);
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status === 200 && body.id === real.ids[index], `/cancel of job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.status === expected, `/cancel of job #${index} answered ${String(body.status)}; the model says ${expected}`);
  }

  toString(): string {
    return `cancel(#${this.pick})`;
  }
}
