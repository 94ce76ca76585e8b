import type fc from 'fast-check';
import type { JobInput, JobModel } from '../model.js';
import { expectModel, handlerInput, type RealEndpoint } from '../real.js';

/** `/run`: answers `{id, status: IN_QUEUE}` with a plain id; the job enters the queue. */
export class RunCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly input: JobInput) {}

  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const job = model.submit(this.input, false, false);
    const res = await real.run(handlerInput(this.input, job.index));
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && typeof body.id === 'string', 'JOB.RUN.RESPONSE', `/run answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.status === 'IN_QUEUE', 'JOB.RUN.RESPONSE', `/run answered status ${String(body.status)}, not IN_QUEUE`);
    real.ids.push(body.id as string);
  }

  toString(): string {
    return `run(${JSON.stringify(this.input)})`;
  }
}
