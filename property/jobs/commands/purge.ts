import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import { expectModel, type RealEndpoint } from '../real.js';
import { readAll } from '../lockstep.js';

/** `/purge-queue`: every waiting job (as the target shows them at that instant) removed and counted; running jobs go on. */
export class PurgeCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    await readAll(model, real);
    const removed = model.purge();
    const res = await real.purge();
    const body = (res.body ?? {}) as { removed?: unknown; status?: unknown };
    expectModel(res.status >= 200 && res.status < 300 && body.status === 'completed', 'JOB.PURGE.RESPONSE', `/purge-queue answered ${res.status} ${res.text.slice(0, 160)}`);
    expectModel(body.removed === removed, 'JOB.PURGE.REMOVED_COUNT', `/purge-queue removed ${String(body.removed)}; the target showed ${removed} waiting at ${model.now} ms`);
  }

  toString(): string {
    return 'purge()';
  }
}
