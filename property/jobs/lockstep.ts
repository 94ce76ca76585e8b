import { statusOf } from '../../contract/checks/job-conformance.js';
import type { JobModel, ModelJob } from './model.js';
import { expectModel, type RealEndpoint } from './real.js';

/**
 * Settles the model's pending dispatch from the target: the waiting jobs it shows IN_PROGRESS
 * are the ones its free workers took (the spec leaves the order open). A job whose id the
 * target has not answered yet (a /runsync still waiting) is read as taken when the others
 * leave a worker free. Every other status, or another number of jobs taken than workers
 * free, diverges from the rule that put the job in the queue.
 */
export async function resolveDispatch(model: JobModel, real: RealEndpoint): Promise<void> {
  while (model.pending) {
    const { waiting, slots } = model.pending;
    const known = waiting.filter((j) => real.ids[j.index] !== undefined);
    const statuses = await Promise.all(known.map(async (j) => statusOf(await real.status(j.index))));
    const odd = known.findIndex((_, i) => statuses[i] !== 'IN_QUEUE' && statuses[i] !== 'IN_PROGRESS');
    expectModel(odd < 0, known[odd]?.because ?? '', `job #${known[odd]?.index} waited for a worker at ${model.now} ms; the target shows it ${String(statuses[odd])}`);
    const taken: ModelJob[] = known.filter((_, i) => statuses[i] === 'IN_PROGRESS');
    for (const job of waiting) if (taken.length < slots && real.ids[job.index] === undefined) taken.push(job);
    const left = waiting.find((j) => !taken.includes(j));
    expectModel(taken.length === slots, left?.because ?? waiting[0]!.because,
      `${slots} worker(s) were free at ${model.now} ms with ${waiting.length} jobs waiting; the target started ${taken.length} (#${taken.map((j) => j.index).join(', #')})`);
    model.resolve(taken);
  }
}

/**
 * Moves the model and the target's clock together to `to`, one event at a time, settling each
 * dispatch from the target at the instant it happens; stops after the first event at which
 * `stopAfter` holds.
 */
export async function advanceTogether(model: JobModel, real: RealEndpoint, to: number, stopAfter?: () => boolean): Promise<void> {
  for (let at = model.nextEvent(); at !== undefined && at <= to; at = model.nextEvent()) {
    await real.advance(at - model.now);
    model.eventsAt(at);
    await resolveDispatch(model, real);
    if (stopAfter?.()) return;
  }
  await real.advance(to - model.now);
  model.idleTo(to);
}
