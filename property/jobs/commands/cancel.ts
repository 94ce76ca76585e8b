import type { ApiResult } from '../../../lib/client/api.js';
import { isActive, type JobModel, type ModelJob, type Shown } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { JobCommand } from './job-command.js';

/** `/cancel/<id>`: a waiting or running job becomes CANCELLED; an ended one keeps its status, whatever the answer. */
export class CancelCommand extends JobCommand {
  protected readonly operation = 'cancel';

  protected answered(model: JobModel, real: RealEndpoint, index: number, job: ModelJob, now: Shown, res: ApiResult): void {
    // The answer for a job that already ended is not shown; later reads check it kept its status.
    if (!isActive(now)) return;
    const rule = now === 'IN_QUEUE' ? 'JOB.STATE.CANCEL_QUEUED' : 'JOB.STATE.CANCEL_IN_PROGRESS';
    model.cancel(job, now as 'IN_QUEUE' | 'IN_PROGRESS');
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && body.id === real.ids[index], rule, `/cancel of the ${now} job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.status === 'CANCELLED', rule, `/cancel of the ${now} job #${index} answered ${String(body.status)}; the model says CANCELLED`);
  }
}
