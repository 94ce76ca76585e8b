import type { ApiResult } from '../../../lib/client/api.js';
import type { JobModel, ModelJob } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { JobCommand } from './job-command.js';

/** `/status/<id>`: the job's status, or some 4xx once it was purged or its result expired. */
export class StatusCommand extends JobCommand {
  protected readonly operation = 'status';

  protected answered(_model: JobModel, _real: RealEndpoint, index: number, job: ModelJob, res: ApiResult): void {
    const body = (res.body ?? {}) as { status?: unknown; output?: unknown };
    expectModel(res.status >= 200 && res.status < 300, job.because, `/status of job #${index} answered ${res.status}; the model has it ${job.status}`);
    expectModel(body.status === job.status, job.because, `/status of job #${index} is ${String(body.status)}; the model says ${job.status}`);
    expectModel(job.status !== 'COMPLETED' || body.output !== undefined, 'JOB.STATUS.RESPONSE', `the COMPLETED job #${index} shows no output`);
  }
}
