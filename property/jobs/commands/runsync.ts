import type fc from 'fast-check';
import { WAIT_MS } from '../../../lib/iso/spec-constants.js';
import { isActive, type JobInput, type JobModel } from '../model.js';
import { settlesWithin } from '../../../contract/specs/serverless/support/jobs.js';
import { expectModel, handlerInput, type RealEndpoint } from '../real.js';
import { advanceTogether } from '../lockstep.js';

/**
 * `/runsync`: the answer comes when the job ends or the wait elapses, whichever is first, with
 * the job as it then stands. The command moves the clock to that moment while the request
 * waits, with the model, event by event (a dispatch on the way is learned from the target).
 */
export class RunsyncCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly input: JobInput, readonly wait: number | undefined) {}

  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    const submittedAt = model.now;
    const job = model.submit(this.input, true, this.wait !== undefined);
    const { inQueue, inProgress } = model.counts();
    const pending = real.runsync(handlerInput(this.input, job.index), this.wait);
    pending.catch(() => undefined);
    try {
      if (isActive(job.status)) {
        await real.untilActive(inQueue + inProgress);
        await advanceTogether(model, real, submittedAt + (this.wait ?? WAIT_MS.default), () => !isActive(job.status));
      }
      expectModel(await settlesWithin(pending, 3_000), 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', `/runsync had not answered ${model.now - submittedAt} ms after it was sent; the model answers then`);
    } catch (e) {
      // Free the waiting request (past the longest wait) before reporting the divergence.
      await real.advance(300_001).catch(() => undefined);
      await pending.catch(() => undefined);
      throw e;
    }
    const res = await pending;
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && typeof body.id === 'string', 'JOB.RUNSYNC.RESPONSE', `/runsync answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.status === job.status, job.because, `/runsync answered ${String(body.status)} after ${model.now - submittedAt} ms; the model says ${job.status}`);
    real.ids.push(body.id as string);
  }

  toString(): string {
    return `runsync(${JSON.stringify(this.input)}${this.wait !== undefined ? `, wait=${this.wait}` : ''})`;
  }
}
