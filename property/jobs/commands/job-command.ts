import type fc from 'fast-check';
import type { ApiResult } from '../../../lib/client/api.js';
import type { JobModel, ModelJob } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { isSuccess } from '../../../contract/checks/status.js';

/**
 * A command on one of the jobs run so far (`/status`, `/cancel`, `/retry`): it picks the job,
 * calls the operation, and expects some 4xx when the model has the job past its retention. A
 * purged job was "removed" and never runs; the spec states no answer for it, so some 4xx or
 * the job as CANCELLED both agree. Subclasses check the answer for a job that is there.
 */
export abstract class JobCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  protected abstract readonly operation: 'status' | 'cancel' | 'retry';

  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const index = this.pick % model.jobs.length;
    const job = model.visible(index);
    const res = await real[this.operation](index);
    const refused = res.status >= 400 && res.status < 500;
    if (!job && model.purged(index)) {
      const cancelled = isSuccess(res) && (res.body as { status?: unknown } | undefined)?.status === 'CANCELLED';
      expectModel(refused || cancelled, model.goneBecause(index), `/${this.operation} of job #${index} (purged while waiting) answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    if (!job) {
      expectModel(refused, model.goneBecause(index), `/${this.operation} of job #${index} (gone in the model) answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    await this.answered(model, real, index, job, res);
  }

  /** Checks the answer for a job the model still has (and moves the model along). */
  protected abstract answered(model: JobModel, real: RealEndpoint, index: number, job: ModelJob, res: ApiResult): void | Promise<void>;

  toString(): string {
    return `${this.operation}(#${this.pick})`;
  }
}
