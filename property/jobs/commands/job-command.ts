import type fc from 'fast-check';
import type { ApiResult } from '../../../lib/client/api.js';
import type { JobModel, ModelJob, Shown } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { isSuccess } from '../../../contract/checks/status.js';
import { readJob } from '../lockstep.js';

/**
 * A command on one of the jobs run so far (`/cancel`, `/retry`): what the job is now decides
 * what the operation must do, so the job is read first. A job gone (purged or past its
 * retention) answers some 4xx; a purged job was "removed" and never runs, and the spec states
 * no answer for it, so some 4xx or the job as CANCELLED both agree. Subclasses check the answer
 * for a job that is there.
 */
export abstract class JobCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  protected abstract readonly operation: 'cancel' | 'retry';

  constructor(readonly pick: number) {}

  check(model: Readonly<JobModel>): boolean {
    return model.jobs.length > 0;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const index = this.pick % model.jobs.length;
    const job = model.jobs[index]!;
    // Read first even when the model can tell: a job gone before its retention ended then
    // breaks the retention rule, not the operation's.
    const now = await readJob(model, real, job);
    const res = await real[this.operation](index);
    const refused = res.status >= 400 && res.status < 500;
    if (model.purged(index)) {
      const cancelled = isSuccess(res) && (res.body as { status?: unknown } | undefined)?.status === 'CANCELLED';
      expectModel(refused || cancelled, model.goneBecause(index), `/${this.operation} of job #${index} (purged while waiting) answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    if (now === 'gone') {
      expectModel(refused, model.goneBecause(index), `/${this.operation} of job #${index} (gone) answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    this.answered(model, real, index, job, now, res);
  }

  /** Checks the answer for a job that showed `now` (and moves the model along). */
  protected abstract answered(model: JobModel, real: RealEndpoint, index: number, job: ModelJob, now: Shown, res: ApiResult): void;

  toString(): string {
    return `${this.operation}(#${this.pick})`;
  }
}
