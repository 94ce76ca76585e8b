import type fc from 'fast-check';
import { WAIT_MS } from '../../../lib/iso/spec-constants.js';
import { isEnded, observe, type JobInput, type JobModel, type Shown } from '../model.js';
import { EARLY_ANSWER_WINDOW_MS, settlesWithin } from '../../../contract/specs/serverless/support/jobs.js';
import { expectModel, handlerInput, type RealEndpoint } from '../real.js';
import { advanceTogether, known, readAll, STEP_MS } from '../lockstep.js';

/**
 * `/runsync`: the answer comes when the job ends or the wait elapses, whichever is first, with
 * the job as it then stands. Its id comes only with the answer, so the model cannot read the job
 * while the request waits, nor learn when it started: the clock moves with the model to the
 * earliest time the job may end, then a step at a time, looking for the answer at each stop,
 * until the wait has passed. The answer is held to what the job may show when it was seen; one
 * not ended before the wait had passed answered too early.
 */
export class RunsyncCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly input: JobInput, readonly wait: number | undefined) {}

  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    // Every other job read now, so the endpoint's count once the request arrives is known too.
    await readAll(model, real);
    const { inQueue, inProgress } = model.counts(known(model, real));
    const submittedAt = model.now;
    const deadline = submittedAt + (this.wait ?? WAIT_MS.default);
    const waitRule = this.wait === undefined ? 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S' : 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING';
    const job = model.submit(this.input, true, this.wait !== undefined);
    const pending = real.runsync(handlerInput(this.input, job.index), this.wait);
    let settled: { error?: unknown } | undefined;
    pending.then(() => { settled = {}; }, (error: unknown) => { settled = { error }; });
    const endsFrom = model.earliestEnd(job);
    const answered = async (): Promise<boolean> => model.now >= endsFrom && model.now < deadline && settlesWithin(pending, EARLY_ANSWER_WINDOW_MS);
    try {
      await real.untilActive(inQueue + inProgress + 1, () => settled);
      await advanceTogether(model, real, deadline, () => (model.now < endsFrom ? endsFrom : model.now + STEP_MS), answered);
      expectModel(await settlesWithin(pending, 3_000), waitRule, `/runsync had not answered ${model.now - submittedAt} ms after it was sent (wait ${this.wait ?? 'default'})`);
    } catch (e) {
      // Free the waiting request (past the longest wait) before reporting the divergence.
      await real.advance(300_001).catch(() => undefined);
      await pending.catch(() => undefined);
      throw e;
    }
    const res = await pending;
    const body = (res.body ?? {}) as { id?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && typeof body.id === 'string', 'JOB.RUNSYNC.RESPONSE', `/runsync answered ${res.status} ${res.text.slice(0, 160)}`);
    real.ids[job.index] = body.id as string;
    const shown = body.status as Shown;
    const within = `by ${model.now - submittedAt} ms after it was sent`;
    expectModel(isEnded(shown) || model.now >= deadline, waitRule,
      `/runsync with a wait of ${deadline - submittedAt} ms answered ${String(body.status)} ${within}: before the wait had passed, with the job not ended`);
    const divergence = observe(job, model.now, shown);
    expectModel(divergence === undefined, divergence?.rule ?? '', `/runsync answered ${within}: ${divergence?.message ?? ''}`);
  }

  toString(): string {
    return `runsync(${JSON.stringify(this.input)}${this.wait !== undefined ? `, wait=${this.wait}` : ''})`;
  }
}
