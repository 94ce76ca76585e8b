import type { ApiResult } from '../../lib/client/api.js';
import { isSuccess } from '../../contract/checks/status.js';
import { observe, possibleAt, type JobModel, type ModelJob, type Shown } from './model.js';
import { expectModel, type RealEndpoint } from './real.js';

/**
 * How far the clock moves at a time while a job may be waiting to start: the target's statuses,
 * read after each move, tell the model when it started, to within this step.
 */
export const STEP_MS = 1_000;

/** What a /status answer shows of the job: its status, `gone` for some 4xx, undefined for anything else. */
export function shownBy(res: ApiResult): Shown | undefined {
  if (res.status >= 400 && res.status < 500) return 'gone';
  const status = isSuccess(res) ? (res.body as { status?: unknown } | undefined)?.status : undefined;
  return typeof status === 'string' ? (status as Shown) : undefined;
}

/** The jobs whose id the target has answered (a /runsync still waiting has not). */
export const known = (model: JobModel, real: RealEndpoint): ModelJob[] => model.jobs.filter((j) => real.ids[j.index] !== undefined);

/** Reads the job's /status now and holds the answer to the model; returns what it showed. */
export async function readJob(model: JobModel, real: RealEndpoint, job: ModelJob): Promise<Shown> {
  const res = await real.status(job.index);
  const shown = shownBy(res);
  const rule = job.phases[possibleAt(job, model.now).at(-1) ?? job.phases.length - 1]!.because;
  expectModel(shown !== undefined, rule, `/status of job #${job.index} answered ${res.status} ${res.text.slice(0, 160)}`);
  const divergence = observe(job, model.now, shown!);
  expectModel(divergence === undefined, divergence?.rule ?? '', `/status: ${divergence?.message ?? ''}`);
  expectModel(shown !== 'COMPLETED' || (res.body as { output?: unknown }).output !== undefined, 'JOB.STATUS.RESPONSE', `the COMPLETED job #${job.index} shows no output`);
  return shown!;
}

/**
 * Reads every job with an id, before a count is compared with the target's: a job the target
 * shows otherwise than the model then fails its own rule (a cancel that did not stop it), and a
 * count that still differs is the count's fault.
 */
export async function readAll(model: JobModel, real: RealEndpoint): Promise<void> {
  for (const job of known(model, real)) await readJob(model, real, job);
}

/** Reads every job with an id whose activity now (waiting, running or neither) the model cannot tell. */
export async function settle(model: JobModel, real: RealEndpoint): Promise<void> {
  for (const job of model.unsettled(known(model, real))) await readJob(model, real, job);
}

/**
 * Moves the model and the target's clock together to `to`. While a job may be waiting to start,
 * the clock moves a step at a time and the jobs whose activity is then unknown are read; with
 * none waiting it moves to the next time one may be (an automatic retry), or to `to`. `stopAt`
 * adds stops (a /runsync's); the move ends early once `stopAfter` holds at a stop.
 */
export async function advanceTogether(model: JobModel, real: RealEndpoint, to: number,
  stopAt?: () => number, stopAfter?: () => Promise<boolean>): Promise<void> {
  while (model.now < to) {
    const jobs = known(model, real);
    const next = Math.min(to, model.mayStartNow(jobs) ? model.now + STEP_MS : model.nextWait(jobs) ?? Infinity, stopAt?.() ?? Infinity);
    await real.advance(next - model.now);
    model.now = next;
    await settle(model, real);
    if (stopAfter && (await stopAfter())) return;
  }
}
