import type { ApiResult } from '../../../lib/client/api.js';
import { isActive, type JobModel, type ModelJob } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { JobCommand } from './job-command.js';
import { resolveDispatch } from '../lockstep.js';

/** `/cancel/<id>`: a waiting or running job becomes CANCELLED; an ended one keeps its status, whatever the answer. */
export class CancelCommand extends JobCommand {
  protected readonly operation = 'cancel';

  protected async answered(model: JobModel, real: RealEndpoint, index: number, job: ModelJob, res: ApiResult): Promise<void> {
    // The answer for a job that already ended is not shown; later reads check it kept its status.
    if (!isActive(job.status)) return;
    const expected = 'CANCELLED';
    const rule = job.status === 'IN_QUEUE' ? 'JOB.STATE.CANCEL_QUEUED' : 'JOB.STATE.CANCEL_IN_PROGRESS';
    model.cancel(job);
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && body.id === real.ids[index], rule, `/cancel of job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.status === expected, rule, `/cancel of job #${index} answered ${String(body.status)}; the model says ${expected}`);
    // A running job cancelled frees its worker, which takes one of the waiting jobs.
    await resolveDispatch(model, real);
  }
}
