import type fc from 'fast-check';
import type { JobModel } from '../model.js';
import type { RealEndpoint } from '../real.js';
import { advanceTogether } from '../lockstep.js';

/** Moves the virtual clock by a fixed step: jobs run, end, retry, and results expire on the way. */
export class AdvanceCommand implements fc.AsyncCommand<JobModel, RealEndpoint> {
  constructor(readonly ms: number) {}

  check(): boolean {
    return true;
  }

  async run(model: JobModel, real: RealEndpoint): Promise<void> {
    await advanceTogether(model, real, model.now + this.ms);
  }

  toString(): string {
    return `advance(${this.ms} ms)`;
  }
}
