import type { ApiResult } from '../../../lib/client/api.js';
import type { JobModel, ModelJob, Shown } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { JobCommand } from './job-command.js';

/**
 * `/retry/<id>`: FAILED or TIMED_OUT back to IN_QUEUE with the same id. The answer for any other
 * status is not shown: the job is not requeued (later reads check that), so only an answer that
 * says it was requeued diverges; gone: not found.
 */
export class RetryCommand extends JobCommand {
  protected readonly operation = 'retry';

  protected answered(model: JobModel, real: RealEndpoint, index: number, job: ModelJob, now: Shown, res: ApiResult): void {
    if (now !== 'FAILED' && now !== 'TIMED_OUT') {
      const requeued = res.status >= 200 && res.status < 300 && (res.body as { status?: unknown } | undefined)?.status === 'IN_QUEUE';
      expectModel(!requeued, 'JOB.STATE.RETRY_NOT_REQUEUED_OTHERWISE', `/retry of the ${now} job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
    const rule = now === 'TIMED_OUT' ? 'JOB.STATE.RETRY_TIMED_OUT' : 'JOB.STATE.RETRY_FAILED';
    model.retry(job, now);
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && body.status === 'IN_QUEUE', rule, `/retry of the ${now} job #${index} answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.id === real.ids[index], 'JOB.STATE.RETRY_SAME_ID', `/retry answered id ${String(body.id)}, not ${real.ids[index]}`);
  }
}
